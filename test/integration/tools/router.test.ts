import { agentsCollection } from '../../../actors/identity/agents.collection';
import { defaultAgentIdOf } from '../../../actors/tools/router/default-agent';
import { panicFlagKey } from '../../../schemas/messages/tools';
import { eventually, startRouterHarness, type RouterHarness } from './support/router-harness';
import { subjectOf } from '../../support/token-claims';

/** Calls per agent per minute in this suite: small enough to reach in a test. */
const RATE_POINTS = 40;

let h: RouterHarness;

beforeAll(async () => {
  h = await startRouterHarness({ rateLimit: { points: RATE_POINTS, durationSec: 60 } });
});
afterAll(async () => {
  await h.stop();
});

const subOf = (token: string) => subjectOf(token, h.runtime.secrets.jwtSecret);
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('GET /tools and /health', () => {
  it('lists platform.<tool> entries sorted by name, each with an object input schema; /health counts them', async () => {
    const res = await h.http().get('/tools');
    expect(res.status).toBe(200);
    const tools = res.body.tools as Array<{
      name: string;
      description: string;
      inputSchema: { type: string };
    }>;
    const names = tools.map((t) => t.name);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(
      expect.arrayContaining(['platform.mem_set', 'platform.events_publish', 'platform.proc_execute']),
    );
    for (const tool of tools) {
      expect(Object.keys(tool).sort()).toEqual(['description', 'inputSchema', 'name']);
      expect(tool.inputSchema.type).toBe('object');
    }
    const health = await h.http().get('/health');
    expect(health.body.tools).toBe(tools.length);
  });
});

