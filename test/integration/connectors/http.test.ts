import { createConnectorTools } from '../../../actors/connectors/connector-tools';
import {
  eventually as waitFor,
  startConnectorsHarness,
  type ConnectorsHarness,
} from './support/connectors-harness';
import { startTestMcpServer, type TestMcpServer } from './support/test-mcp-server';
import { subjectOf } from '../../support/token-claims';

/**
 * A Streamable HTTP MCP server the test runs on 127.0.0.1 (ALLOW_LOOPBACK_HTTP=true): register,
 * list, call, headers sent but never shown, server down → healthStatus error and a clear error,
 * back up → calls work again.
 */

let h: ConnectorsHarness;
let server: TestMcpServer;
let account: { token: string; auth: string };
let accountId: string;
const API_KEY = 'sk-live-abcdefghijklmnop0123456789';

const connectorTools = () => createConnectorTools(h.runtime.system);

beforeAll(async () => {
  h = await startConnectorsHarness();
  server = await startTestMcpServer();
  account = await h.account();
  accountId = subjectOf(account.token, h.runtime.secrets.jwtSecret);
});

afterAll(async () => {
  await h.stop();
  await server.stop().catch(() => undefined);
});

describe('http connector: a Streamable HTTP server', () => {
  it('registers it: tools discovered, headers sent, credential values masked', async () => {
    const res = await h
      .http()
      .post('/api/connectors')
      .set('Authorization', account.auth)
      .send({
        slug: 'calc',
        transport: 'http',
        url: server.url,
        headers: { 'X-Api-Key': API_KEY, 'X-Tenant': 'acme' },
        permissionScope: { apps: ['billing-app'] },
      });
    expect(res.status).toBe(201);
    expect(res.body.connector).toMatchObject({
      slug: 'calc',
      name: 'calc',
      transport: 'http',
      toolCount: 4,
      healthStatus: 'active',
      url: server.url,
      headers: { 'X-Api-Key': '[redacted]', 'X-Tenant': 'acme' },
      permissionScope: { apps: ['billing-app'] },
      serverInfo: { name: 'test-mcp', version: '1.2.3' },
    });
    expect(res.body.connector.tools.map((t: { name: string }) => t.name).sort()).toEqual([
      'add',
      'echo',
      'fail',
      'slow',
    ]);
    expect(res.text).not.toContain(API_KEY);
    // The server received the configured headers.
    expect(server.requests.some((r) => r['x-api-key'] === API_KEY && r['x-tenant'] === 'acme')).toBe(true);
  });

  it('lists it', async () => {
    const res = await h.http().get('/api/connectors').set('Authorization', account.auth);
    expect(res.body.connectors.map((c: { slug: string }) => c.slug)).toEqual(['calc']);
    expect(res.text).not.toContain(API_KEY);
  });

  it('calls tools: content, structuredContent, tool errors as isError results', async () => {
    const tools = connectorTools();
    await expect(tools.callConnectorTool(accountId, 'calc', 'add', { a: 2, b: 40 })).resolves.toEqual({
      content: [{ type: 'text', text: '42' }],
      structuredContent: { sum: 42 },
      isError: false,
    });
    await expect(tools.callConnectorTool(accountId, 'calc', 'fail', {})).resolves.toEqual({
      content: [{ type: 'text', text: 'it failed' }],
      isError: true,
    });
    // Arguments the server's schema refuses come back as a tool error too (the SDK server's choice).
    const bad = await tools.callConnectorTool(accountId, 'calc', 'add', { a: 'two' });
    expect(bad.isError).toBe(true);
    await expect(tools.callConnectorTool(accountId, 'calc', 'nope', {})).rejects.toMatchObject({
      code: 'NOT_FOUND',
      details: { reason: 'unknown_tool' },
    });
  });

  it('enforces permissionScope for calls made for an app, and records usedBy', async () => {
    const tools = connectorTools();
    await expect(
      tools.callConnectorTool(
        accountId,
        'calc',
        'echo',
        { message: 'x' },
        { related: { apps: ['other-app'] } },
      ),
    ).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    await tools.callConnectorTool(
      accountId,
      'calc',
      'echo',
      { message: 'x' },
      { related: { apps: ['billing-app'] } },
    );
    const res = await h.http().get('/api/connectors/calc').set('Authorization', account.auth);
    expect(res.body.connector.usedBy).toEqual({ apps: ['billing-app'], workflows: [], skills: [] });
    expect(res.body.connector.lastAuditOutcome).toMatchObject({ success: true, tool: 'echo' });
  });

  it('a cancelled call is cancelled on the server too', async () => {
    const controller = new AbortController();
    const call = connectorTools().callConnectorTool(
      accountId,
      'calc',
      'slow',
      { ms: 10_000, tag: 'c1' },
      {
        signal: controller.signal,
      },
    );
    setTimeout(() => controller.abort(), 200);
    await expect(call).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    await waitFor(() => server.cancelled.includes('c1'));
  });

  it('a call past its timeout is DEADLINE_EXCEEDED', async () => {
    const started = Date.now();
    await expect(
      connectorTools().callConnectorTool(
        accountId,
        'calc',
        'slow',
        { ms: 5000, tag: 't1' },
        { timeoutMs: 300 },
      ),
    ).rejects.toMatchObject({ code: 'DEADLINE_EXCEEDED' });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('server down: the call fails with a clear error and healthStatus turns to error', async () => {
    await server.stop();
    const err = await connectorTools()
      .callConnectorTool(accountId, 'calc', 'echo', { message: 'anyone?' })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'UNAVAILABLE' });
    expect((err as Error).message).toMatch(/MCP connector "calc": .*(refused|connect)/);

    const res = await waitFor(async () => {
      const r = await h.http().get('/api/connectors/calc').set('Authorization', account.auth);
      return r.body.connector.healthStatus === 'error' && r;
    });
    expect(res.body.connector.lastAuditOutcome).toMatchObject({ success: false, tool: 'echo' });
    expect(res.body.connector.lastError.message).toMatch(/MCP connector "calc"/);

    // Refresh while down: 200 with the error recorded.
    const refresh = await h.http().post('/api/connectors/calc/refresh').set('Authorization', account.auth);
    expect(refresh.status).toBe(200);
    expect(refresh.body.connector).toMatchObject({
      healthStatus: 'error',
      toolCount: 4,
      lastAuditOutcome: { success: false, tool: 'tools/list' },
    });
  });

  it('server back: the next call reconnects and health is active again', async () => {
    await server.start();
    await expect(
      connectorTools().callConnectorTool(accountId, 'calc', 'echo', { message: 'back' }),
    ).resolves.toMatchObject({
      content: [{ type: 'text', text: 'echo: back' }],
    });
    await waitFor(async () => {
      const r = await h.http().get('/api/connectors/calc').set('Authorization', account.auth);
      return r.body.connector.healthStatus === 'active' && r.body.connector.lastError === null;
    });
  });

  it('a disabled connector refuses calls and hides its tools', async () => {
    const res = await h
      .http()
      .patch('/api/connectors/calc')
      .set('Authorization', account.auth)
      .send({ enabled: false });
    expect(res.status).toBe(200);
    expect(res.body.connector.healthStatus).toBe('disabled');
    await expect(
      connectorTools().callConnectorTool(accountId, 'calc', 'echo', { message: 'x' }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect(await connectorTools().listConnectorTools(accountId)).toEqual([]);
    await h.http().patch('/api/connectors/calc').set('Authorization', account.auth).send({ enabled: true });
    expect((await connectorTools().listConnectorTools(accountId)).map((t) => t.name)).toEqual([
      'mcp.calc.add',
      'mcp.calc.echo',
      'mcp.calc.fail',
      'mcp.calc.slow',
    ]);
  });
});
