import express from 'express';
import request from 'supertest';
import { buildApp } from '../../../src/http/app';
import type { RouteModule } from '../../../src/http/app.types';
import { ipKey, rateLimit } from '../../../src/http/auth';
import { MemoryCache } from '../../../src/store/cache';
import { testDeps } from '../../unit/http/support/test-app';
import {
  PASSWORD,
  assertNoInternalIds,
  startAccountsHarness,
  type AccountsHarness,
} from './support/accounts-harness';

let h: AccountsHarness;

beforeAll(async () => {
  h = await startAccountsHarness({
    identity: {
      limits: {
        signinPerIpEmail: { points: 3, durationSec: 60 },
        signinPerIp: { points: 6, durationSec: 60 },
        signupPerEmail: { points: 2, durationSec: 60 },
        forgotPerEmail: { points: 2, durationSec: 60 },
        fromKeyPerIp: { points: 2, durationSec: 60 },
      },
    },
  });
});
afterAll(async () => {
  await h?.stop();
});
afterEach(() => assertNoInternalIds());

function expect429(res: request.Response) {
  expect(res.status).toBe(429);
  expect(res.body).toMatchObject({
    code: 'RATE_LIMITED',
    error: expect.any(String),
    retryAfter: expect.any(Number),
  });
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

describe('identity rate limits', () => {
  it('signin: per IP and email, then per IP whatever the email', async () => {
    const account = await h.signup(h.client());
    const attempt = (email: string, password = 'wrong password') =>
      h.client().post('/api/signin').send({ email, password });
    for (let i = 0; i < 3; i++) expect((await attempt(account.email)).status).toBe(401);
    expect429(await attempt(account.email));
    // Even the right password waits: the limit is checked before the credentials.
    expect429(await attempt(account.email, PASSWORD));
    // Another email from the same IP still has room, until the per-IP limit (6).
    expect((await attempt('other@example.com')).status).toBe(401);
    expect429(await attempt('third@example.com'));
  });

  it('signup per email and forgot-password per email', async () => {
    const body = {
      email: 'limited@example.com',
      password: PASSWORD,
      accountType: 'retail',
      selectedPlan: 'retail_free',
    };
    expect((await h.client().post('/api/signup').send(body)).status).toBe(201);
    expect((await h.client().post('/api/signup').send(body)).status).toBe(409);
    expect429(await h.client().post('/api/signup').send(body));

    for (let i = 0; i < 2; i++)
      await h.client().post('/api/forgot-password').send({ email: 'who@example.com' }).expect(200);
    expect429(await h.client().post('/api/forgot-password').send({ email: 'WHO@example.com' }));
  });

  it('from-key per IP', async () => {
    for (let i = 0; i < 2; i++)
      await h.client().post('/api/session/from-key').send({ apiKey: 'x' }).expect(401);
    expect429(await h.client().post('/api/session/from-key').send({ apiKey: 'x' }));
  });
});

describe('rateLimit middleware', () => {
  function app(rule: Partial<Parameters<typeof rateLimit>[0]> = {}) {
    const cache = new MemoryCache();
    const routes: RouteModule = (router) => {
      router.post(
        '/limited',
        rateLimit({ cache, name: 'test', points: 2, durationSec: 30, key: (req) => ipKey(req), ...rule }),
        (_req, res) => void res.json({ ok: true }),
      );
    };
    return buildApp(testDeps({ routes: [routes] }).deps);
  }

  it('answers 429 with Retry-After once the key is spent', async () => {
    const a = app({ message: 'Slow down' });
    await request(a).post('/limited').expect(200);
    await request(a).post('/limited').expect(200);
    const res = await request(a).post('/limited').expect(429);
    expect(res.body).toEqual({ error: 'Slow down', code: 'RATE_LIMITED', retryAfter: expect.any(Number) });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(29);
  });

  it('skips the rule when the key function returns nothing, and counts every key given', async () => {
    const skip = app({ key: () => undefined });
    for (let i = 0; i < 4; i++) await request(skip).post('/limited').expect(200);
    const both = app({ key: (req) => [ipKey(req), `h:${String(req.headers['x-k'])}`] });
    await request(both).post('/limited').set('X-K', 'a').expect(200);
    await request(both).post('/limited').set('X-K', 'b').expect(200);
    // The IP key is spent even though `c` is fresh.
    await request(both).post('/limited').set('X-K', 'c').expect(429);
  });

  it('is usable on a plain express app', async () => {
    const cache = new MemoryCache();
    const plain = express();
    plain.post(
      '/x',
      rateLimit({ cache, name: 'plain', points: 1, durationSec: 5, key: () => 'k' }),
      (_q, s) => void s.send('ok'),
    );
    plain.use(
      ((err, _req, res, _next) =>
        void res.status(err.status).json(err.toBody())) as express.ErrorRequestHandler,
    );
    await request(plain).post('/x').expect(200);
    await request(plain).post('/x').expect(429);
  });
});
