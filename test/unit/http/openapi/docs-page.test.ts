import request from 'supertest';
import { buildApp } from '../../../../src/http/app';
import { DOCS_CSP } from '../../../../src/http/openapi/openapi.route';
import { testDeps } from '../support/test-app';

describe('GET /openapi.json and the /docs reference page', () => {
  const app = buildApp(testDeps().deps);

  it('serves the document as JSON', async () => {
    const res = await request(app).get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).toMatchObject({ openapi: '3.1.0', info: { title: expect.any(String) } });
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/api/signup', '/mcp', '/docs']));
  });

  it('serves the page with a policy that allows only its own assets, and nothing from elsewhere', async () => {
    const res = await request(app).get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['content-security-policy']).toBe(DOCS_CSP);
    expect(DOCS_CSP).toContain("script-src 'self'");
    expect(DOCS_CSP).not.toMatch(/unsafe|https?:/);
    // Every script and stylesheet is a path on this site, and there is no inline script.
    const refs = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThanOrEqual(4);
    for (const ref of refs) expect(ref).toMatch(/^\/docs\/assets\//);
    expect(res.text).not.toMatch(/<script>(?!<\/script>)/);
  });

  it.each([
    ['swagger-ui-bundle.js', /javascript/],
    ['swagger-ui.css', /text\/css/],
    ['init.js', /javascript/],
    ['favicon-32x32.png', /image\/png/],
  ])('serves %s from the installed package', async (file, type) => {
    const res = await request(app).get(`/docs/assets/${file}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(type);
    expect(Number(res.headers['content-length'] ?? res.text?.length ?? 0)).toBeGreaterThan(0);
  });

  it('serves no other file of node_modules', async () => {
    for (const file of ['package.json', '..%2F..%2Fpackage.json', 'index.html']) {
      const res = await request(app).get(`/docs/assets/${file}`);
      expect([file, res.status, res.body.code]).toEqual([file, 404, 'NOT_FOUND']);
    }
    const long = await request(app).get(`/docs/assets/${'a'.repeat(100)}.js`);
    expect([long.status, long.body.code]).toEqual([400, 'VALIDATION_ERROR']);
  });
});