describe('POST /mcp, spec dialect', () => {
  it('runs every memory tool, by bare and platform. names, with input or arguments', async () => {
    const { token } = await h.agent();
    expect((await h.call(token, 'mem_set', { key: 'a:1', value: { x: [1, 2] }, ttl: 3600 })).body).toEqual({
      success: true,
      result: true,
    });
    expect((await h.call(token, 'platform.mem_get', { key: 'a:1' })).body).toEqual({
      success: true,
      result: { value: { x: [1, 2] }, found: true },
    });
    const viaArguments = await h
      .http()
      .post('/mcp')
      .set(auth(token))
      .send({ tool: 'mem_get', arguments: { key: 'missing' } });
    expect(viaArguments.body).toEqual({ success: true, result: { value: null, found: false } });
    expect((await h.call(token, 'mem_incr', { key: 'n', by: 5 })).body.result).toEqual({ value: 5 });
    expect((await h.call(token, 'platform.mem_incr', { key: 'n' })).body.result).toEqual({ value: 6 });
    expect((await h.call(token, 'mem_list', { prefix: 'a:' })).body.result).toEqual({
      keys: ['a:1'],
      truncated: false,
    });
    expect((await h.call(token, 'mem_expire', { key: 'a:1', ttl: 60 })).body.result).toEqual({
      updated: true,
    });
    expect((await h.call(token, 'mem_delete', { key: 'a:1' })).body.result).toEqual({ deleted: true });
    expect((await h.call(token, 'mem_get', { key: 'a:1' })).body.result).toEqual({
      value: null,
      found: false,
    });
  });

  it("keeps each agent's memory to itself", async () => {
    const a = await h.agent();
    const b = await h.agent();
    await h.call(a.token, 'mem_set', { key: 'plan', value: 'A only' });
    expect((await h.call(b.token, 'mem_get', { key: 'plan' })).body.result).toEqual({
      value: null,
      found: false,
    });
    expect((await h.call(b.token, 'mem_list', {})).body.result).toEqual({ keys: [], truncated: false });
    expect((await h.call(a.token, 'mem_get', { key: 'plan' })).body.result).toEqual({
      value: 'A only',
      found: true,
    });
  });

  it('runs the event tools between the agents of one account (account token = its default agent)', async () => {
    const operator = await h.account();
    const deployed = await h
      .http()
      .post('/api/agents')
      .set(auth(operator.token))
      .send({ name: `listener ${Date.now()}` });
    expect(deployed.status).toBe(201);
    const listener = deployed.body.apiKey as string;

    const published = await h.call(operator.token, 'events_publish', {
      topic: 'builds/done',
      payload: { id: 7 },
    });
    expect(published.body).toEqual({
      success: true,
      result: { published: true, topic: 'builds/done', seq: 1, publishedAt: expect.any(String) },
    });
    const polled = await h.call(listener, 'platform.events_subscribe', { topic: 'builds/done' });
    expect(polled.body.result).toMatchObject({
      topic: 'builds/done',
      subscribed: true,
      cursor: 1,
      more: false,
      events: [
        { topic: 'builds/done', seq: 1, payload: { id: 7 }, publishedBy: expect.stringMatching(/^agref-/) },
      ],
    });
    expect(
      (await h.call(listener, 'events_subscribe', { topic: 'builds/done', since: 1 })).body.result.events,
    ).toEqual([]);
    expect((await h.call(listener, 'events_list_topics')).body.result).toEqual({
      topics: [{ topic: 'builds/done', lastSeq: 1, subscribed: true }],
    });
    expect((await h.call(listener, 'events_unsubscribe', { topic: 'builds/done' })).body.result).toEqual({
      unsubscribed: true,
    });
    // The account's default agent is an ordinary agent of the account.
    const agents = await h.http().get('/api/agents').set(auth(operator.token));
    expect(agents.body.agents.map((a: { name: string }) => a.name)).toContain('Default agent');
  });

  it('runs proc_execute in the sandbox and redacts secrets from the result', async () => {
    const { token } = await h.agent();
    const res = await h.call(token, 'proc_execute', {
      language: 'javascript',
      code: 'console.log("OPENAI_API_KEY=sk-abcdefghijklmnopqrstuvwxyz"); console.log("hi"); 6 * 7',
      timeout: 5000,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      result: expect.objectContaining({
        stdout: 'OPENAI_API_KEY=[redacted]\nhi\n',
        exitCode: 0,
        outcome: 'ok',
        result: 42,
      }),
    });
    const failing = await h.call(token, 'proc_execute', { language: 'js', code: 'throw new Error("nope")' });
    expect(failing.body.result).toMatchObject({ exitCode: 1, outcome: 'error' });
  });

  it('redacts what memory gives back', async () => {
    const { token } = await h.agent();
    await h.call(token, 'mem_set', {
      key: 'env',
      value: { note: 'AWS key AKIAIOSFODNN7EXAMPLE', password: 'hunter2', line: 'KEY=sk-live-123' },
    });
    expect((await h.call(token, 'mem_get', { key: 'env' })).body.result.value).toEqual({
      note: 'AWS key [redacted]',
      password: '[redacted]',
      line: 'KEY=[redacted]',
    });
  });

  it('answers 404 for unknown tools and connector tools the agent does not have, 400 with the issues for bad input', async () => {
    const { token } = await h.agent();
    const unknown = await h.call(token, 'platform.nope', {});
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({
      success: false,
      code: 'NOT_FOUND',
      error: 'Unknown tool: platform.nope',
    });
    const connector = await h.call(token, 'mcp.github.create_issue', {});
    // Not in allowedTools by default (every built-in primitive): refused before resolution.
    expect(connector.status).toBe(403);
    const permissive = await h.agent({ allowedTools: ['mem_*', 'mcp.*'] });
    expect((await h.call(permissive.token, 'mcp.github.create_issue', {})).status).toBe(404);
    expect(
      (await h.http().post('/mcp').set(auth(token)).send({ tool: 'create_issue', server: 'github' })).status,
    ).toBe(403);

    const invalid = await h.call(token, 'mem_set', { key: 'bad key!', ttl: 0 });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({
      success: false,
      code: 'VALIDATION_ERROR',
      error: expect.stringContaining('Invalid mem_set input'),
      details: expect.arrayContaining([
        { path: 'key', message: expect.any(String) },
        { path: 'value', message: expect.any(String) },
        { path: 'ttl', message: expect.any(String) },
      ]),
    });
    expect((await h.http().post('/mcp').set(auth(token)).send({ input: {} })).status).toBe(400);
    expect((await h.http().post('/mcp').set(auth(token)).send({ tool: 'mem_get', input: 'x' })).status).toBe(
      400,
    );
  });

  it('enforces allowedTools: exact names and patterns', async () => {
    const exact = await h.agent({ allowedTools: ['mem_get'] });
    expect((await h.call(exact.token, 'mem_get', { key: 'k' })).status).toBe(200);
    const refused = await h.call(exact.token, 'platform.mem_set', { key: 'k', value: 1 });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, code: 'PERMISSION_DENIED', tool: 'mem_set' });

    const pattern = await h.agent({ allowedTools: ['mem_*'] });
    expect((await h.call(pattern.token, 'mem_set', { key: 'k', value: 1 })).status).toBe(200);
    expect((await h.call(pattern.token, 'events_publish', { topic: 't', payload: 1 })).status).toBe(403);
    expect((await h.call(pattern.token, 'proc_execute', { language: 'js', code: '1' })).status).toBe(403);
  });

  it('refuses missing, invalid and revoked credentials with 401, and scoped tokens without mcp_connector with 403', async () => {
    expect(
      (
        await h
          .http()
          .post('/mcp')
          .send({ tool: 'mem_get', input: { key: 'k' } })
      ).status,
    ).toBe(401);
    expect((await h.call('not.a.token', 'mem_get', { key: 'k' })).status).toBe(401);

    const operator = await h.account();
    const created = await h
      .http()
      .post('/api/bearer-tokens')
      .set(auth(operator.token))
      .send({ name: 'router', scopes: ['mcp_connector'] });
    expect(created.status).toBe(201);
    const named = created.body.bearerToken as string;
    expect((await h.call(named, 'mem_set', { key: 'k', value: 1 })).status).toBe(200);
    // The named token acts as the account's default agent, like the account's own token.
    expect((await h.call(operator.token, 'mem_get', { key: 'k' })).body.result).toEqual({
      value: 1,
      found: true,
    });
    const revoked = await h
      .http()
      .patch('/api/bearer-tokens')
      .set(auth(operator.token))
      .send({ id: created.body.token.id, action: 'revoke' });
    expect(revoked.status).toBe(200);
    expect((await h.call(named, 'mem_get', { key: 'k' })).status).toBe(401);

    const workflowOnly = await h
      .http()
      .post('/api/bearer-tokens')
      .set(auth(operator.token))
      .send({ name: 'wf', scopes: ['workflow'] });
    expect((await h.call(workflowOnly.body.bearerToken, 'mem_get', { key: 'k' })).status).toBe(403);
  });

  it('rate-limits each agent: 429 with Retry-After past the limit, other agents unaffected', async () => {
    const busy = await h.agent();
    const statuses: number[] = [];
    for (let i = 0; i < RATE_POINTS; i++)
      statuses.push((await h.call(busy.token, 'mem_get', { key: 'k' })).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const limited = await h.call(busy.token, 'mem_get', { key: 'k' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(limited.body).toMatchObject({
      success: false,
      code: 'RATE_LIMITED',
      retryAfter: expect.any(Number),
    });
    const other = await h.agent();
    expect((await h.call(other.token, 'mem_get', { key: 'k' })).status).toBe(200);
  });

  it('counts calls: totalCalls and lastActiveAt of GET /agent/me', async () => {
    const { token } = await h.agent();
    const before = await h.http().get('/agent/me').set(auth(token));
    expect(before.body).toMatchObject({ totalCalls: 0, lastActiveAt: null });
    for (let i = 0; i < 3; i++) await h.call(token, 'mem_set', { key: `k${i}`, value: i });
    await h.call(token, 'mem_set', { key: 'bad key' }); // authorised, so counted, then refused by validation
    const after = await h.http().get('/agent/me').set(auth(token));
    expect(after.body.totalCalls).toBe(4);
    expect(Date.parse(after.body.lastActiveAt)).toBeGreaterThan(Date.now() - 60_000);
    // Written to the document in batches (at most a second later).
    const agents = h.runtime.documents.repository(agentsCollection);
    await eventually(async () => (await agents.findById(subOf(token)))?.totalCalls === 4);
  });

  it('reloads the agent when its document changes (agent.changed broadcast)', async () => {
    const { token } = await h.agent();
    expect((await h.call(token, 'mem_set', { key: 'k', value: 1 })).status).toBe(200);
    const agents = h.runtime.documents.repository(agentsCollection);
    await agents.updateOne({ _id: subOf(token) }, { $set: { allowedTools: ['mem_get'] } });
    await h.runtime.system.broadcast('agent.changed', { agentId: subOf(token) });
    expect((await h.call(token, 'mem_set', { key: 'k', value: 2 })).status).toBe(403);
    expect((await h.call(token, 'mem_get', { key: 'k' })).status).toBe(200);
    await agents.updateOne({ _id: subOf(token) }, { $set: { status: 'suspended' } });
    await h.runtime.system.broadcast('agent.changed', { agentId: subOf(token) });
    const suspended = await h.call(token, 'mem_get', { key: 'k' });
    expect(suspended.status).toBe(403);
    expect(suspended.body.error).toMatch(/suspended/);
  });

  it('refuses calls while the workspace is in panic lockdown', async () => {
    const operator = await h.account();
    expect((await h.call(operator.token, 'mem_set', { key: 'k', value: 1 })).status).toBe(200);
    const doc = await h.runtime.documents
      .repository(agentsCollection)
      .findById(defaultAgentIdOf(subOf(operator.token)));
    expect(doc?.workspaceId).toEqual(expect.any(String));
    await h.runtime.cache.set(panicFlagKey(doc!.workspaceId!), '1');
    await h.runtime.system.broadcast('workspace.panic', { workspaceId: doc!.workspaceId, active: true });
    const locked = await h.call(operator.token, 'mem_get', { key: 'k' });
    expect(locked.status).toBe(403);
    expect(locked.body.error).toMatch(/panic/);
    await h.runtime.cache.delete(panicFlagKey(doc!.workspaceId!));
    await h.runtime.system.broadcast('workspace.panic', { workspaceId: doc!.workspaceId, active: false });
    expect((await h.call(operator.token, 'mem_get', { key: 'k' })).status).toBe(200);
  });

  it('does not block an agent behind its own slow tool: mem_get completes while proc_execute runs', async () => {
    const { token } = await h.agent();
    await h.call(token, 'mem_set', { key: 'k', value: 'v' });
    const done: string[] = [];
    const started = Date.now();
    const slow = h
      .call(token, 'proc_execute', {
        language: 'js',
        code: 'const t = Date.now(); while (Date.now() - t < 1500) {} "slow done"',
        timeout: 10_000,
      })
      .then((res) => {
        done.push('proc_execute');
        return { res, ms: Date.now() - started };
      });
    await new Promise((r) => setTimeout(r, 100));
    const fastStarted = Date.now();
    const fast = await h.call(token, 'mem_get', { key: 'k' });
    const fastMs = Date.now() - fastStarted;
    done.push('mem_get');
    const { res, ms } = await slow;
    expect(fast.body.result).toEqual({ value: 'v', found: true });
    expect(res.body.result).toMatchObject({ outcome: 'ok', result: 'slow done' });
    expect(done).toEqual(['mem_get', 'proc_execute']);
    expect(fastMs).toBeLessThan(500);
    expect(ms).toBeGreaterThanOrEqual(1500);
  });
});

describe('route records and GET /api/ffp/routes', () => {
  it('records every call off the hot path and summarises executions per primitive', async () => {
    const { token } = await h.agent({ allowedTools: ['mem_*'] });
    await h.call(token, 'mem_set', { key: 'k', value: 1 });
    await h.call(token, 'mem_get', { key: 'k' });
    await h.call(token, 'mem_get', { key: 'k' });
    await h.call(token, 'events_publish', { topic: 't', payload: 1 }); // refused: recorded, not executed

    const body = await eventually(async () => {
      const res = await h.http().get('/api/ffp/routes').set(auth(token));
      return res.status === 200 && res.body.routes.length === 4 ? res.body : undefined;
    });
    expect(body.routes[0]).toEqual({
      tool: 'platform.events_publish',
      primitive: 'events_publish',
      fallbackUsed: false,
      invokedByType: 'agent',
      routeDecision: { source: 'platform' },
      related: { apps: [], workflows: [], skills: [] },
      agentRef: expect.stringMatching(/^agref-/),
      status: 'error',
      errorCode: 'PERMISSION_DENIED',
      durationMs: expect.any(Number),
      at: expect.any(String),
    });
    expect(body.routes.slice(1).map((r: { tool: string; status: string }) => [r.tool, r.status])).toEqual([
      ['platform.mem_get', 'ok'],
      ['platform.mem_get', 'ok'],
      ['platform.mem_set', 'ok'],
    ]);
    expect(body.primitives).toEqual([
      { primitive: 'mem_get', executions: 2, fallbackCount: 0 },
      { primitive: 'mem_set', executions: 1, fallbackCount: 0 },
    ]);
    expect(JSON.stringify(body)).not.toMatch(/agt_|acc_/);
    const limited = await h.http().get('/api/ffp/routes?limit=1').set(auth(token));
    expect(limited.body.routes).toHaveLength(1);
  });

  it('shows an account the calls of all its agents, and nothing to anonymous callers', async () => {
    const operator = await h.account();
    const deployed = await h
      .http()
      .post('/api/agents')
      .set(auth(operator.token))
      .send({ name: `worker ${Date.now()}` });
    await h.call(operator.token, 'mem_set', { key: 'k', value: 1 });
    await h.call(deployed.body.apiKey, 'mem_get', { key: 'k' });
    const body = await eventually(async () => {
      const res = await h.http().get('/api/ffp/routes').set(auth(operator.token));
      return res.body.routes?.length === 2 ? res.body : undefined;
    });
    expect(new Set(body.routes.map((r: { agentRef: string }) => r.agentRef)).size).toBe(2);
    expect(body.routes.map((r: { invokedByType: string }) => r.invokedByType).sort()).toEqual([
      'account',
      'agent',
    ]);
    expect((await h.http().get('/api/ffp/routes')).status).toBe(401);
  });
});
