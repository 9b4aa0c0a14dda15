import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startRuntime, type Runtime } from '../../src/boot/runtime';
import { loadConfig } from '../../src/config/load-config';
import { silentLogger } from '../../src/logging/logger';

async function get(url: string): Promise<{ status: number; retryAfter: string | null; body: unknown }> {
  const res = await fetch(url);
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() };
}

const HEALTHCHECK = path.resolve(__dirname, '../../scripts/healthcheck.js');

/**
 * Runs the container's health check command (Dockerfile HEALTHCHECK) with only `env`, in a
 * directory without a .env; resolves with its exit code.
 */
function healthcheck(probe: string, env: Record<string, string>, cwd: string): Promise<number> {
  return new Promise((resolve) => {
    const options = { cwd, env: { PATH: process.env.PATH, ...env } };
    execFile(process.execPath, [HEALTHCHECK, probe], options, (err) =>
      resolve(err ? Number((err as { code?: number }).code ?? 1) : 0),
    );
  });
}

/** The probes on the embedded runtime: route → kernel → ops:health → the real stores. */
describe('GET /livez and /readyz on a running service', () => {
  let dir: string;
  let runtime: Runtime | undefined;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-probes-'));
    runtime = await startRuntime(loadConfig({ DATA_DIR: dir, PORT: '0' }), silentLogger);
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await runtime?.stop();
    runtime = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is alive and ready with every embedded dependency up', async () => {
    const base = runtime!.http!.url;
    expect(await get(`${base}/livez`)).toEqual({ status: 200, retryAfter: null, body: { status: 'alive' } });
    expect(await get(`${base}/readyz`)).toEqual({ status: 200, retryAfter: null, body: { status: 'ready' } });
  });

  it('is not ready (503, error body) while the document store cannot answer its status, and still alive', async () => {
    const base = runtime!.http!.url;
    jest.spyOn(runtime!.documents, 'status').mockRejectedValue(new Error('connection refused'));
    expect(await get(`${base}/readyz`)).toEqual({
      status: 503,
      retryAfter: '1',
      body: {
        status: 'not_ready',
        error: 'Not ready: documents down',
        code: 'UNAVAILABLE',
        dependencies: { transport: 'up', documents: 'down', cache: 'up' },
      },
    });
    expect((await get(`${base}/livez`)).status).toBe(200);
  });

  it('the container health check (Dockerfile HEALTHCHECK) passes on /livez and /readyz', async () => {
    // HOST=0.0.0.0 as in the image: the check asks 127.0.0.1, where a wildcard listener answers.
    const env = { HOST: '0.0.0.0', PORT: String(runtime!.http!.port) };
    expect(await healthcheck('/livez', env, dir)).toBe(0);
    expect(await healthcheck('/readyz', env, dir)).toBe(0);
    // The port from a .env in the working directory, as the program itself reads it.
    fs.writeFileSync(path.join(dir, '.env'), `PORT=${runtime!.http!.port}\n`);
    expect(await healthcheck('/readyz', {}, dir)).toBe(0);
  });

  it('the container health check fails on /readyz while not ready, and on anything once stopped', async () => {
    const env = { PORT: String(runtime!.http!.port) };
    jest.spyOn(runtime!.documents, 'status').mockRejectedValue(new Error('connection refused'));
    expect(await healthcheck('/readyz', env, dir)).toBe(1);
    expect(await healthcheck('/livez', env, dir)).toBe(0);
    expect(await healthcheck('/nope', env, dir)).toBe(2);
    await runtime!.stop();
    expect(await healthcheck('/livez', env, dir)).toBe(1);
    // A worker serves no HTTP: it passes while its process runs.
    expect(await healthcheck('/livez', { ...env, ROLE: 'worker' }, dir)).toBe(0);
  });

  it('is not ready once the document store is closed', async () => {
    await runtime!.documents.close();
    const { status, body } = await get(`${runtime!.http!.url}/readyz`);
    expect(status).toBe(503);
    expect(body).toMatchObject({ code: 'UNAVAILABLE', dependencies: { documents: 'down' } });
  });
});
