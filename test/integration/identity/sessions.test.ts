import {
  assertNoInternalIds,
  bearer,
  sessionCookieOf,
  startAccountsHarness,
  type AccountsHarness,
} from './support/accounts-harness';
import { subjectOf } from '../../support/token-claims';

let h: AccountsHarness;

beforeAll(async () => {
  h = await startAccountsHarness({ identity: { loginLinkTtlSec: 1 } });
});
afterAll(async () => {
  await h?.stop();
});
afterEach(() => assertNoInternalIds());

describe('GET /api/session', () => {
  it('answers 200 {authenticated: false} to anonymous callers', async () => {
    const res = await h.client().get('/api/session').expect(200);
    expect(res.body).toEqual({ authenticated: false, session: null });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('describes a cookie session and a bearer caller', async () => {
    const browser = h.client();
    const account = await h.signup(browser);
    const cookie = await browser.get('/api/session').expect(200);
    expect(cookie.body).toEqual({
      authenticated: true,
      session: {
        agentName: account.agentName,
        expiresAt: expect.any(String),
        via: 'session',
        subjectType: 'account',
        accountType: 'retail',
        plan: 'retail_pro',
        planLabel: 'Pro',
        capabilities: expect.arrayContaining(['use_bearer_token', 'use_nl_studio']),
      },
    });
    const sessionExpiry = Date.parse(cookie.body.session.expiresAt);
    expect(sessionExpiry).toBeGreaterThan(Date.now() + 6.9 * 24 * 3600 * 1000);
    // Rolling: each answer to the browser renews the cookie.
    expect(sessionCookieOf(cookie)).toBeDefined();

    const token = await h
      .client()
      .get('/api/session')
      .set('Authorization', bearer(account.token!))
      .expect(200);
    expect(token.body.session).toMatchObject({ agentName: account.agentName, via: 'bearer' });
    expect(Date.parse(token.body.session.expiresAt)).toBeGreaterThan(Date.now() + 89 * 24 * 3600 * 1000);
  });

  it('401 for a malformed header, a bad token, an expired token and a revoked one', async () => {
    const account = await h.signup(h.client());
    for (const header of ['Bearer', 'Token abc', 'Bearer a.b.c', `Bearer ${account.token}x`]) {
      const res = await h.client().get('/api/session').set('Authorization', header);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('UNAUTHORIZED');
    }
    const sub = subjectOf(account.token!, h.jwtSecret);
    // exp counts whole seconds from the second of issue, so a 3 s token lives between 2 and 3 s:
    // long enough for the first call on a loaded machine, and surely past after 3.1 s.
    const shortLived = h.tokens(3000).issue({ sub, typ: 'account' });
    await h.client().get('/api/session').set('Authorization', bearer(shortLived.token)).expect(200);
    await new Promise((r) => setTimeout(r, 3100));
    const expired = await h
      .client()
      .get('/api/session')
      .set('Authorization', bearer(shortLived.token))
      .expect(401);
    expect(expired.body.error).toBe('Bearer token expired');

    const live = h.tokens().issue({ sub, typ: 'account' });
    await h.tokens().revoke(live.jti, live.expiresAt);
    const revoked = await h.client().get('/api/session').set('Authorization', bearer(live.token)).expect(401);
    expect(revoked.body.error).toBe('Bearer token revoked');
    // Every route refuses it, not only this one.
    await h.client().post('/api/session/token').set('Authorization', bearer(live.token)).expect(401);
    await h
      .client()
      .post('/api/plans/transition')
      .set('Authorization', bearer(live.token))
      .send({ newPlan: 'retail_free' })
      .expect(401);
  });
});

describe('DELETE /api/session', () => {
  it('ends the session and clears the cookie; the old cookie no longer works', async () => {
    const browser = h.client();
    await h.signup(browser);
    const before = await browser.get('/api/session').expect(200);
    const cookie = sessionCookieOf(before)!;
    const res = await browser.delete('/api/session').expect(200);
    expect(res.body).toEqual({ success: true });
    expect(String(res.headers['set-cookie'])).toMatch(/ars\.sid=; Path=\/; Expires=Thu, 01 Jan 1970/);
    await h
      .client()
      .get('/api/session')
      .set('Cookie', cookie)
      .expect(200, { authenticated: false, session: null });
  });

  it('is a success without a session too, and refuses a cross-origin logout (403)', async () => {
    await h.client().delete('/api/session').expect(200, { success: true });
    const browser = h.client();
    await h.signup(browser);
    const res = await browser.delete('/api/session').set('Origin', 'https://evil.example').expect(403);
    expect(res.body.code).toBe('PERMISSION_DENIED');
    await browser.get('/api/session').expect(200, /"authenticated":true/);
  });
});

describe('POST /api/session/token', () => {
  it('issues a bearer token for a bearer plan; the browser session stays', async () => {
    const browser = h.client();
    await h.signup(browser, { selectedPlan: 'enterprise_plus', accountType: 'enterprise' });
    const res = await browser.post('/api/session/token').expect(200);
    expect(res.body).toEqual({
      success: true,
      credentials: {
        bearerToken: expect.any(String),
        apiKey: res.body.credentials.bearerToken,
        expiresIn: '90 days',
      },
    });
    await h
      .client()
      .get('/api/session')
      .set('Authorization', bearer(res.body.credentials.bearerToken))
      .expect(200);
    await browser.get('/api/session').expect(200, /"via":"session"/);
  });

  it('403 "Plan capability required: use_bearer_token" on retail_free', async () => {
    const browser = h.client();
    await h.signup(browser, { selectedPlan: 'retail_free' });
    const res = await browser.post('/api/session/token').expect(403);
    expect(res.body).toMatchObject({
      code: 'PERMISSION_DENIED',
      error: 'Plan capability required: use_bearer_token',
    });
  });

  it('401 without credentials; refuses a cross-origin cookie POST but not a bearer one', async () => {
    await h.client().post('/api/session/token').expect(401);
    const browser = h.client();
    const account = await h.signup(browser);
    await browser.post('/api/session/token').set('Origin', 'https://evil.example').expect(403);
    await browser.post('/api/session/token').set('Referer', 'https://evil.example/x').expect(403);
    await browser.post('/api/session/token').set('Origin', h.url).expect(200);
    await h
      .client()
      .post('/api/session/token')
      .set('Origin', 'https://evil.example')
      .set('Authorization', bearer(account.token!))
      .expect(200);
  });

  it('a named token (or an agent key) cannot mint account tokens', async () => {
    const account = await h.signup(h.client());
    const sub = subjectOf(account.token!, h.jwtSecret);
    const named = h.tokens().issue({ sub: 'tok_x', typ: 'named', tid: 'tok_x', acc: sub });
    const agent = h.tokens().issue({ sub: 'agt_x', typ: 'agent', acc: sub });
    for (const t of [named.token, agent.token]) {
      const res = await h.client().post('/api/session/token').set('Authorization', bearer(t));
      expect([401, 403]).toContain(res.status);
    }
  });
});

describe('one-time login link (from-key)', () => {
  it('exchanges an account token for a single-use link that opens a browser session', async () => {
    const account = await h.signup(h.client());
    const res = await h.client().post('/api/session/from-key').send({ apiKey: account.token }).expect(200);
    expect(res.body).toEqual({ loginUrl: expect.any(String), expiresIn: 1 });
    const url = new URL(res.body.loginUrl);
    // PUBLIC_BASE_URL (here http://127.0.0.1:0: port 0 is chosen after the configuration is read).
    expect(`${url.origin}${url.pathname}`).toBe(
      `${h.runtime.config.PUBLIC_BASE_URL}/api/session/from-key/callback`,
    );
    const st = url.searchParams.get('st')!;
    expect(st.length).toBeGreaterThanOrEqual(40);

    const browser = h.client();
    const landed = await browser
      .get(`/api/session/from-key/callback?st=${encodeURIComponent(st)}`)
      .redirects(0)
      .expect(302);
    expect(landed.headers.location).toBe('/');
    expect(sessionCookieOf(landed)).toBeDefined();
    await browser.get('/api/session').expect(200, /"agentName":"Agent /);

    const again = await h
      .client()
      .get(`/api/session/from-key/callback?st=${encodeURIComponent(st)}`)
      .redirects(0)
      .expect(401);
    expect(again.body).toEqual({
      error: 'Login link is invalid, expired or already used',
      code: 'UNAUTHORIZED',
    });
  });

  it('redirects to a safe in-app path and refuses others (400)', async () => {
    const account = await h.signup(h.client());
    const res = await h
      .client()
      .post('/api/session/from-key')
      .send({ apiKey: account.token, redirectTo: '/studio?x=1' })
      .expect(200);
    const landed = await h
      .client()
      .get(new URL(res.body.loginUrl).pathname + new URL(res.body.loginUrl).search)
      .redirects(0)
      .expect(302);
    expect(landed.headers.location).toBe('/studio?x=1');
    for (const redirectTo of ['https://evil.example', '//evil.example', '/\\evil.example', 'studio']) {
      await h.client().post('/api/session/from-key').send({ apiKey: account.token, redirectTo }).expect(400);
    }
  });

  it('expires after its lifetime, and refuses unknown, missing or invalid input', async () => {
    const account = await h.signup(h.client());
    const res = await h.client().post('/api/session/from-key').send({ apiKey: account.token }).expect(200);
    await new Promise((r) => setTimeout(r, 1300));
    await h
      .client()
      .get(new URL(res.body.loginUrl).pathname + new URL(res.body.loginUrl).search)
      .redirects(0)
      .expect(401);
    await h.client().get('/api/session/from-key/callback?st=unknown').redirects(0).expect(401);
    await h.client().get('/api/session/from-key/callback').redirects(0).expect(400);
    await h.client().post('/api/session/from-key').send({}).expect(400);
    const bad = await h.client().post('/api/session/from-key').send({ apiKey: 'not-a-token' }).expect(401);
    expect(bad.body).toEqual({ error: 'Invalid API key', code: 'UNAUTHORIZED' });
    const agent = h.tokens().issue({ sub: 'agt_x', typ: 'agent' });
    await h.client().post('/api/session/from-key').send({ apiKey: agent.token }).expect(403);
  });
});

describe('tenant isolation', () => {
  it("account B's session and token never see or change A's session or plan", async () => {
    const browserA = h.client();
    const a = await h.signup(browserA);
    const browserB = h.client();
    const b = await h.signup(browserB);
    const asB = await browserB.get('/api/session').expect(200);
    expect(asB.body.session.agentName).toBe(b.agentName);
    await browserB.post('/api/plans/transition').send({ newPlan: 'retail_free' }).expect(200);
    // The downgrade ended B's bearer token, even one minted in the same second (it passed before).
    await h
      .client()
      .post('/api/plans/transition')
      .set('Authorization', bearer(b.token!))
      .send({ newPlan: 'enterprise_max' })
      .expect(401);
    await browserB.post('/api/plans/transition').send({ newPlan: 'enterprise_max' }).expect(200);
    const asA = await browserA.get('/api/session').expect(200);
    expect(asA.body.session).toMatchObject({ agentName: a.agentName, plan: 'retail_pro' });
    // B's logout leaves A signed in.
    await browserB.delete('/api/session').expect(200);
    await browserA.get('/api/session').expect(200, /"authenticated":true/);
  });
});

describe('revocations survive a restart of the embedded runtime', () => {
  it('keeps a revoked token refused after the cache is gone', async () => {
    const account = await h.signup(h.client());
    const sub = subjectOf(account.token!, h.jwtSecret);
    const revoked = h.tokens().issue({ sub, typ: 'account' });
    const kept = h.tokens().issue({ sub, typ: 'account' });
    await h.tokens().revoke(revoked.jti, revoked.expiresAt);
    await h.client().get('/api/session').set('Authorization', bearer(revoked.token)).expect(401);

    await h.restart();
    await h.client().get('/api/session').set('Authorization', bearer(revoked.token)).expect(401);
    await h.client().get('/api/session').set('Authorization', bearer(kept.token)).expect(200);
    const docs = await h.runtime.documents.db
      .collection('revoked_tokens')
      .countDocuments({ _id: revoked.jti } as never);
    expect(docs).toBe(1);
  });
});
