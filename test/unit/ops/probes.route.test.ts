import request from 'supertest';
import { errors } from '../../../schemas/errors';
import { buildApp } from '../../../src/http/app';
import { testDeps } from '../http/support/test-app';

const up = { state: 'up' as const };

describe('GET /livez', () => {
  it('answers 200 alive without asking any actor', async () => {
    const { deps, system } = testDeps();
    const res = await request(buildApp(deps)).get('/livez');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'alive' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(system.calls).toEqual([]);
  });

  it('stays 200 while the actors do not answer at all', async () => {
    const { deps, system } = testDeps();
    system.onAsk('ops:health', 'ops.health', () => {
      throw errors.deadline();
    });
    expect((await request(buildApp(deps)).get('/livez')).status).toBe(200);
  });

  it('answers HEAD too, and 405 to other methods', async () => {
    const app = buildApp(testDeps().deps);
    expect((await request(app).head('/livez')).status).toBe(200);
    const post = await request(app).post('/livez');
    expect(post.status).toBe(405);
    expect(post.body.code).toBe('METHOD_NOT_ALLOWED');
  });
});

describe('GET /readyz', () => {
  it('answers 200 ready when ops:health reports every dependency up', async () => {
    const { deps, system } = testDeps();
    const res = await request(buildApp(deps)).get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready' });
    expect(system.calls).toEqual([
      { method: 'ask', to: 'ops:health', type: 'ops.health', body: {}, options: { timeoutMs: 3000 } },
    ]);
  });

  it('answers 503 with an error body naming the dependency that is down, without its details', async () => {
    const { deps, system } = testDeps();
    system.onAsk('ops:health', 'ops.health', () => ({
      status: 'degraded',
      dependencies: {
        transport: up,
        documents: {
          state: 'down',
          detail: 'mongodb db.internal:27017 unreachable (MongoServerSelectionError)',
        },
        cache: up,
      },
    }));
    const res = await request(buildApp(deps)).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.body).toEqual({
      status: 'not_ready',
      error: 'Not ready: documents down',
      code: 'UNAVAILABLE',
      dependencies: { transport: 'up', documents: 'down', cache: 'up' },
    });
    expect(JSON.stringify(res.body)).not.toContain('db.internal');
  });

  it('is not ready while a dependency is still connecting', async () => {
    const { deps, system } = testDeps();
    system.onAsk('ops:health', 'ops.health', () => ({
      status: 'degraded',
      dependencies: { transport: { state: 'connecting' }, documents: up, cache: { state: 'down' } },
    }));
    const res = await request(buildApp(deps)).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body.error).toBe('Not ready: transport connecting, cache down');
  });

  it('answers 503 when the health actor does not answer, naming the error code', async () => {
    const { deps, system } = testDeps();
    system.onAsk('ops:health', 'ops.health', () => {
      throw errors.deadline();
    });
    const res = await request(buildApp(deps)).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      status: 'not_ready',
      error: 'Not ready: the actors did not answer (DEADLINE_EXCEEDED)',
      code: 'UNAVAILABLE',
      dependencies: { transport: 'down', documents: 'unknown', cache: 'unknown' },
    });
  });

  it('treats a malformed actor reply as not ready', async () => {
    const { deps, system } = testDeps();
    system.onAsk('ops:health', 'ops.health', () => ({ status: 'fine' }));
    const res = await request(buildApp(deps)).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body.error).toBe('Not ready: the actors did not answer (INTERNAL_ERROR)');
  });

  it('uses the shorter of its own deadline and REQUEST_TIMEOUT_MS', async () => {
    const { deps, system } = testDeps({}, { REQUEST_TIMEOUT_MS: '500' });
    await request(buildApp(deps)).get('/readyz');
    expect(system.calls[0].options).toEqual({ timeoutMs: 500 });
  });
});
