import { socialAccountsCollection, socialQueueCollection } from '../../../actors/social/social.collection';
import { seen, type Account } from '../vault/support/vault-harness';
import { connectX, cron, startSocialHarness, type SocialHarness } from './social-harness';

/**
 * The social connector end to end, in one process, against the project's fake X server: OAuth
 * with PKCE, drafts and guardrails, approval, the queue and the publisher duty (run by ops cron),
 * forced publishing, retries, rate limits, failures with notifications, cancel, disconnect.
 */
describe('social connector (in-process, fake X)', () => {
  let s: SocialHarness;
  let owner: Account;
  let xAccountId: string;

  beforeAll(async () => {
    s = await startSocialHarness();
    owner = await s.h.account();
  }, 60_000);
  afterAll(async () => s?.stop());

  const api = () => s.h.api;
  const draft = async (text: string) => {
    const res = await api().post('/api/x/drafts', owner.auth, { accountId: xAccountId, text });
    expect(res.status).toBe(201);
    return res.body.draft as {
      id: string;
      guardrail_status: string;
      guardrail_reasons: string[];
      similarity_score: number;
    };
  };
  const queueItem = async (id: string) => {
    const res = await api().get('/api/x/queue', owner.auth);
    return (res.body.queue as Array<Record<string, unknown>>).find((q) => q.id === id)!;
  };

  it('lists platforms: x live once configured, the others scaffolded', async () => {
    const res = await api().get('/api/social/platforms', owner.auth);
    expect(res.status).toBe(200);
    expect(res.body.platforms[0]).toEqual({
      id: 'x',
      status: 'live',
      connectorReady: true,
      connectedCount: 0,
    });
    expect(
      res.body.platforms
        .slice(1)
        .every(
          (p: { status: string; connectorReady: boolean }) => p.status === 'scaffolded' && !p.connectorReady,
        ),
    ).toBe(true);
    expect((await api().get('/api/social/platforms')).status).toBe(401);
  });

  it('refuses redirectTo values that are not in-app paths', async () => {
    for (const redirectTo of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
      'settings',
      '/a b',
      '/%2F%2Fevil.example',
    ]) {
      const res = await api().post('/api/x/connect', owner.auth, { redirectTo });
      expect({ redirectTo, status: res.status, code: res.body.code }).toEqual({
        redirectTo,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    }
  });

  it('connects with PKCE S256; the state is bound to the session and single use', async () => {
    const connect = await api().post('/api/x/connect', owner.auth, { redirectTo: '/settings/social' });
    expect(connect.status).toBe(200);
    const authorizationUrl = new URL(connect.body.authorizationUrl);
    expect(authorizationUrl.pathname).toBe('/i/oauth2/authorize');
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('scope')).toBe(
      'tweet.read tweet.write users.read offline.access',
    );
    const authorize = await fetch(authorizationUrl, { redirect: 'manual' });
    expect(authorize.status).toBe(302);
    const back = new URL(authorize.headers.get('location')!);
    expect(back.pathname).toBe('/api/x/callback');
    const path = `${back.pathname}${back.search}`;

    // Another account, and the same account under another credential (another session): refused.
    const other = await s.h.account();
    expect((await api().get(path, other.auth)).status).toBe(403);
    const tokenRes = await api().post('/api/session/token', owner.auth, {});
    expect(tokenRes.status).toBe(200);
    const otherToken = tokenRes.body.credentials.bearerToken as string;
    expect((await api().get(path, `Bearer ${otherToken}`)).status).toBe(403);

    const done = await api().get(path, owner.auth);
    expect(done.status).toBe(302);
    expect(done.headers.location).toBe('/settings/social');
    expect(s.fake.stats.codeExchanges).toBe(1);
    // Single use: the same callback again finds no state.
    const replay = await api().get(path, owner.auth);
    expect(replay.status).toBe(400);
    expect(s.fake.stats.codeExchanges).toBe(1);

    const accounts = await api().get('/api/x/accounts', owner.auth);
    expect(accounts.body.accounts).toEqual([
      expect.objectContaining({ username: 'fake_x_user', status: 'connected', platform: 'x' }),
    ]);
    xAccountId = accounts.body.accounts[0].id;
    expect(JSON.stringify(accounts.body)).not.toMatch(/token/i);
    // At rest the tokens are sealed under the vault's master key.
    const stored = await s.h.runtime.documents.repository(socialAccountsCollection).findById(xAccountId);
    expect(stored!.tokens.access).toMatch(/^v2\.[0-9a-f]{12}\./);
    expect(stored!.tokens.refresh).toMatch(/^v2\.[0-9a-f]{12}\./);
    expect((await api().get('/api/social/platforms', owner.auth)).body.platforms[0].connectedCount).toBe(1);
  });

  it('a declined authorization connects nothing and uses up its state', async () => {
    const connect = await api().post('/api/x/connect', owner.auth, {});
    s.fake.denyNext();
    const authorize = await fetch(connect.body.authorizationUrl as string, { redirect: 'manual' });
    const back = new URL(authorize.headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('access_denied');
    const path = `${back.pathname}${back.search}`;
    const declined = await api().get(path, owner.auth);
    expect(declined.status).toBe(400);
    expect(declined.body).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'access_denied' });
    expect((await api().get(path, owner.auth)).body.reason).toBe('invalid_state');
    expect((await api().get('/api/x/accounts', owner.auth)).body.accounts).toHaveLength(1);
  });

  it('drafts run the guardrails: near-duplicates, blocked words and domains, length', async () => {
    const first = await draft(
      'We just shipped version 2 of the agent runtime, with faster tool calls for everyone',
    );
    expect(first).toMatchObject({
      guardrail_status: 'pass',
      approval_status: 'required',
      similarity_score: 0,
    });
    const near = await draft(
      'We just shipped version 2 of the agent runtime: faster tool calls for everyone!',
    );
    expect(near.guardrail_status).toBe('block');
    expect(near.similarity_score).toBeGreaterThan(0.9);
    const similar = await draft('We shipped version 2 of our agent runtime today, faster tool calls for all');
    expect(similar.guardrail_status).toBe('review');
    expect(similar.similarity_score).toBeGreaterThanOrEqual(0.6);
    expect(similar.guardrail_reasons[0]).toMatch(/^similar to a recent post or queued draft/);
    const word = await draft('Well darn, the build is red again');
    expect(word.guardrail_reasons).toEqual(['blocked word: darn']);
    const link = await draft('Details at https://www.bad.example/post');
    expect(link.guardrail_reasons).toEqual(['link to a blocked domain: www.bad.example']);
    const long = await draft('x'.repeat(281));
    expect(long.guardrail_reasons).toEqual(['too long: 281 of 280 characters as X counts them']);

    const pending = await api().get('/api/x/drafts', owner.auth);
    expect(pending.body.drafts.map((d: { id: string }) => d.id)).toEqual(
      expect.arrayContaining([first.id, near.id, similar.id]),
    );
    // A blocked draft cannot be approved: 409 with the reasons.
    const refused = await api().post(`/api/x/drafts/${near.id}/approve`, owner.auth, {});
    expect(refused.status).toBe(409);
    expect(refused.body.guardrail_reasons[0]).toMatch(/^near-duplicate/);
    // Clean up the pending ones so later similarity checks start fresh.
    for (const d of [near, similar, word, link, long]) {
      expect((await api().post(`/api/x/drafts/${d.id}/reject`, owner.auth, { reason: 'test' })).status).toBe(
        200,
      );
    }
    expect((await api().post(`/api/x/drafts/${near.id}/reject`, owner.auth, {})).status).toBe(409);
    expect((await api().post('/api/x/drafts', owner.auth, { accountId: xAccountId, text: '' })).status).toBe(
      400,
    );
    expect((await api().post('/api/x/drafts', owner.auth, { accountId: 'nope', text: 'x' })).status).toBe(
      400,
    );
    const foreign = await api().post('/api/x/drafts', (await s.h.account()).auth, {
      accountId: xAccountId,
      text: 'hi',
    });
    expect(foreign.status).toBe(404);
  });

  it('queues approved drafts; the duty publishes due ones exactly once; publish forces the rest', async () => {
    const now = (await api().get('/api/x/drafts', owner.auth)).body.drafts[0] as { id: string };
    const later = await draft('Office hours moved to Thursday at 4pm, bring questions about deployments');
    const inAnHour = new Date(Date.now() + 3600_000).toISOString();
    const approvedLater = await api().post(`/api/x/drafts/${later.id}/approve`, owner.auth, {
      scheduledFor: inAnHour,
    });
    expect(approvedLater.status).toBe(200);
    expect(approvedLater.body.queueItem).toMatchObject({
      publish_status: 'queued',
      scheduled_for: inAnHour,
      account: { username: 'fake_x_user' },
    });
    const approvedNow = await api().post(`/api/x/drafts/${now.id}/approve`, owner.auth, {});
    expect(approvedNow.body.draft.approval_status).toBe('approved');
    expect((await api().post(`/api/x/drafts/${now.id}/approve`, owner.auth, {})).status).toBe(409);

    const ran = await cron(s.h);
    expect(ran.status).toBe(200);
    expect(ran.body.result.ran).toEqual(
      expect.arrayContaining([expect.objectContaining({ duty: 'social-publisher', ok: true, items: 1 })]),
    );
    await cron(s.h);
    expect(s.fake.tweets).toHaveLength(1);
    const published = await queueItem(approvedNow.body.queueItem.id);
    expect(published).toMatchObject({
      publish_status: 'published',
      postId: s.fake.tweets[0]!.id,
      attempts: 1,
    });
    expect((await queueItem(approvedLater.body.queueItem.id)).publish_status).toBe('queued');

    // The attempt is a SOCIAL_PUBLISH execution with its logs.
    const exe = await api().get(`/api/executions/${published.executionId as string}`, owner.auth);
    expect(exe.status).toBe(200);
    expect(exe.body.execution).toMatchObject({ type: 'SOCIAL_PUBLISH', status: 'COMPLETED' });
    expect(exe.body.logs.map((l: { message: string }) => l.message).join('\n')).toMatch(
      /X accepted the post/,
    );

    const forced = await api().post('/api/x/publish', owner.auth, {
      queueId: approvedLater.body.queueItem.id,
    });
    expect(forced.status).toBe(200);
    expect(forced.body).toEqual({
      draftId: later.id,
      queueId: approvedLater.body.queueItem.id,
      postId: s.fake.tweets[1]!.id,
      publishedAt: expect.any(String),
    });
    expect(
      (await api().post('/api/x/publish', owner.auth, { queueId: approvedLater.body.queueItem.id })).status,
    ).toBe(409);
    expect((await api().post('/api/x/publish', owner.auth, { draftId: later.id })).status).toBe(409);
    expect(s.fake.tweets).toHaveLength(2);
  });

  it('publish: unknown 404, not approved 409, bad ids 400; an approved draft publishes now', async () => {
    const pending = await draft('A brand new thought about observability dashboards and their colours');
    expect((await api().post('/api/x/publish', owner.auth, { draftId: pending.id })).status).toBe(409);
    expect(
      (await api().post('/api/x/publish', owner.auth, { draftId: '0b5c3c2e-7d4f-4f8e-9a51-0c6a4a1c2f10' }))
        .status,
    ).toBe(404);
    expect((await api().post('/api/x/publish', owner.auth, { draftId: 'not-a-uuid' })).status).toBe(400);
    expect((await api().post('/api/x/publish', owner.auth, {})).status).toBe(400);
    const approved = await api().post(`/api/x/drafts/${pending.id}/approve`, owner.auth, {
      scheduledFor: new Date(Date.now() + 600_000).toISOString(),
    });
    const now = await api().post('/api/x/publish', owner.auth, { draftId: pending.id });
    expect(now.status).toBe(200);
    expect(now.body.queueId).toBe(approved.body.queueItem.id);
  });

  it('retries transient failures with backoff, then fails with the reason and a notification', async () => {
    const d = await draft('Maintenance window tonight from 22:00 UTC, expect short interruptions');
    const approved = await api().post(`/api/x/drafts/${d.id}/approve`, owner.auth, {});
    const queueId = approved.body.queueItem.id as string;
    s.fake.failNext({ status: 503, times: 10 });
    const before = s.fake.stats.postAttempts;
    for (let i = 0; i < 40 && (await queueItem(queueId)).publish_status === 'queued'; i++) {
      await cron(s.h);
      await new Promise((r) => setTimeout(r, 100));
    }
    const failed = await queueItem(queueId);
    expect(failed).toMatchObject({ publish_status: 'failed', attempts: 3 });
    expect(failed.reason).toMatch(/X tweets answered 503: upstream trouble \(gave up after 3 attempts\)/);
    expect(s.fake.stats.postAttempts - before).toBe(3);
    const notes = await api().get('/api/notifications', owner.auth);
    const note = (
      notes.body.notifications as Array<{ title: string; body: string; executionId: string }>
    ).find((n) => n.title === 'A post to @fake_x_user failed');
    expect(note?.body).toBe(failed.reason);
    const exe = await api().get(`/api/executions/${note!.executionId}`, owner.auth);
    expect(exe.body.execution).toMatchObject({ type: 'SOCIAL_PUBLISH', status: 'FAILED' });
    s.fake.clearFailures();
  });

  it('honours x-rate-limit-reset on 429, and refreshes an expiring token first', async () => {
    const d = await draft('Release candidate three is up for testing, feedback welcome on the forum');
    const approved = await api().post(`/api/x/drafts/${d.id}/approve`, owner.auth, {
      scheduledFor: new Date(Date.now() + 600_000).toISOString(),
    });
    const queueId = approved.body.queueItem.id as string;
    s.fake.failNext({ status: 429, times: 1, resetInSec: 120 });
    const limited = await api().post('/api/x/publish', owner.auth, { queueId });
    expect(limited.status).toBe(503);
    const resetMs = Date.now() + 100_000;
    expect(new Date(limited.body.nextAttemptAt).getTime()).toBeGreaterThan(resetMs);
    expect((await queueItem(queueId)).publish_status).toBe('queued');
    // While the limit lasts, even a forced publish waits (nothing is sent to X).
    const attempts = s.fake.stats.postAttempts;
    expect((await api().post('/api/x/publish', owner.auth, { queueId })).status).toBe(429);
    expect(s.fake.stats.postAttempts).toBe(attempts);
    await s.h.runtime.cache.namespace('social:rate-limited:').delete(xAccountId);

    // The stored token is about to expire: the next publish refreshes it first.
    await s.h.runtime.documents
      .repository(socialAccountsCollection)
      .updateOne({ _id: xAccountId }, { $set: { 'tokens.expiresAt': new Date(Date.now() + 1000) } });
    s.fake.expireAccessTokens();
    const refreshes = s.fake.stats.refreshes;
    const ok = await api().post('/api/x/publish', owner.auth, { queueId });
    expect(ok.status).toBe(200);
    expect(s.fake.stats.refreshes).toBe(refreshes + 1);
  });

  it('cancels a queued post; panic holds the publisher for the workspace', async () => {
    const d = await draft('Community call recording is online now, thanks for joining us');
    const approved = await api().post(`/api/x/drafts/${d.id}/approve`, owner.auth, {});
    const queueId = approved.body.queueItem.id as string;
    expect((await api().post('/api/panic', owner.auth, {})).status).toBe(200);
    const held = await api().post('/api/x/publish', owner.auth, { queueId });
    expect(held.status).toBe(403);
    await cron(s.h);
    expect((await queueItem(queueId)).publish_status).toBe('queued');
    expect((await api().del('/api/panic', owner.auth)).status).toBe(200);
    const canceled = await api().post(`/api/x/queue/${queueId}/cancel`, owner.auth, {});
    expect(canceled.status).toBe(200);
    expect(canceled.body.queueItem.publish_status).toBe('canceled');
    expect((await api().post(`/api/x/queue/${queueId}/cancel`, owner.auth, {})).status).toBe(409);
    const doc = await s.h.runtime.documents.repository(socialQueueCollection).findById(queueId);
    expect(doc!.claim).toBeUndefined();
  });

  it('of two near-copies awaiting review the earlier can be approved, the later stays blocked', async () => {
    const text = 'Quarterly roadmap review happens next Tuesday, agenda in the wiki page';
    const a = await draft(text);
    const b = await draft(`${text}!`);
    expect(b.guardrail_status).toBe('block');
    const future = new Date(Date.now() + 3600_000).toISOString();
    const ok = await api().post(`/api/x/drafts/${a.id}/approve`, owner.auth, { scheduledFor: future });
    expect(ok.status).toBe(200);
    const refused = await api().post(`/api/x/drafts/${b.id}/approve`, owner.auth, {});
    expect(refused.status).toBe(409);
    expect(refused.body.guardrail_reasons[0]).toMatch(/^near-duplicate/);
    await api().post(`/api/x/queue/${ok.body.queueItem.id}/cancel`, owner.auth, {});
    await api().post(`/api/x/drafts/${b.id}/reject`, owner.auth, {});
  });

  it('the social_draft tool drafts for the operator, behind the same guardrails', async () => {
    const res = await api().post('/mcp', owner.auth, {
      tool: 'social_draft',
      input: { text: 'Drafted by an agent: new docs for the vault are live' },
    });
    expect(res.status).toBe(200);
    const result = res.body.result ?? res.body;
    expect(JSON.stringify(result)).toMatch(/"approval_status":"required"/);
    const pending = await api().get('/api/x/drafts', owner.auth);
    expect(pending.body.drafts[0]).toMatchObject({
      text: 'Drafted by an agent: new docs for the vault are live',
      createdBy: expect.stringMatching(/^agent:/),
    });
  });

  it('disconnect revokes at X and removes the tokens', async () => {
    const revocations = s.fake.stats.revocations;
    const res = await api().del(`/api/x/accounts/${xAccountId}`, owner.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, id: xAccountId, revoked: true });
    expect(s.fake.stats.revocations).toBe(revocations + 2);
    expect((await api().get('/api/x/accounts', owner.auth)).body.accounts).toEqual([]);
    expect(await s.h.runtime.documents.repository(socialAccountsCollection).findById(xAccountId)).toBeNull();
    expect((await api().del(`/api/x/accounts/${xAccountId}`, owner.auth)).status).toBe(404);
  });

  it('never shows or logs an X token', () => {
    expect(s.fake.issued.length).toBeGreaterThan(2);
    const logged = s.h.logs.text();
    expect(logged).toMatch(/social: X account connected/);
    for (const token of s.fake.issued) {
      expect(logged.includes(token)).toBe(false);
      expect(seen.some((answer) => answer.text.includes(token))).toBe(false);
    }
  });

  it('a second connect of the flow helper works (same X user connects again)', async () => {
    const again = await connectX(s.h, owner);
    expect(again.location).toBe('/settings/social?tab=x');
  });
});

describe('social connector switched off', () => {
  let s: SocialHarness;
  beforeAll(async () => {
    s = await startSocialHarness({ SOCIAL_ENABLED: 'false' });
  }, 60_000);
  afterAll(async () => s?.stop());

  it('has no routes, no tool and no duty', async () => {
    const owner = await s.h.account();
    for (const path of ['/api/social/platforms', '/api/x/accounts', '/api/x/queue', '/api/x/drafts']) {
      expect((await s.h.api.get(path, owner.auth)).status).toBe(404);
    }
    expect(
      (await s.h.api.post('/api/x/publish', owner.auth, { draftId: '0b5c3c2e-7d4f-4f8e-9a51-0c6a4a1c2f10' }))
        .status,
    ).toBe(404);
    const tools = await s.h.api.get('/tools');
    expect(JSON.stringify(tools.body)).not.toMatch(/social_draft/);
    const ran = await cron(s.h);
    expect(ran.body.result.ran.map((r: { duty: string }) => r.duty)).not.toContain('social-publisher');
  });
});
