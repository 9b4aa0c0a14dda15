import express from 'express';
import request from 'supertest';
import { TokenService } from '../../../actors/identity/token-service';
import { buildApp } from '../../../src/http/app';
import type { RouteModule } from '../../../src/http/app.types';
import { createAuthMiddleware, createSessionMiddleware, principalOf } from '../../../src/http/auth';
import { MemoryCache } from '../../../src/store/cache';
import { testDeps } from '../../unit/http/support/test-app';

const SECRET = 's'.repeat(32);
const BASE = 'http://app.example.test';

function setup(tokenTtlMs?: number) {
  const cache = new MemoryCache();
  const tokens = new TokenService(SECRET, cache, tokenTtlMs);
  const auth = createAuthMiddleware({ tokens, publicBaseUrl: BASE });
  const session = createSessionMiddleware({ cache, jwtSecret: SECRET, publicBaseUrl: BASE });
  const probe: RouteModule = (router, deps) => {
    router.get('/probe', deps.requireAuth, (_req, res) => {
      res.json({ auth: principalOf(res) ?? null, expiresAt: res.locals.authExpiresAt ?? null });
    });
    router.post('/probe', deps.requireAuth, (_req, res) => {
      res.json({ auth: principalOf(res) });
    });
    router.get('/maybe', deps.optionalAuth, (_req, res) => {
      res.json({ auth: principalOf(res) ?? null });
    });
    // Test-only sign-in: puts an account in the session.
    router.post('/test-login', express.json(), (req, res, next) => {
      req.session.regenerate((err) => {
        if (err) return next(err);
        req.session.accountId = 'acc_test1';
        res.json({ ok: true });
      });
    });
  };
  const { deps } = testDeps({
    requireAuth: auth.requireAuth,
    optionalAuth: auth.optionalAuth,
    sessions: session,
    routes: [probe],
  });
  return { app: buildApp(deps), tokens, cache };
}

