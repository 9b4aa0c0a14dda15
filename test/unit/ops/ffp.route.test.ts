import request from 'supertest';
import { errors } from '../../../schemas/errors';
import { buildApp } from '../../../src/http/app';
import { testDeps } from '../http/support/test-app';

const REFUSAL = {
  error: expect.any(String),
  enabled: false,
  status: 'disabled',
};

describe('/api/ffp/temp', () => {
  const app = buildApp(testDeps().deps);

  it('GET reports the compatibility feature disabled, executions routed directly', async () => {
    const res = await request(app).get('/api/ffp/temp');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ enabled: false, status: 'disabled', route: 'direct' });
  });

  it.each([
    ['a valid body', (r: request.Test) => r.send({ enabled: true, workspaceId: 'ws_1' })],
    ['an invalid body', (r: request.Test) => r.send({ enabled: 'yes please' })],
    ['no body', (r: request.Test) => r],
    [
      'a malformed JSON body',
      (r: request.Test) => r.set('Content-Type', 'application/json').send('{"enabled": tr'),
    ],
    ['a non-JSON body', (r: request.Test) => r.set('Content-Type', 'text/plain').send('enabled')],
    ['a body over the limit', (r: request.Test) => r.send({ enabled: true, pad: 'x'.repeat(5000) })],
  ])('PATCH always answers 405 with Allow: GET (%s)', async (_label, prepare) => {
    const res = await prepare(request(app).patch('/api/ffp/temp'));
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET');
    expect(res.body).toEqual(REFUSAL);
  });

  it('answers the same 405 to other changing methods', async () => {
    for (const method of ['post', 'put', 'delete'] as const) {
      const res = await request(app)[method]('/api/ffp/temp');
      expect(res.status).toBe(405);
      expect(res.body).toEqual(REFUSAL);
    }
  });

  it('GET goes through the requireAuth hook (no-op by default)', async () => {
    const { deps } = testDeps({
      requireAuth: (_req, _res, next) => next(errors.unauthorized()),
    });
    const locked = buildApp(deps);
    const res = await request(locked).get('/api/ffp/temp');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Authentication required', code: 'UNAUTHORIZED' });
    // The refusal to change is unconditional: it does not depend on who asks.
    expect((await request(locked).patch('/api/ffp/temp').send({ enabled: true })).status).toBe(405);
  });
});
