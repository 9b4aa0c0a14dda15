import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Router } from 'express';
import request from 'supertest';
import { buildApp } from '../../../src/http/app';
import type { RouteModule } from '../../../src/http/app.types';
import { CONSOLE_CSP } from '../../../src/http/console-assets';
import { testDeps } from './support/test-app';

const INDEX =
  '<!doctype html><title>console</title><script type="module" src="/assets/app-abc123.js"></script>';

/** A built console in a temp folder (what `npm run build` writes to dist/console). */
function builtConsole(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-console-assets-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), 'console.log(1)');
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

const routes: RouteModule = (router: Router) => {
  router.get('/api/things', (_req, res) => {
    res.json({ things: [] });
  });
  router.post('/register', (_req, res) => {
    res.status(201).json({ ok: true });
  });
};

describe('the console at / (static files and the page fallback)', () => {
  let dir: string;
  let app: ReturnType<typeof buildApp>;
  beforeAll(() => {
    dir = builtConsole();
    const t = testDeps();
    t.deps.routes = [routes];
    t.deps.console = { dir };
    app = buildApp(t.deps);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('answers / with the page and a CSP that allows only its own files', async () => {
    for (const accept of ['text/html,application/xhtml+xml,*/*;q=0.8', '*/*']) {
      const res = await request(app).get('/').set('Accept', accept);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toBe(INDEX);
      expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
    expect(CONSOLE_CSP).toContain("script-src 'self'");
    expect(CONSOLE_CSP).not.toMatch(/unsafe|https?:|\*/);
  });

  it('serves hashed assets as immutable and other files as revalidated', async () => {
    const js = await request(app).get('/assets/app-abc123.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await request(app).get('/favicon.svg');
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('answers the page for a console path a browser opens (the app routes in the page)', async () => {
    const res = await request(app).get('/executions/exe_123').set('Accept', 'text/html');
    expect(res.status).toBe(200);
    expect(res.text).toBe(INDEX);
  });

  it('never shadows the API, the probes, MCP or the documents, even for a browser', async () => {
    const things = await request(app).get('/api/things').set('Accept', 'text/html');
    expect(things.body).toEqual({ things: [] });
    for (const p of [
      '/api/nope',
      '/mcp',
      '/health/x',
      '/livez/x',
      '/metrics/x',
      '/.well-known/x',
      '/openapi.json',
      '/docs',
      '/docs/x',
    ]) {
      const res = await request(app).get(p).set('Accept', 'text/html');
      expect({ p, status: res.status, type: res.headers['content-type'] }).toEqual({
        p,
        status: 404,
        type: expect.stringMatching(/^application\/json/),
      });
    }
    // A path the API knows with other methods keeps its 405.
    const register = await request(app).get('/register').set('Accept', 'text/html');
    expect(register.status).toBe(405);
  });

  it('leaves JSON clients, other methods and missing assets to the 404/405 answers', async () => {
    const json = await request(app).get('/executions').set('Accept', 'application/json');
    expect(json.status).toBe(404);
    expect(json.body.code).toBe('NOT_FOUND');
    const missing = await request(app).get('/assets/gone.js').set('Accept', '*/*');
    expect(missing.status).toBe(404);
    const post = await request(app).post('/executions').set('Accept', 'text/html');
    expect(post.status).toBe(404);
    const traversal = await request(app).get('/..%2f..%2fetc%2fpasswd').set('Accept', '*/*');
    expect(traversal.status).not.toBe(200);
  });

  it('says how to build the console when it is not built', async () => {
    const t = testDeps();
    t.deps.console = { dir: path.join(dir, 'missing') };
    const res = await request(buildApp(t.deps)).get('/').set('Accept', 'text/html');
    expect(res.status).toBe(503);
    expect(res.text).toContain('npm run build');
  });
});
