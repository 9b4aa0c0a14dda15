import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, McpError } from '@modelcontextprotocol/sdk/types.js';
import { MCP_PROTOCOL_VERSIONS } from '../../../src/http/mcp/json-rpc';
import { SERVICE_VERSION } from '../../../src/version';
import { startRouterHarness, type RouterHarness } from './support/router-harness';

let h: RouterHarness;
/** The address the service says it is reached at (the OAuth resource metadata names it). */
const PUBLIC_BASE_URL = 'https://mcp.example.test';

beforeAll(async () => {
  h = await startRouterHarness({}, { PUBLIC_BASE_URL });
});
afterAll(async () => {
  await h.stop();
});

async function connect(token?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), {
    requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
  });
  const client = new Client({ name: 'router-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** A raw JSON-RPC POST as an MCP client sends it. */
const rpc = (token: string, body: unknown) =>
  h
    .http()
    .post('/mcp')
    .set('Authorization', `Bearer ${token}`)
    .set('Accept', 'application/json, text/event-stream')
    .send(body as object);

describe('MCP dialect through the official SDK client', () => {
  it('connects, negotiates the version, lists the registry and calls tools', async () => {
    const { token } = await h.agent();
    const client = await connect(token);
    try {
      expect(client.getServerVersion()).toEqual({ name: 'agent-runtime-service', version: SERVICE_VERSION });
      expect(client.getServerCapabilities()).toEqual({
        tools: { listChanged: false },
        logging: {},
        resources: { subscribe: true, listChanged: false },
        prompts: { listChanged: false },
        completions: {},
      });

      const { tools } = await client.listTools();
      const registry = (await h.http().get('/tools')).body.tools as Array<{ name: string }>;
      expect(tools.map((t) => t.name)).toEqual(registry.map((t) => t.name));
      for (const tool of tools) expect(tool.inputSchema.type).toBe('object');
      expect(tools.find((t) => t.name === 'platform.mem_get')?.annotations).toEqual({ readOnlyHint: true });

      const set = await client.callTool({
        name: 'platform.mem_set',
        arguments: { key: 'greeting', value: { hi: 1 } },
      });
      expect(set).toEqual({ content: [{ type: 'text', text: 'true' }], isError: false });
      const get = await client.callTool({ name: 'mem_get', arguments: { key: 'greeting' } });
      expect(get.isError).toBe(false);
      expect(get.structuredContent).toEqual({ value: { hi: 1 }, found: true });
      expect(JSON.parse((get.content as Array<{ text: string }>)[0].text)).toEqual({
        value: { hi: 1 },
        found: true,
      });
      await expect(client.ping()).resolves.toEqual({});
    } finally {
      await client.close();
    }
  });

  it('reports tool failures as isError results and unknown tools as JSON-RPC errors', async () => {
    const { token } = await h.agent({ allowedTools: ['mem_get'] });
    const client = await connect(token);
    try {
      const denied = await client.callTool({ name: 'mem_set', arguments: { key: 'k', value: 1 } });
      expect(denied.isError).toBe(true);
      expect((denied.content as Array<{ text: string }>)[0].text).toMatch(
        /^PERMISSION_DENIED: .*allowedTools/,
      );
      const invalid = await client.callTool({ name: 'mem_get', arguments: { key: 'no spaces allowed' } });
      expect(invalid.isError).toBe(true);
      expect((invalid.content as Array<{ text: string }>)[0].text).toMatch(
        /^VALIDATION_ERROR: Invalid mem_get input: key/,
      );
      const unknown = client.callTool({ name: 'platform.nope', arguments: {} });
      await expect(unknown).rejects.toBeInstanceOf(McpError);
      await expect(unknown).rejects.toMatchObject({ code: -32602 });
    } finally {
      await client.close();
    }
  });

  it('surfaces a missing or bad token as HTTP 401', async () => {
    await expect(connect()).rejects.toMatchObject({ code: 401 });
    await expect(connect('bad.token.value')).rejects.toMatchObject({ code: 401 });
  });

  it('challenges a 401 with the resource metadata of RFC 9728, which names the tokens it takes', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const anonymous = await h
      .http()
      .post('/mcp')
      .set('Accept', 'application/json, text/event-stream')
      .send(init);
    expect(anonymous.status).toBe(401);
    const metadataUrl = `${PUBLIC_BASE_URL}/.well-known/oauth-protected-resource/mcp`;
    expect(anonymous.headers['www-authenticate']).toBe(`Bearer resource_metadata="${metadataUrl}"`);
    const bad = await rpc('bad.token.value', init);
    expect(bad.status).toBe(401);
    expect(bad.headers['www-authenticate']).toBe(
      `Bearer error="invalid_token", resource_metadata="${metadataUrl}"`,
    );
    // Other routes' 401s carry no MCP challenge.
    expect((await h.http().get('/api/executions')).headers['www-authenticate']).toBeUndefined();

    for (const path of [
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
    ]) {
      const res = await h.http().get(path);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        resource: `${PUBLIC_BASE_URL}/mcp`,
        authorization_servers: [PUBLIC_BASE_URL],
        bearer_methods_supported: ['header'],
        scopes_supported: ['mcp_connector'],
        resource_name: `agent-runtime-service ${SERVICE_VERSION}`,
      });
    }
  });

  it("speaks the SDK's newest protocol version", () => {
    expect(MCP_PROTOCOL_VERSIONS).toContain(LATEST_PROTOCOL_VERSION);
  });
});

