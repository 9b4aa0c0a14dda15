import { defaultAgentIdOf } from '../../../actors/tools/router/default-agent';
import type { Principal } from '../../../schemas/auth';
import type { AgentInvokeToolMessage } from '../../../schemas/messages/tools';
import {
  eventually,
  startConnectorsHarness,
  type ConnectorsHarness,
} from '../connectors/support/connectors-harness';
import { startTestMcpServer, type TestMcpServer } from '../connectors/support/test-mcp-server';
import { subjectOf } from '../../support/token-claims';

/**
 * The tool router and connectors together (docs/tool-router.md, docs/connectors.md): connector
 * tools listed for the callers who may call them (`GET /tools`, MCP `tools/list`), who may call
 * them by default, `PATCH /api/agents` taking effect at once on `/mcp`, the deadline of connector
 * calls, and `related` reaching the connector (`usedBy`, `permissionScope`).
 */

let h: ConnectorsHarness;
let server: TestMcpServer;
let account: { token: string; auth: string };
let accountId: string;

const CONNECTOR_TOOLS = ['mcp.calc.add', 'mcp.calc.echo', 'mcp.calc.fail', 'mcp.calc.slow'];

const bearer = (token: string) => `Bearer ${token}`;
const names = (tools: Array<{ name: string }>) => tools.map((t) => t.name);
const connectorNames = (tools: Array<{ name: string }>) => names(tools).filter((n) => n.startsWith('mcp.'));

const call = (auth: string, tool: string, input: Record<string, unknown> = {}) =>
  h.http().post('/mcp').set('Authorization', auth).send({ tool, input });

const rpc = (auth: string, method: string, params: Record<string, unknown> = {}) =>
  h
    .http()
    .post('/mcp')
    .set('Authorization', auth)
    .set('Accept', 'application/json, text/event-stream')
    .send({ jsonrpc: '2.0', id: 1, method, params });

