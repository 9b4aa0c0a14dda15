import { randomBytes } from 'node:crypto';
import type request from 'supertest';
import { FakeXServer } from '../../support/fake-x-server';
import { startOpenApiHarness, type OpenApiHarness } from './support/openapi-harness';

const CLIENT_ID = 'openapi-client';
const CLIENT_SECRET = `secret-${randomBytes(8).toString('hex')}`;

/**
 * The social connector's and app publishing's real answers against their documented schemas (the
 * console types its pages with them): connect through the fake X server, drafts (one blocked by a
 * guardrail), approve, the queue, cancel, publish now; an app published and a new version of it.
 */
describe('social and app publishing answers match their documented schemas', () => {
  let h: OpenApiHarness;
  const fake = new FakeXServer({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });

  beforeAll(async () => {
    const urls = await fake.start();
    h = await startOpenApiHarness({
      ALLOW_LOOPBACK_HTTP: 'true',
      X_API_BASE_URL: urls.apiBaseUrl,
      X_AUTH_BASE_URL: urls.authBaseUrl,
      X_CLIENT_ID: CLIENT_ID,
      X_CLIENT_SECRET: CLIENT_SECRET,
      SOCIAL_PUBLISH_INTERVAL_MS: '3600000',
      SOCIAL_BLOCKED_WORDS: 'darn',
    });
  });
  afterAll(async () => {
    await h?.stop();
    await fake.close();
  });

  async function signup(accountType: 'retail' | 'enterprise', selectedPlan: string): Promise<string> {
    const res = await h
      .http()
      .post('/api/signup')
      .send({
        email: `openapi-${accountType}-${Date.now()}@example.com`,
        password: 'correct horse battery',
        accountType,
        selectedPlan,
      });
    if (res.status !== 201) throw new Error(`signup: ${res.status} ${JSON.stringify(res.body)}`);
    return `Bearer ${res.body.credentials.bearerToken as string}`;
  }

  async function call(
    auth: string,
    method: 'get' | 'post' | 'delete',
    path: string,
    expected: number,
    opts: { body?: object; route?: string } = {},
  ): Promise<request.Response> {
    const req = h.http()[method](path).set('Authorization', auth);
    const res = opts.body === undefined ? await req : await req.send(opts.body);
    if (res.status !== expected) {
      throw new Error(`${method.toUpperCase()} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    h.expectDocumented(method, opts.route ?? path.split('?')[0]!, res);
    return res;
  }

  it('the social connector: platforms, connect, drafts, approve, queue, cancel, publish now', async () => {
    const auth = await signup('retail', 'retail_pro');
    const platforms = await call(auth, 'get', '/api/social/platforms', 200);
    expect(platforms.body.platforms[0]).toMatchObject({ id: 'x', status: 'live', connectorReady: true });
    const connect = await call(auth, 'post', '/api/x/connect', 200, { body: { redirectTo: '/social' } });
    const authorize = await fetch(connect.body.authorizationUrl as string, { redirect: 'manual' });
    const back = new URL(authorize.headers.get('location')!);
    const callback = await h.http().get(`${back.pathname}${back.search}`).set('Authorization', auth);
    expect(callback.status).toBe(302);
    const accounts = await call(auth, 'get', '/api/x/accounts', 200);
    const accountId = accounts.body.accounts[0].id as string;

    const blocked = await call(auth, 'post', '/api/x/drafts', 201, {
      body: { accountId, text: 'A darn fine day' },
    });
    expect(blocked.body.draft).toMatchObject({
      guardrail_status: 'block',
      guardrail_reasons: ['blocked word: darn'],
    });
    const first = await call(auth, 'post', '/api/x/drafts', 201, { body: { accountId, text: 'First post' } });
    const second = await call(auth, 'post', '/api/x/drafts', 201, {
      body: { accountId, text: 'Second post' },
    });
    await call(auth, 'get', '/api/x/drafts', 200);
    await call(auth, 'post', `/api/x/drafts/${blocked.body.draft.id}/reject`, 200, {
      body: { reason: 'tone' },
      route: '/api/x/drafts/:id/reject',
    });
    const approved = await call(auth, 'post', `/api/x/drafts/${first.body.draft.id}/approve`, 200, {
      body: {},
      route: '/api/x/drafts/:id/approve',
    });
    await call(auth, 'post', `/api/x/queue/${approved.body.queueItem.id}/cancel`, 200, {
      route: '/api/x/queue/:id/cancel',
    });
    const queued = await call(auth, 'post', `/api/x/drafts/${second.body.draft.id}/approve`, 200, {
      body: {},
      route: '/api/x/drafts/:id/approve',
    });
    const published = await call(auth, 'post', '/api/x/publish', 200, {
      body: { queueId: queued.body.queueItem.id },
    });
    expect(published.body.postId).toBe(fake.tweets[0]!.id);
    const queue = await call(auth, 'get', '/api/x/queue', 200);
    expect(queue.body.queue.map((q: { publish_status: string }) => q.publish_status).sort()).toEqual([
      'canceled',
      'published',
    ]);
  });

  it('app publishing: a new app (201) and a new version (200)', async () => {
    const auth = await signup('enterprise', 'enterprise_plus');
    const app = {
      name: 'Contract Reports',
      category: 'Data',
      description: 'Reports',
      manifest: { version: '1.0.0', entrypoint: 'index.html' },
    };
    const created = await call(auth, 'post', '/api/apps', 201, { body: app });
    expect(created.body).toMatchObject({ success: true, created: true, app: { slug: 'contract-reports' } });
    const next = await call(auth, 'post', '/api/apps', 200, {
      body: { ...app, manifest: { ...app.manifest, version: '1.1.0' } },
    });
    expect(next.body).toMatchObject({ created: false, app: { version: '1.1.0' } });
    const readiness = await call(auth, 'get', '/api/apps/contract-reports/readiness', 200, {
      route: '/api/apps/:slug/readiness',
    });
    expect(readiness.body).toMatchObject({ installation: null, missingPermissions: [] });
  });
});