describe('requireAuth / optionalAuth', () => {
  it('maps each token type to its principal', async () => {
    const { app, tokens } = setup();
    const account = tokens.issue({ sub: 'acc_1', typ: 'account' }).token;
    const agent = tokens.issue({ sub: 'agt_1', typ: 'agent', acc: 'acc_1' }).token;
    const named = tokens.issue({
      sub: 'tok_1',
      typ: 'named',
      tid: 'tok_1',
      acc: 'acc_1',
      scopes: ['api'],
    }).token;
    const a = await request(app).get('/probe').set('Authorization', `Bearer ${account}`).expect(200);
    expect(a.body.auth).toEqual({ subjectType: 'account', accountId: 'acc_1', via: 'bearer' });
    expect(a.body.expiresAt).toBeGreaterThan(Date.now());
    const g = await request(app).get('/probe').set('Authorization', `bearer ${agent}`).expect(200);
    expect(g.body.auth).toEqual({
      subjectType: 'agent',
      agentId: 'agt_1',
      accountId: 'acc_1',
      via: 'bearer',
    });
    const n = await request(app).get('/probe').set('Authorization', `Bearer ${named}`).expect(200);
    expect(n.body.auth).toEqual({
      subjectType: 'account',
      accountId: 'acc_1',
      via: 'bearer',
      tokenId: 'tok_1',
      scopes: ['api'],
    });
  });

  it.each([
    ['no credentials', undefined],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['no token', 'Bearer'],
    ['two tokens', 'Bearer a b'],
    ['garbage token', 'Bearer not.a.jwt'],
    ['empty header', ''],
  ])('answers 401 for %s', async (_label, header) => {
    const { app } = setup();
    const req = request(app).get('/probe');
    if (header !== undefined) req.set('Authorization', header);
    const res = await req.expect(401);
    expect(res.body).toMatchObject({ code: 'UNAUTHORIZED', error: expect.any(String) });
  });

  it('refuses a token signed with another secret, an expired one and a revoked one', async () => {
    const { app, tokens } = setup();
    const foreign = new TokenService('x'.repeat(32), new MemoryCache()).issue({
      sub: 'acc_1',
      typ: 'account',
    });
    await request(app).get('/probe').set('Authorization', `Bearer ${foreign.token}`).expect(401);

    const shortLived = new TokenService(SECRET, new MemoryCache(), 1000).issue({
      sub: 'acc_1',
      typ: 'account',
    });
    await new Promise((r) => setTimeout(r, 2100));
    const expired = await request(app)
      .get('/probe')
      .set('Authorization', `Bearer ${shortLived.token}`)
      .expect(401);
    expect(expired.body.error).toBe('Bearer token expired');

    const live = tokens.issue({ sub: 'acc_1', typ: 'account' });
    await request(app).get('/probe').set('Authorization', `Bearer ${live.token}`).expect(200);
    await tokens.revoke(live.jti, live.expiresAt);
    const revoked = await request(app).get('/probe').set('Authorization', `Bearer ${live.token}`).expect(401);
    expect(revoked.body.error).toBe('Bearer token revoked');
    // optionalAuth refuses bad credentials too: they are not the same as none.
    await request(app).get('/maybe').set('Authorization', `Bearer ${live.token}`).expect(401);
  });

  it('cuts off every account token of a subject issued before a moment, not later ones', async () => {
    const { app, tokens } = setup();
    const before = tokens.issue({ sub: 'acc_9', typ: 'account' });
    const named = tokens.issue({ sub: 'tok_9', typ: 'named', acc: 'acc_9', tid: 'tok_9' });
    await tokens.revokeSubjectBefore('acc_9', new Date(Date.now() + 1000));
    await request(app).get('/probe').set('Authorization', `Bearer ${before.token}`).expect(401);
    await request(app).get('/probe').set('Authorization', `Bearer ${named.token}`).expect(200);
    await new Promise((r) => setTimeout(r, 1100));
    const after = tokens.issue({ sub: 'acc_9', typ: 'account' });
    await request(app).get('/probe').set('Authorization', `Bearer ${after.token}`).expect(200);
  });

  it('authenticates a browser session cookie and lets optionalAuth pass anonymous callers', async () => {
    const { app } = setup();
    await request(app).get('/maybe').expect(200, { auth: null });
    const agent = request.agent(app);
    const login = await agent.post('/test-login').expect(200);
    const cookie = String(login.headers['set-cookie']);
    expect(cookie).toMatch(/^ars\.sid=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/);
    const res = await agent.get('/probe').expect(200);
    expect(res.body.auth).toEqual({ subjectType: 'account', accountId: 'acc_test1', via: 'session' });
    expect(res.body.expiresAt).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);
  });

  it('refuses cookie-authenticated mutations from another origin, not bearer ones', async () => {
    const { app, tokens } = setup();
    const agent = request.agent(app);
    await agent.post('/test-login').expect(200);
    const evil = await agent.post('/probe').set('Origin', 'https://evil.example').expect(403);
    expect(evil.body).toMatchObject({ code: 'PERMISSION_DENIED' });
    await agent.post('/probe').set('Referer', 'https://evil.example/page').expect(403);
    await agent.post('/probe').set('Origin', 'null').expect(403);
    await agent.post('/probe').set('Origin', BASE).expect(200);
    await agent.post('/probe').set('Referer', `${BASE}/studio`).expect(200);
    await agent.post('/probe').expect(200); // no Origin/Referer: not a browser page
    await agent.get('/probe').set('Origin', 'https://evil.example').expect(200); // reads are not mutations
    const host = await agent
      .post('/probe')
      .set('Host', 'localhost:1234')
      .set('Origin', 'http://localhost:1234');
    expect(host.status).toBe(200);

    const token = tokens.issue({ sub: 'acc_1', typ: 'account' }).token;
    await request(app)
      .post('/probe')
      .set('Origin', 'https://evil.example')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
  });

  it('marks the cookie Secure when PUBLIC_BASE_URL is https (behind a TLS proxy)', async () => {
    const cache = new MemoryCache();
    const session = createSessionMiddleware({ cache, jwtSecret: SECRET, publicBaseUrl: 'https://x.example' });
    const probe: RouteModule = (router) => {
      router.post('/login', (req, res) => {
        req.session.accountId = 'acc_1';
        res.json({});
      });
    };
    const { deps } = testDeps({ sessions: session, routes: [probe] });
    const app = buildApp(deps);
    const res = await request(app).post('/login').set('X-Forwarded-Proto', 'https').expect(200);
    expect(String(res.headers['set-cookie'])).toMatch(/; Secure/);
  });
});
