import { describeWithService } from '../../support/services';
import {
  PASSWORD,
  assertNoInternalIds,
  bearer,
  sessionCookieOf,
  startAccountsHarness,
  type AccountsHarness,
} from './support/accounts-harness';
import { subjectOf } from '../../support/token-claims';

describeWithService('redis', 'accounts and sessions on Redis (REDIS_URL)', (redisUrl) => {
  let h: AccountsHarness;

  beforeAll(async () => {
    h = await startAccountsHarness({
      env: { REDIS_URL: redisUrl },
      identity: { limits: { signinPerIpEmail: { points: 2, durationSec: 30 } } },
    });
  });
  afterAll(async () => {
    await h?.stop();
  });
  afterEach(() => assertNoInternalIds());

  it('keeps browser sessions in Redis: they survive a restart of the service', async () => {
    expect(h.runtime.cache.kind).toBe('redis');
    const browser = h.client();
    const account = await h.signup(browser);
    const before = await browser.get('/api/session').expect(200, /"authenticated":true/);
    const cookie = sessionCookieOf(before)!;
    const sid = decodeURIComponent(cookie.slice('ars.sid='.length)).slice(2).split('.')[0];
    expect(await h.runtime.cache.get(`sess:s:${sid}`)).toContain('"accountId"');

    await h.restart(); // new port: a new client carrying the same cookie
    const res = await h.client().get('/api/session').set('Cookie', cookie).expect(200);
    expect(res.body.session).toMatchObject({ agentName: account.agentName, via: 'session' });
    await h.client().delete('/api/session').set('Cookie', cookie).expect(200);
    await h
      .client()
      .get('/api/session')
      .set('Cookie', cookie)
      .expect(200, { authenticated: false, session: null });
    expect(await h.runtime.cache.get(`sess:s:${sid}`)).toBeNull();
  });

  it('counts rate limits in Redis (429 with Retry-After)', async () => {
    const email = `rl-${Date.now()}@example.com`;
    for (let i = 0; i < 2; i++)
      await h.client().post('/api/signin').send({ email, password: PASSWORD }).expect(401);
    const res = await h.client().post('/api/signin').send({ email, password: PASSWORD }).expect(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('refuses a revoked token, also once the Redis key is gone (warmed from the documents)', async () => {
    const account = await h.signup(h.client());
    const sub = subjectOf(account.token!, h.jwtSecret);
    const issued = h.tokens().issue({ sub, typ: 'account' });
    await h.client().get('/api/session').set('Authorization', bearer(issued.token)).expect(200);
    await h.tokens().revoke(issued.jti, issued.expiresAt);
    await h.client().get('/api/session').set('Authorization', bearer(issued.token)).expect(401);

    // A flushed Redis loses the key; the next boot puts it back from `revoked_tokens`.
    await h.runtime.cache.delete(`auth:revoked:${issued.jti}`);
    await h.restart();
    await h.client().get('/api/session').set('Authorization', bearer(issued.token)).expect(401);
    await h.client().get('/api/session').set('Authorization', bearer(account.token!)).expect(200);
  });
});