describe('MCP dialect on the wire', () => {
  let token: string;
  beforeAll(async () => {
    token = (await h.agent()).token;
  });

  it("initialize answers application/json with the client's supported version", async () => {
    for (const version of ['2025-06-18', '2025-03-26', '2024-11-05']) {
      const res = await rpc(token, {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
      });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body.result.protocolVersion).toBe(version);
    }
  });

  it('notifications get 202 without a body; GET /mcp without an event stream gets 405', async () => {
    const note = await rpc(token, { jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(note.status).toBe(202);
    expect(note.text).toBe('');
    const get = await h
      .http()
      .get('/mcp')
      .set('Authorization', `Bearer ${token}`)
      .set('Accept', 'application/json');
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST, GET, DELETE');
  });

  it('answers protocol errors with JSON-RPC error codes', async () => {
    const parse = await h
      .http()
      .post('/mcp')
      .set('Authorization', `Bearer ${token}`)
      .set('Accept', 'application/json, text/event-stream')
      .set('Content-Type', 'application/json')
      .send('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(parse.status).toBe(400);
    expect(parse.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: expect.any(String) },
    });

    const invalid = await rpc(token, { jsonrpc: '2.0', id: 2 });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe(-32600);

    const method = await rpc(token, { jsonrpc: '2.0', id: 3, method: 'sampling/createMessage' });
    expect(method.status).toBe(200);
    expect(method.body).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32601, message: 'Method not found: sampling/createMessage' },
    });

    const params = await rpc(token, {
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { arguments: {} },
    });
    expect(params.body.error.code).toBe(-32602);

    const version = await rpc(token, { jsonrpc: '2.0', id: 5, method: 'ping' }).set(
      'MCP-Protocol-Version',
      '1999-01-01',
    );
    expect(version.status).toBe(400);
    expect(version.body.error.code).toBe(-32600);
  });

  it('answers a batch with an array of responses', async () => {
    const res = await rpc(token, [
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'mem_get', arguments: { key: 'x' } } },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { jsonrpc: '2.0', id: 'a', result: {} },
      {
        jsonrpc: '2.0',
        id: 'b',
        result: {
          content: [{ type: 'text', text: '{"value":null,"found":false}' }],
          structuredContent: { value: null, found: false },
          isError: false,
        },
      },
    ]);
  });

  it("a malformed body from a non-MCP client gets the spec dialect's 400", async () => {
    const res = await h
      .http()
      .post('/mcp')
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/json')
      .send('{"tool": ');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', error: 'Malformed JSON body' });
  });
});

describe('MCP 2026-07-28 (stateless era) on the wire', () => {
  let token: string;
  beforeAll(async () => {
    token = (await h.agent()).token;
  });
  const rpc2026 = (body: Record<string, unknown>) =>
    rpc(token, body).set('MCP-Protocol-Version', '2026-07-28').set('Mcp-Method', String(body.method));
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'raw-2026', version: '0' },
  };

  it('server/discover answers capabilities, versions and the tool list without initialize', async () => {
    const res = await rpc2026({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } });
    expect(res.status).toBe(200);
    const listed = await rpc(token, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(res.body.result).toEqual({
      protocolVersion: '2026-07-28',
      supportedVersions: ['2026-07-28', ...MCP_PROTOCOL_VERSIONS],
      capabilities: expect.objectContaining({ tools: { listChanged: false }, resources: expect.any(Object) }),
      serverInfo: { name: 'agent-runtime-service', version: SERVICE_VERSION },
      instructions: expect.any(String),
      tools: listed.body.result.tools,
      ttlMs: 60_000,
      // The 2026 result shape (result-shape-2026.ts): the kind, and the scope of a cacheable answer.
      resultType: 'complete',
      cacheScope: 'private',
      _meta: {
        'io.modelcontextprotocol/serverInfo': { name: 'agent-runtime-service', version: SERVICE_VERSION },
      },
    });
  });

  it('tools/list carries ttlMs in the 2026 era only; tools/call takes _meta on the request', async () => {
    const list2026 = await rpc2026({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } });
    expect(list2026.body.result).toMatchObject({
      ttlMs: 60_000,
      cacheScope: 'private',
      resultType: 'complete',
    });
    const list2025 = await rpc(token, { jsonrpc: '2.0', id: 1, method: 'tools/list' }).set(
      'MCP-Protocol-Version',
      '2025-11-25',
    );
    expect(list2025.body.result).not.toHaveProperty('ttlMs');
    expect(list2025.body.result).not.toHaveProperty('resultType');
    const call = await rpc2026({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'mem_get', arguments: { key: 'k' }, _meta: meta },
    });
    expect(call.body.result).toMatchObject({
      resultType: 'complete',
      isError: false,
      structuredContent: { found: false },
    });
  });

  it('Mcp-Method must name the body method', async () => {
    const res = await rpc(token, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'mem_get' } })
      .set('MCP-Protocol-Version', '2026-07-28')
      .set('Mcp-Method', 'tools/list');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(-32600);
  });
});
