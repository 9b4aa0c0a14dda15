import { handleJsonRpc, type McpDeps } from '../../../../src/http/mcp/json-rpc';

/**
 * The 2026-07-28 result shape (src/http/mcp/result-shape-2026.ts): every result names its kind,
 * cacheable ones their ttlMs and scope; the 2025 eras' results are left as they were. Without
 * these the SDK v2 client refuses the answers ("missing required resultType").
 */
const deps = (protocolVersion?: string): McpDeps => ({
  serverInfo: { name: 'svc', version: '1.2.3' },
  ...(protocolVersion ? { protocolVersion } : {}),
  tools: [{ name: 'platform.mem_get', inputSchema: { type: 'object' } }],
  call: async () => ({ ok: true }),
  isUnknownTool: () => false,
});
const rpc = (method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: 1,
  method,
  params,
});
const resultOf = async (method: string, version?: string, params?: Record<string, unknown>) =>
  ((await handleJsonRpc(rpc(method, params), deps(version))).body as { result: Record<string, unknown> })
    .result;

it('2026 era: resultType on every result, ttlMs and a private scope on cacheable ones', async () => {
  expect(await resultOf('ping', '2026-07-28')).toEqual({ resultType: 'complete' });
  expect(await resultOf('tools/list', '2026-07-28')).toMatchObject({
    resultType: 'complete',
    ttlMs: 60_000,
    cacheScope: 'private',
  });
  expect(await resultOf('tools/call', '2026-07-28', { name: 'x' })).toMatchObject({
    resultType: 'complete',
    isError: false,
  });
  const call = await resultOf('tools/call', '2026-07-28', { name: 'x' });
  expect(call).not.toHaveProperty('ttlMs');
});

it('server/discover names the server in _meta, whatever the header', async () => {
  for (const version of ['2026-07-28', undefined]) {
    expect(await resultOf('server/discover', version)).toMatchObject({
      resultType: 'complete',
      cacheScope: 'private',
      ttlMs: 60_000,
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'svc', version: '1.2.3' } },
    });
  }
});

it('2025 eras: results as before', async () => {
  expect(await resultOf('ping', '2025-11-25')).toEqual({});
  const list = await resultOf('tools/list');
  expect(list).not.toHaveProperty('resultType');
  expect(list).not.toHaveProperty('cacheScope');
});
