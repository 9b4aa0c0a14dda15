import { createConnectorTools } from '../../../actors/connectors/connector-tools';
import {
  EVERYTHING_ENTRY,
  eventually,
  everythingChildren,
  isAlive,
  startConnectorsHarness,
  type ConnectorsHarness,
} from './support/connectors-harness';
import { subjectOf } from '../../support/token-claims';

/**
 * A real MCP server over stdio (@modelcontextprotocol/server-everything) registered as a connector:
 * discovery, calls (the exported function and POST /mcp), secrets never shown, the child process
 * ended on delete and at shutdown.
 */

let h: ConnectorsHarness;
let account: { token: string; auth: string };
const SECRET = 'sk-test-0123456789abcdefghij';

const registration = (slug: string) => ({
  slug,
  name: 'Everything',
  transport: 'stdio',
  command: process.execPath,
  args: [EVERYTHING_ENTRY, 'stdio'],
  env: { API_TOKEN: SECRET, MODE: 'connector-test' },
});

beforeAll(async () => {
  h = await startConnectorsHarness();
  account = await h.account();
});

afterAll(async () => {
  await h.stop();
  // Stopping the runtime closed the pool: no server-everything child of this process is left.
  await eventually(() => everythingChildren().length === 0);
});

const accountIdOf = (token: string) => subjectOf(token, h.runtime.secrets.jwtSecret);
/** The router-facing functions, over this runtime's actor system (what the router uses). */
const servicesTools = () => createConnectorTools(h.runtime.system);

describe('stdio connector: server-everything', () => {
  let childPid: number;

  it('registers the server: 201 with its tools discovered, secrets masked, no internal id', async () => {
    const res = await h
      .http()
      .post('/api/connectors')
      .set('Authorization', account.auth)
      .send(registration('everything'));
    expect(res.status).toBe(201);
    const c = res.body.connector;
    expect(c).toMatchObject({
      slug: 'everything',
      name: 'Everything',
      transport: 'stdio',
      healthStatus: 'active',
      lastAuditOutcome: { success: true, tool: 'tools/list' },
      usedBy: { apps: [], workflows: [], skills: [] },
      permissionScope: {},
      command: process.execPath,
      env: { API_TOKEN: '[redacted]', MODE: 'connector-test' },
    });
    expect(c.toolCount).toBeGreaterThan(0);
    expect(c.toolCount).toBe(c.tools.length);
    expect(c.tools.map((t: { name: string }) => t.name)).toContain('echo');
    expect(c.serverInfo.name).toEqual(expect.any(String));
    expect(res.text).not.toContain(SECRET);
    expect(res.text).not.toMatch(/con_[a-f0-9]{6}|acc_[a-f0-9]{6}/);

    // The discovery session stays open for the calls: one child process.
    const children = everythingChildren();
    expect(children).toHaveLength(1);
    childPid = children[0];
  });

  it('lists it for the account', async () => {
    const res = await h.http().get('/api/connectors').set('Authorization', account.auth);
    expect(res.status).toBe(200);
    expect(res.body.connectors).toHaveLength(1);
    expect(res.body.connectors[0]).toMatchObject({ slug: 'everything', healthStatus: 'active' });
    expect(res.body.connectors[0].toolCount).toBeGreaterThan(0);
    expect(res.text).not.toContain(SECRET);
  });

  it('calls echo through callConnectorTool, on the same child', async () => {
    const result = await servicesTools().callConnectorTool(accountIdOf(account.token), 'everything', 'echo', {
      message: 'hello stdio',
    });
    expect(result).toEqual({ content: [{ type: 'text', text: 'Echo: hello stdio' }], isError: false });
    expect(everythingChildren()).toEqual([childPid]);
  });

  it('lists the connector tools for the router: mcp.<slug>.<tool>, object schemas', async () => {
    const list = await servicesTools().listConnectorTools(accountIdOf(account.token));
    const echo = list.find((t) => t.name === 'mcp.everything.echo');
    expect(echo).toMatchObject({ description: expect.any(String), readOnly: true });
    expect(echo!.inputSchema).toMatchObject({ type: 'object', properties: { message: { type: 'string' } } });
    expect(list.every((t) => t.name.startsWith('mcp.everything.') && t.inputSchema.type === 'object')).toBe(
      true,
    );
  });

  it('passes only the given environment (and the SDK safe defaults) to the child', async () => {
    const result = await servicesTools().callConnectorTool(
      accountIdOf(account.token),
      'everything',
      'get-env',
      {},
    );
    const text = JSON.stringify(result.content);
    expect(text).toContain('connector-test');
    // LOG_LEVEL is set in this (parent) process by the test setup: the child must not inherit it.
    expect(text).not.toContain('LOG_LEVEL');
  });

  it('calls echo through POST /mcp as mcp.everything.echo', async () => {
    // The account's default agent may call the account's own connectors (`mcp.*`).
    const res = await h
      .http()
      .post('/mcp')
      .set('Authorization', account.auth)
      .send({ tool: 'mcp.everything.echo', input: { message: 'through the router' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      result: { content: [{ type: 'text', text: 'Echo: through the router' }], isError: false },
    });
  });

  it('records the last call outcome (pending outcomes are merged into the listing)', async () => {
    await servicesTools().callConnectorTool(accountIdOf(account.token), 'everything', 'echo', {
      message: 'audit',
    });
    const res = await eventually(async () => {
      const r = await h.http().get('/api/connectors/everything').set('Authorization', account.auth);
      return r.body.connector.lastAuditOutcome.tool === 'echo' && r;
    });
    expect(res.body.connector.lastAuditOutcome).toMatchObject({ success: true, tool: 'echo' });
  });

  it('refresh re-discovers on a new session (a new child)', async () => {
    const res = await h.http().post('/api/connectors/everything/refresh').set('Authorization', account.auth);
    expect(res.status).toBe(200);
    expect(res.body.connector).toMatchObject({ healthStatus: 'active', lastError: null });
    await eventually(() => !isAlive(childPid));
    const children = everythingChildren();
    expect(children).toHaveLength(1);
    expect(children[0]).not.toBe(childPid);
    childPid = children[0];
  });

  it('delete ends the child process; the connector is gone', async () => {
    const res = await h.http().delete('/api/connectors/everything').set('Authorization', account.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ deleted: true, connector: { slug: 'everything' } });
    expect(isAlive(childPid)).toBe(false);
    expect(everythingChildren()).toEqual([]);

    const list = await h.http().get('/api/connectors').set('Authorization', account.auth);
    expect(list.body.connectors).toEqual([]);
    await expect(
      servicesTools().callConnectorTool(accountIdOf(account.token), 'everything', 'echo', { message: 'x' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', details: { reason: 'unknown_tool' } });
  });

  it('the same slug can be registered again after a delete (DELETE ?slug= works too)', async () => {
    const created = await h
      .http()
      .post('/api/connectors')
      .set('Authorization', account.auth)
      .send(registration('everything'));
    expect(created.status).toBe(201);
    const removed = await h
      .http()
      .delete('/api/connectors?slug=everything')
      .set('Authorization', account.auth);
    expect(removed.status).toBe(200);
    expect(everythingChildren()).toEqual([]);
  });
});
