import request from 'supertest';
import { buildApp } from '../../../src/http/app';
import { requestIdFrom } from '../../../src/http/request-context.middleware';
import { testDeps } from './support/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids', () => {
  it('generates one per request when none is sent', async () => {
    const app = buildApp(testDeps().deps);
    const [a, b] = await Promise.all([request(app).get('/health'), request(app).get('/nope')]);
    expect(a.headers['x-request-id']).toMatch(UUID);
    expect(b.headers['x-request-id']).toMatch(UUID);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('echoes a well-formed incoming id, on success and on error', async () => {
    const app = buildApp(testDeps().deps);
    const ok = await request(app).get('/health').set('X-Request-Id', 'trace-1.2_A');
    expect(ok.headers['x-request-id']).toBe('trace-1.2_A');
    const notFound = await request(app).get('/nope').set('X-Request-Id', 'trace-2');
    expect(notFound.headers['x-request-id']).toBe('trace-2');
  });

  it.each(['has space', 'a'.repeat(65), 'semi;colon', '<script>'])(
    'replaces a malformed incoming id (%s)',
    (id) => {
      expect(requestIdFrom(id)).toMatch(UUID);
    },
  );
});

describe('request logging', () => {
  it('writes one completion line per request with method, path, status, duration and reqId', async () => {
    const { deps, lines } = testDeps();
    const app = buildApp(deps);
    await request(app).get('/health?token=abc').set('X-Request-Id', 'log-1');
    const done = lines.filter((l) => l.msg === 'request completed');
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({ reqId: 'log-1', method: 'GET', path: '/health', status: 200, level: 30 });
    expect(typeof done[0].durationMs).toBe('number');
  });

  it('never logs bodies, authorization, cookies or the query string', async () => {
    const { deps, raw } = testDeps();
    const app = buildApp(deps);
    await request(app)
      .patch('/api/ffp/temp?secretq=qq1')
      .set('Authorization', 'Bearer tok-SECRET-1')
      .set('Cookie', 'sid=cookie-SECRET-2')
      .send({ enabled: true, password: 'body-SECRET-3' });
    await request(app).post('/nope').send({ password: 'body-SECRET-4' });
    const all = raw.join('');
    expect(all).toContain('request completed');
    expect(all).not.toMatch(/SECRET|qq1/);
  });
});

describe('security headers', () => {
  it('sets helmet headers suited to an API and hides the framework', async () => {
    const res = await request(buildApp(testDeps().deps)).get('/health');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});