async function deploy(body: Record<string, unknown>): Promise<{ agentRef: string; auth: string }> {
  const res = await h.http().post('/api/agents').set('Authorization', account.auth).send(body);
  if (res.status !== 201) throw new Error(`deploy failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { agentRef: res.body.agent.agentRef as string, auth: bearer(res.body.apiKey as string) };
}

const patchAgent = (body: Record<string, unknown>) =>
  h.http().patch('/api/agents').set('Authorization', account.auth).send(body);

beforeAll(async () => {
  h = await startConnectorsHarness();
  server = await startTestMcpServer();
  account = await h.account();
  accountId = subjectOf(account.token, h.runtime.secrets.jwtSecret);
  const res = await h
    .http()
    .post('/api/connectors')
    .set('Authorization', account.auth)
    .send({ slug: 'calc', transport: 'http', url: server.url });
  if (res.status !== 201) throw new Error(`connector: ${res.status} ${JSON.stringify(res.body)}`);
});

afterAll(async () => {
  await h.stop();
  await server.stop().catch(() => undefined);
});

describe('listings: connector tools for the callers who may call them', () => {
  it('GET /tools without credentials: the public built-in list only, the /health count', async () => {
    const res = await h.http().get('/tools');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    expect(res.headers.vary).toMatch(/Authorization/);
    expect(connectorNames(res.body.tools)).toEqual([]);
    const health = await h.http().get('/health');
    expect(health.body.tools).toBe(res.body.tools.length);
  });

  it("GET /tools with the account's token: its connector tools too, sorted, private; /health unchanged", async () => {
    const anonymous = await h.http().get('/tools');
    const res = await h.http().get('/tools').set('Authorization', account.auth);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(connectorNames(res.body.tools)).toEqual(CONNECTOR_TOOLS);
    expect(names(res.body.tools)).toEqual([...names(res.body.tools)].sort());
    expect(res.body.tools).toHaveLength(anonymous.body.tools.length + CONNECTOR_TOOLS.length);
    const echo = res.body.tools.find((t: { name: string }) => t.name === 'mcp.calc.echo');
    expect(echo).toEqual({
      name: 'mcp.calc.echo',
      description: 'Echoes the message back',
      inputSchema: expect.objectContaining({ type: 'object', properties: { message: { type: 'string' } } }),
    });
    expect((await h.http().get('/health')).body.tools).toBe(anonymous.body.tools.length);
  });

  it("MCP tools/list (authenticated): the same, with the server's title, outputSchema and every annotation", async () => {
    const res = await rpc(account.auth, 'tools/list');
    expect(res.status).toBe(200);
    const tools = res.body.result.tools as Array<Record<string, unknown> & { name: string }>;
    expect(connectorNames(tools)).toEqual(CONNECTOR_TOOLS);
    const echo = tools.find((t) => t.name === 'mcp.calc.echo')!;
    expect(echo.title).toBe('Echo');
    expect(echo.annotations).toEqual({
      title: 'Echo a message',
      readOnlyHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
    const add = tools.find((t) => t.name === 'mcp.calc.add')!;
    expect(add.annotations).toEqual({ readOnlyHint: false });
    expect(add.title).toBeUndefined();
    expect(add.outputSchema).toEqual(
      expect.objectContaining({ type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] }),
    );
    expect(add.outputSchema).not.toHaveProperty('$schema');
    expect(tools.find((t) => t.name === 'platform.mem_get')).toBeDefined();
  });

  it("a deployed agent with the default lists sees (and may call) none of the account's connector tools", async () => {
    const agent = await deploy({ name: 'Plain' });
    expect(
      connectorNames((await h.http().get('/tools').set('Authorization', agent.auth)).body.tools),
    ).toEqual([]);
    expect(connectorNames((await rpc(agent.auth, 'tools/list')).body.result.tools)).toEqual([]);
    const res = await call(agent.auth, 'mcp.calc.echo', { message: 'x' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, code: 'PERMISSION_DENIED', tool: 'mcp.calc.echo' });
  });

  it('a deployed agent sees and calls exactly the connector tools its allowedTools permit', async () => {
    const agent = await deploy({ name: 'Echoer', allowedTools: ['mem_*', 'mcp.calc.echo'] });
    expect(
      connectorNames((await h.http().get('/tools').set('Authorization', agent.auth)).body.tools),
    ).toEqual(['mcp.calc.echo']);
    const ok = await call(agent.auth, 'mcp.calc.echo', { message: 'hi' });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({
      success: true,
      result: { content: [{ type: 'text', text: 'echo: hi' }], isError: false },
    });
    expect((await call(agent.auth, 'mcp.calc.add', { a: 1, b: 2 })).status).toBe(403);
  });

  it('a self-registered agent has no account: no connector tools listed, calls are 404', async () => {
    const reg = await h
      .http()
      .post('/register')
      .send({ name: `self ${Date.now()}`, allowedTools: ['mem_get', 'mcp.*'] });
    expect(reg.status).toBe(201);
    const auth = bearer(reg.body.token as string);
    expect(connectorNames((await h.http().get('/tools').set('Authorization', auth)).body.tools)).toEqual([]);
    const res = await call(auth, 'mcp.calc.echo', { message: 'x' });
    expect(res.status).toBe(404);
  });

  it('a bad token on GET /tools is 401, not the public list', async () => {
    expect((await h.http().get('/tools').set('Authorization', 'Bearer nope')).status).toBe(401);
  });
});

describe('PATCH /api/agents takes effect at once on /mcp', () => {
  it('narrowing allowedTools: the next call and the next listing follow it', async () => {
    const agent = await deploy({ name: 'Narrowed', allowedTools: ['mem_get', 'mcp.calc.*'] });
    expect((await call(agent.auth, 'mcp.calc.add', { a: 2, b: 3 })).status).toBe(200);

    const patched = await patchAgent({
      agentRef: agent.agentRef,
      allowedTools: ['mem_get', 'mcp.calc.echo'],
    });
    expect(patched.status).toBe(200);
    expect(patched.body.agent.allowedTools).toEqual(['mem_get', 'mcp.calc.echo']);

    const refused = await call(agent.auth, 'mcp.calc.add', { a: 2, b: 3 });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/allowedTools/);
    expect((await call(agent.auth, 'mcp.calc.echo', { message: 'still' })).status).toBe(200);
    expect(connectorNames((await rpc(agent.auth, 'tools/list')).body.result.tools)).toEqual([
      'mcp.calc.echo',
    ]);
  });

  it('disabling: the very next call is 403, re-enabling opens it again', async () => {
    const agent = await deploy({ name: 'Switched', allowedTools: ['mem_get', 'mcp.calc.echo'] });
    expect((await call(agent.auth, 'mem_get', { key: 'k' })).status).toBe(200);

    expect((await patchAgent({ agentRef: agent.agentRef, status: 'disabled' })).body.agent.status).toBe(
      'disabled',
    );
    const refused = await call(agent.auth, 'mcp.calc.echo', { message: 'x' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, code: 'PERMISSION_DENIED' });
    expect(refused.body.error).toMatch(/disabled/);
    expect((await call(agent.auth, 'mem_get', { key: 'k' })).status).toBe(403);
    // Nothing beyond the built-in list for a disabled agent.
    expect(
      connectorNames((await h.http().get('/tools').set('Authorization', agent.auth)).body.tools),
    ).toEqual([]);

    expect((await patchAgent({ agentRef: agent.agentRef, status: 'active' })).status).toBe(200);
    expect((await call(agent.auth, 'mcp.calc.echo', { message: 'back' })).status).toBe(200);
  });

  it("the account's default agent can be narrowed too (it is listed with the operator's agents)", async () => {
    const other = await h.account();
    // The default agent exists once the account has called the router.
    expect((await call(other.auth, 'mem_get', { key: 'k' })).status).toBe(200);
    const list = await h.http().get('/api/agents').set('Authorization', other.auth);
    const def = list.body.agents.find((a: { name: string }) => a.name === 'Default agent');
    const res = await h
      .http()
      .patch('/api/agents')
      .set('Authorization', other.auth)
      .send({ agentRef: def.agentRef, allowedTools: ['mem_get'] });
    expect(res.status).toBe(200);
    const refused = await call(other.auth, 'mem_set', { key: 'k', value: 1 });
    expect(refused.status).toBe(403);
    // `[]` restores the default agent's default: every built-in primitive and mcp.*.
    const reset = await h
      .http()
      .patch('/api/agents')
      .set('Authorization', other.auth)
      .send({ agentRef: def.agentRef, allowedTools: [] });
    expect(reset.body.agent.allowedTools).toContain('mcp.*');
    expect((await call(other.auth, 'mem_set', { key: 'k', value: 1 })).status).toBe(200);
  });
});

describe('related (apps, workflows, skills) reaches the connector', () => {
  const principal = (): Principal => ({ subjectType: 'account', accountId, via: 'bearer' });
  const invoke = (message: AgentInvokeToolMessage) =>
    h.runtime.system.ask<{ result: unknown }>(
      `agent:${defaultAgentIdOf(accountId)}`,
      'agent.invokeTool',
      message,
      {
        auth: principal(),
      },
    );

  it('a call made for an app is recorded in usedBy', async () => {
    const reply = await invoke({
      tool: 'mcp.calc.echo',
      input: { message: 'for the app' },
      invokedByType: 'workflow',
      related: { apps: ['billing-app'], workflows: ['wf-nightly'], skills: [] },
    });
    expect(reply.result).toMatchObject({ content: [{ type: 'text', text: 'echo: for the app' }] });
    const connector = await eventually(async () => {
      const res = await h.http().get('/api/connectors/calc').set('Authorization', account.auth);
      return res.body.connector.usedBy.apps.includes('billing-app') && res.body.connector;
    });
    expect(connector.usedBy).toMatchObject({ apps: ['billing-app'], workflows: ['wf-nightly'] });
  });

  it("a call for an app outside the connector's permissionScope is refused", async () => {
    const patched = await h
      .http()
      .patch('/api/connectors/calc')
      .set('Authorization', account.auth)
      .send({ permissionScope: { apps: ['other-app'] } });
    expect(patched.status).toBe(200);
    await expect(
      invoke({
        tool: 'mcp.calc.echo',
        input: { message: 'x' },
        invokedByType: 'workflow',
        related: { apps: ['billing-app'], workflows: [], skills: [] },
      }),
    ).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    // The account's own calls (no related) are still allowed.
    expect((await call(account.auth, 'mcp.calc.echo', { message: 'direct' })).status).toBe(200);
    await h
      .http()
      .patch('/api/connectors/calc')
      .set('Authorization', account.auth)
      .send({ permissionScope: {} });
  });
});

describe('deadline of connector calls', () => {
  let short: ConnectorsHarness;
  let slowServer: TestMcpServer;
  let op: { token: string; auth: string };

  beforeAll(async () => {
    // Every request is given 800 ms, except tool calls that may take longer.
    short = await startConnectorsHarness({ REQUEST_TIMEOUT_MS: '800' });
    slowServer = await startTestMcpServer();
    op = await short.account();
    const res = await short
      .http()
      .post('/api/connectors')
      .set('Authorization', op.auth)
      .send({ slug: 'slowpoke', transport: 'http', url: slowServer.url });
    if (res.status !== 201) throw new Error(`connector: ${res.status} ${JSON.stringify(res.body)}`);
  });

  afterAll(async () => {
    await short.stop();
    await slowServer.stop().catch(() => undefined);
  });

  it('a connector tool taking twice REQUEST_TIMEOUT_MS still answers, over HTTP (spec and MCP dialects)', async () => {
    const started = Date.now();
    const res = await short
      .http()
      .post('/mcp')
      .set('Authorization', op.auth)
      .send({ tool: 'mcp.slowpoke.slow', input: { ms: 1600, tag: 'spec' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      result: { content: [{ type: 'text', text: 'done' }], isError: false },
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1600);

    const viaRpc = await short
      .http()
      .post('/mcp')
      .set('Authorization', op.auth)
      .set('Accept', 'application/json, text/event-stream')
      .send({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'mcp.slowpoke.slow', arguments: { ms: 1600, tag: 'rpc' } },
      });
    expect(viaRpc.status).toBe(200);
    expect(viaRpc.body.result).toEqual({ content: [{ type: 'text', text: 'done' }], isError: false });
    expect(slowServer.cancelled).toEqual([]);
  });
});
