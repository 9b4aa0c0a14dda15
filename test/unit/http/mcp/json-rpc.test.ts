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
          capabilities: { tools: { listChanged: false }, logging: {} },
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

  it('routes notifications/cancelled to deps.cancelled and hands call its request id', async () => {
    const cancelled: Array<string | number> = [];
    const seen: Array<string | number> = [];
    const own: McpDeps = {
      ...deps,
      call: async (_name, _args, _meta, requestId) => {
        seen.push(requestId);
        return true;
      },
      cancelled: async (requestId) => {
        cancelled.push(requestId);
      },
    };
    const note = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'r-1' } };
    expect(await handleJsonRpc(note, own)).toEqual({ status: 202 });
    // Without a usable requestId there is nothing to cancel; still a 202.
    const bad = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: {} } };
    expect(await handleJsonRpc(bad, own)).toEqual({ status: 202 });
    expect(cancelled).toEqual(['r-1']);
    await handleJsonRpc(rpc('tools/call', { name: 'x' }, 42), own);
    expect(seen).toEqual([42]);
  });

  it('answers resources, prompts and completion from their providers, mapping their errors', async () => {
    const own: McpDeps = {
      ...deps,
      resources: {
        list: async (cursor) => ({
          resources: [{ uri: 'x:///a', name: 'a' }],
          ...(cursor ? {} : { nextCursor: 'c2' }),
        }),
        read: async (uri) => {
          if (uri === 'x:///a') return [{ uri, text: 'A' }];
          if (uri === 'x:///denied') throw errors.forbidden('not yours to read');
          if (uri === 'x:///boom') throw new Error('secret internals');
          throw errors.notFound('No such resource');
        },
        templates: [{ uriTemplate: 'x:///{name}', name: 'x' }],
      },
      prompts: {
        list: [{ name: 'p' }],
        get: async (name) => {
          if (name !== 'p') throw errors.notFound('Unknown prompt');
          return { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] };
        },
      },
      complete: async () => ({ values: Array.from({ length: 150 }, (_, i) => `v${i}`) }),
    };
    const result = async (method: string, params?: unknown) =>
      (await handleJsonRpc(rpc(method, params), own)).body;
    expect(await result('initialize', {})).toMatchObject({
      result: {
        capabilities: {
          tools: { listChanged: false },
          logging: {},
          resources: { subscribe: false, listChanged: false },
          prompts: { listChanged: false },
          completions: {},
        },
      },
    });
    expect(await result('resources/list')).toMatchObject({
      result: { resources: [{ name: 'a' }], nextCursor: 'c2' },
    });
    expect(await result('resources/list', { cursor: 'c2' })).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { resources: [{ uri: 'x:///a', name: 'a' }] },
    });
    expect(await result('resources/templates/list')).toMatchObject({
      result: { resourceTemplates: [{ name: 'x' }] },
    });
    expect(await result('resources/read', { uri: 'x:///a' })).toMatchObject({
      result: { contents: [{ text: 'A' }] },
    });
    expect(await result('resources/read', { uri: 'x:///gone' })).toMatchObject({ error: { code: -32002 } });
    expect(await result('resources/read', { uri: 'x:///denied' })).toMatchObject({
      error: { code: -32602, message: 'not yours to read' },
    });
    expect(await result('resources/read', { uri: 'x:///boom' })).toMatchObject({
      error: { code: -32603, message: 'Internal error' },
    });
    expect(await result('resources/read', {})).toMatchObject({ error: { code: -32602 } });
    expect(await result('prompts/list')).toMatchObject({ result: { prompts: [{ name: 'p' }] } });
    expect(await result('prompts/get', { name: 'p' })).toMatchObject({
      result: { messages: [{ role: 'user' }] },
    });
    expect(await result('prompts/get', { name: 'q' })).toMatchObject({ error: { code: -32602 } });
    expect(await result('prompts/get', { name: 'p', arguments: { n: 1 } })).toMatchObject({
      error: { code: -32602 },
    });
    const completion = (await result('completion/complete', {
      ref: { type: 'ref/prompt', name: 'p' },
      argument: { name: 'a', value: '' },
    })) as { result: { completion: { values: string[]; hasMore: boolean } } };
    expect(completion.result.completion.values).toHaveLength(100);
    expect(completion.result.completion.hasMore).toBe(true);
    expect(
      await result('completion/complete', { ref: { type: 'ref/other' }, argument: { name: 'a', value: '' } }),
    ).toMatchObject({
      error: { code: -32602 },
    });
    expect(await result('logging/setLevel', { level: 'debug' })).toMatchObject({ result: {} });
    expect(await result('logging/setLevel', { level: 'verbose' })).toMatchObject({ error: { code: -32602 } });
    // Without providers these methods do not exist.
    expect((await handleJsonRpc(rpc('resources/list'), deps)).body).toMatchObject({
      error: { code: -32601 },
    });
    expect((await handleJsonRpc(rpc('prompts/list'), deps)).body).toMatchObject({ error: { code: -32601 } });
  });
});
