import { isUnknownToolError, unknownTool } from '../../../../actors/tools/router/tool-registry';
import { errors } from '../../../../schemas/errors';
import {
  CallAnswer,
  handleJsonRpc,
  isJsonRpcBody,
  MCP_META,
  type McpDeps,
} from '../../../../src/http/mcp/json-rpc';

const deps: McpDeps = {
  serverInfo: { name: 'svc', version: '1.2.3' },
  tools: [{ name: 'platform.mem_get', description: 'd', inputSchema: { type: 'object' } }],
  call: async (name, args) => {
    if (name === 'echo') return { args };
    if (name === 'flag') return true;
    if (name === 'mcp.gh.search')
      return { content: [{ type: 'text', text: 'found' }], structuredContent: { n: 1 } };
    if (name === 'denied') throw errors.forbidden("Tool denied is not in this agent's allowedTools");
    if (name === 'limited') throw errors.rateLimited('Too many tool calls', 7);
    if (name === 'boom') throw new Error('secret internals');
    throw unknownTool(name);
  },
  isUnknownTool: isUnknownToolError,
};

const rpc = (method: string, params?: unknown, id: unknown = 1) => ({ jsonrpc: '2.0', id, method, params });

describe('MCP JSON-RPC dialect', () => {
  it('tells the dialects apart by the body', () => {
    expect(isJsonRpcBody({ jsonrpc: '2.0', method: 'ping', id: 1 })).toBe(true);
    expect(isJsonRpcBody([])).toBe(true);
    expect(isJsonRpcBody({ tool: 'mem_get' })).toBe(false);
    expect(isJsonRpcBody(undefined)).toBe(false);
  });

  it('initialize echoes a supported version and falls back to the newest', async () => {
    const a = await handleJsonRpc(
      rpc('initialize', { protocolVersion: '2025-03-26', capabilities: {} }),
      deps,
    );
    expect(a).toEqual({
      status: 200,
      body: {
        jsonrpc: '2.0',
        id: 1,
        result: expect.objectContaining({
          protocolVersion: '2025-03-26',
          capabilities: { tools: { listChanged: false } },
          serverInfo: { name: 'svc', version: '1.2.3' },
        }),
      },
    });
    const b = await handleJsonRpc(rpc('initialize', { protocolVersion: '1999-01-01' }), deps);
    expect((b.body as { result: { protocolVersion: string } }).result.protocolVersion).toBe('2025-11-25');
  });

  it('answers ping, tools/list, notifications (202) and unknown methods (-32601)', async () => {
    expect((await handleJsonRpc(rpc('ping', undefined, 'p'), deps)).body).toEqual({
      jsonrpc: '2.0',
      id: 'p',
      result: {},
    });
    expect(((await handleJsonRpc(rpc('tools/list'), deps)).body as { result: unknown }).result).toEqual({
      tools: deps.tools,
    });
    expect(await handleJsonRpc({ jsonrpc: '2.0', method: 'notifications/initialized' }, deps)).toEqual({
      status: 202,
    });
    expect(await handleJsonRpc({ jsonrpc: '2.0', id: 3, result: {} }, deps)).toEqual({ status: 202 });
    expect(await handleJsonRpc(rpc('resources/list'), deps)).toEqual({
      status: 200,
      body: { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found: resources/list' } },
    });
  });

  it('tools/call: results as text + structuredContent, failures as isError, unknown tools as -32602', async () => {
    const ok = await handleJsonRpc(rpc('tools/call', { name: 'echo', arguments: { a: 1 } }), deps);
    expect((ok.body as { result: unknown }).result).toEqual({
      content: [{ type: 'text', text: '{"args":{"a":1}}' }],
      structuredContent: { args: { a: 1 } },
      isError: false,
    });
    const flag = await handleJsonRpc(rpc('tools/call', { name: 'flag' }), deps);
    expect((flag.body as { result: unknown }).result).toEqual({
      content: [{ type: 'text', text: 'true' }],
      isError: false,
    });
    const connector = await handleJsonRpc(rpc('tools/call', { name: 'mcp.gh.search' }), deps);
    expect((connector.body as { result: unknown }).result).toEqual({
      content: [{ type: 'text', text: 'found' }],
      structuredContent: { n: 1 },
      isError: false,
    });
    const denied = await handleJsonRpc(rpc('tools/call', { name: 'denied' }), deps);
    expect((denied.body as { result: unknown }).result).toEqual({
      content: [{ type: 'text', text: "PERMISSION_DENIED: Tool denied is not in this agent's allowedTools" }],
      isError: true,
    });
    const limited = await handleJsonRpc(rpc('tools/call', { name: 'limited' }), deps);
    expect(JSON.stringify(limited.body)).toContain('retry after 7 s');
    const boom = await handleJsonRpc(rpc('tools/call', { name: 'boom' }), deps);
    expect((boom.body as { result: unknown }).result).toEqual({
      content: [{ type: 'text', text: 'Internal error' }],
      isError: true,
    });
    const unknown = await handleJsonRpc(rpc('tools/call', { name: 'nope' }), deps);
    expect(unknown.body).toMatchObject({ id: 1, error: { code: -32602, message: 'Unknown tool: nope' } });
  });

  it('refuses malformed messages with -32600 / -32602', async () => {
    expect(await handleJsonRpc({ jsonrpc: '1.0', id: 1, method: 'ping' }, deps)).toMatchObject({
      status: 400,
      body: { id: 1, error: { code: -32600 } },
    });
    expect(await handleJsonRpc({ jsonrpc: '2.0', id: 1 }, deps)).toMatchObject({
      status: 400,
      body: { error: { code: -32600 } },
    });
    expect(await handleJsonRpc({ jsonrpc: '2.0', id: { x: 1 }, method: 'ping' }, deps)).toMatchObject({
      status: 400,
      body: { id: null, error: { code: -32600 } },
    });
    expect(await handleJsonRpc(rpc('ping', [1, 2]), deps)).toMatchObject({
      status: 200,
      body: { error: { code: -32602 } },
    });
    expect(await handleJsonRpc(rpc('tools/call', {}), deps)).toMatchObject({
      body: { error: { code: -32602 } },
    });
    expect(await handleJsonRpc(rpc('tools/call', { name: 'echo', arguments: 'x' }), deps)).toMatchObject({
      body: { error: { code: -32602 } },
    });
  });

  it('answers batches with the responses to their requests, in order', async () => {
    const answer = await handleJsonRpc(
      [
        rpc('ping', undefined, 1),
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        rpc('nope', undefined, 2),
        5,
      ],
      deps,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found: nope' } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: not an object' } },
    ]);
    expect(await handleJsonRpc([{ jsonrpc: '2.0', method: 'notifications/initialized' }], deps)).toEqual({
      status: 202,
    });
    expect(await handleJsonRpc([], deps)).toMatchObject({ status: 400, body: { error: { code: -32600 } } });
  });

  it('hands a call its params._meta, adds the _meta of a CallAnswer, and says when a failed call may have run', async () => {
    const seen: unknown[] = [];
    const keyed: McpDeps = {
      ...deps,
      call: async (name, _args, meta) => {
        seen.push(meta);
        if (name === 'timeout') throw errors.deadline();
        if (name === 'unsent') throw errors.unavailable('Broker down', { mayHaveRun: false });
        if (name === 'mcp.gh.search')
          return new CallAnswer({ content: [], _meta: { own: 1 } }, { [MCP_META.replayed]: true });
        return new CallAnswer({ n: 1 }, { [MCP_META.replayed]: true });
      },
    };
    const meta = { [MCP_META.idempotencyKey]: 'key-0001-abcd' };
    const replayed = await handleJsonRpc(rpc('tools/call', { name: 'x', arguments: {}, _meta: meta }), keyed);
    expect(seen).toEqual([meta]);
    expect(replayed.body).toMatchObject({
      result: { structuredContent: { n: 1 }, isError: false, _meta: { 'io.agent-runtime/replayed': true } },
    });
    const passedThrough = await handleJsonRpc(
      rpc('tools/call', { name: 'mcp.gh.search', _meta: 'no' }),
      keyed,
    );
    expect(seen[1]).toBeUndefined();
    expect((passedThrough.body as { result: { _meta: unknown } }).result._meta).toEqual({
      own: 1,
      'io.agent-runtime/replayed': true,
    });
    const timedOut = await handleJsonRpc(rpc('tools/call', { name: 'timeout' }), keyed);
    expect((timedOut.body as { result: unknown }).result).toEqual({
      content: [
        {
          type: 'text',
          text: 'DEADLINE_EXCEEDED: Deadline exceeded (the call may have run: retry it with the same idempotency key)',
        },
      ],
      _meta: { 'io.agent-runtime/mayHaveRun': true },
      isError: true,
    });
    const unsent = await handleJsonRpc(rpc('tools/call', { name: 'unsent' }), keyed);
    expect((unsent.body as { result: unknown }).result).toMatchObject({
      content: [{ text: 'UNAVAILABLE: Broker down' }],
      _meta: { 'io.agent-runtime/mayHaveRun': false },
    });
  });
});
