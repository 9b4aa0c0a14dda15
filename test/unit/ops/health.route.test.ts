import request from 'supertest';
import packageJson from '../../../package.json';
import { errors } from '../../../schemas/errors';
import { HealthResponseSchema } from '../../../schemas/http/health';
import { buildApp } from '../../../src/http/app';
import type { AppDeps } from '../../../src/http/app.types';
import { testDeps } from '../http/support/test-app';

const ADMIN_TOKEN = 'ops-admin-token-of-this-test-0123456789';
const ADMIN = { ADMIN_TOKEN };
/** The dependency details are for the ops admin only (actors/ops/health-view.ts). */
const asAdmin = <S>(deps: AppDeps<S>) =>
  request(buildApp(deps)).get('/health').set('Authorization', `Bearer ${ADMIN_TOKEN}`);

describe('GET /health', () => {
  it('answers 200 ok with version, timestamp, tools and dependencies from ops:health', async () => {
    const { deps, system } = testDeps({ toolCount: () => 44 }, ADMIN);
    const before = Date.now();
    const res = await asAdmin(deps);
    expect(res.status).toBe(200);
    expect(HealthResponseSchema.parse(res.body)).toEqual(res.body);
    expect(res.body).toMatchObject({ status: 'ok', version: packageJson.version, tools: 44 });
    expect(res.body.version).toBe('6.6.7');
    expect(new Date(res.body.timestamp).toISOString()).toBe(res.body.timestamp);
    expect(Date.parse(res.body.timestamp)).toBeGreaterThanOrEqual(before - 1000);
    expect(Object.keys(res.body.dependencies).sort()).toEqual(['cache', 'documents', 'transport']);
    expect(system.calls).toEqual([
      { method: 'ask', to: 'ops:health', type: 'ops.health', body: {}, options: { timeoutMs: 5000 } },
    ]);
  });

  it('shows an anonymous caller only {status, version, timestamp, tools}', async () => {
    const { deps } = testDeps({ toolCount: () => 44 }, ADMIN);
    const res = await request(buildApp(deps)).get('/health');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['status', 'timestamp', 'tools', 'version']);
    expect(res.body).toMatchObject({ status: 'ok', version: '6.6.7', tools: 44 });
  });

  it('gives the details to no one when no admin token is configured, and to no other bearer', async () => {
    for (const [env, auth] of [
      [{}, 'Bearer '],
      [ADMIN, 'Bearer not-the-admin-token'],
      [ADMIN, `Token ${ADMIN_TOKEN}`],
    ] as const) {
      const { deps } = testDeps({}, env);
      const res = await request(buildApp(deps)).get('/health').set('Authorization', auth);
      expect(res.status).toBe(200);
      expect(res.body.dependencies).toBeUndefined();
    }
  });

  it('reports tools: 0 by default', async () => {
    expect((await request(buildApp(testDeps().deps)).get('/health')).body.tools).toBe(0);
  });

  it('reports the tool count whether toolCount answers at once or with a promise', async () => {
    const get = async (toolCount: () => number | Promise<number>) =>
      (await request(buildApp(testDeps({ toolCount }).deps)).get('/health')).body.tools;
    expect(await get(() => Promise.resolve(7))).toBe(7);
    expect(await get(() => Promise.resolve(-1))).toBe(0);
    expect(await get(() => 2.5)).toBe(0);
  });

  it('stays 200 with status degraded when a dependency is down', async () => {
    const { deps, system } = testDeps({}, ADMIN);
    system.onAsk('ops:health', 'ops.health', () => ({
      status: 'degraded',
      dependencies: {
        transport: { state: 'up' },
        documents: { state: 'up' },
        cache: { state: 'down', detail: 'redis://cache:6379 refused' },
      },
    }));
    const res = await asAdmin(deps);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('degraded');
    expect(res.body.dependencies.cache).toEqual({ state: 'down', detail: 'redis://cache:6379 refused' });
  });

  it('answers 503 unavailable, still health-shaped with an error string, when the actor does not answer', async () => {
    const { deps, system } = testDeps({}, ADMIN);
    system.onAsk('ops:health', 'ops.health', () => {
      throw errors.deadline();
    });
    const anonymous = await request(buildApp(deps)).get('/health');
    expect(anonymous.status).toBe(503);
    expect(Object.keys(anonymous.body).sort()).toEqual([
      'code',
      'error',
      'status',
      'timestamp',
      'tools',
      'version',
    ]);
    const res = await asAdmin(deps);
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(HealthResponseSchema.parse(res.body)).toBeTruthy();
    expect(res.body).toMatchObject({
      status: 'unavailable',
      version: '6.6.7',
      tools: 0,
      code: 'UNAVAILABLE',
      error: expect.any(String),
      dependencies: {
        transport: { state: 'down' },
        documents: { state: 'unknown' },
        cache: { state: 'unknown' },
      },
    });
  });

  it('treats a malformed actor reply as unavailable', async () => {
    const { deps, system } = testDeps();
    system.onAsk('ops:health', 'ops.health', () => ({ status: 'great' }));
    expect((await request(buildApp(deps)).get('/health')).status).toBe(503);
  });

  it('uses the shorter of its own deadline and REQUEST_TIMEOUT_MS', async () => {
    const { deps, system } = testDeps({}, { REQUEST_TIMEOUT_MS: '800' });
    await request(buildApp(deps)).get('/health');
    expect(system.calls[0].options).toEqual({ timeoutMs: 800 });
  });
});
