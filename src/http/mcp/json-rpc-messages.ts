/**
 * JSON-RPC 2.0 messages and error codes of the MCP dialect of `POST /mcp` (json-rpc.ts answers
 * them; catalog-methods.ts uses them too).
 */

/** JSON-RPC and MCP error codes. */
export const JSON_RPC_ERRORS = Object.freeze({
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  /** MCP: `resources/read` of a URI that does not exist (or that the caller may not see). */
  resourceNotFound: -32002,
});

export type Id = string | number | null;

export interface JsonRpcError {
  jsonrpc: '2.0';
  id: Id;
  error: { code: number; message: string; data?: unknown };
}

export interface JsonRpcResult {
  jsonrpc: '2.0';
  id: string | number;
  result: unknown;
}

export type JsonRpcResponse = JsonRpcError | JsonRpcResult;

export const rpcError = (id: Id, code: number, message: string, data?: unknown): JsonRpcError => ({
  jsonrpc: '2.0',
  id,
  error: data === undefined ? { code, message } : { code, message, data },
});

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
