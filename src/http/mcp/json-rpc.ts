import {
  catalogRequest,
  type McpCompletion,
  type McpCompletionRef,
  type McpPromptProvider,
  type McpResourceProvider,
} from './catalog-methods';
import { isObject, JSON_RPC_ERRORS, rpcError, type JsonRpcResponse } from './json-rpc-messages';
import {
  maybeTaskCall,
  taskCapabilities,
  taskRequest,
  withTaskSupport,
  type McpTaskProvider,
} from './task-methods';
import { withResultShape2026 } from './result-shape-2026';
import { toolError, toolResult } from './tool-results';

export { MCP_META, toolError, toolResult } from './tool-results';

export {
  MCP_LOG_LEVELS,
  type McpCompletion,
  type McpCompletionRef,
  type McpPromptProvider,
  type McpResourceProvider,
} from './catalog-methods';
export {
  declaresTasksExtension,
  detailedTask,
  TASKS_EXTENSION,
  type McpTask,
  type McpTaskProvider,
  type McpTaskStatus,
} from './task-methods';
export {
  JSON_RPC_ERRORS,
  rpcError,
  type JsonRpcError,
  type JsonRpcResponse,
  type JsonRpcResult,
} from './json-rpc-messages';

/**
 * The MCP dialect of `POST /mcp`: JSON-RPC 2.0 over Streamable HTTP, stateless (no session id, no
 * server-initiated messages), every answer `application/json`. Protocol only: tool calls go
 * through `deps.call`, the same path as the spec's dialect. See docs/tool-router.md.
 */

/** Protocol versions of the `initialize` eras, newest first. A client's supported version is echoed. */
export const MCP_PROTOCOL_VERSIONS = Object.freeze(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);

/**
 * Versions of the stateless era (no `initialize`: `server/discover`, the version in the
 * `MCP-Protocol-Version` header of every request). See docs/tool-router.md ("MCP 2026-07-28")
 * for exactly what of that revision is implemented.
 */
export const MCP_STATELESS_VERSIONS = Object.freeze(['2026-07-28']);

/** Every version a request may name in `MCP-Protocol-Version`, newest first. */
export const MCP_ALL_VERSIONS = Object.freeze([...MCP_STATELESS_VERSIONS, ...MCP_PROTOCOL_VERSIONS]);

/** How long a 2026-era client may reuse a `tools/list` (`ttlMs`) unless the deps say otherwise. */
export const DEFAULT_TOOLS_TTL_MS = 60_000;

/** What the dialect needs from the router. */
export interface McpDeps {
  serverInfo: { name: string; version: string };
  /** The request's `MCP-Protocol-Version` header, when it named one (checked by the route). */
  protocolVersion?: string;
  /** `ttlMs` of a 2026-era `tools/list` and `server/discover` (default DEFAULT_TOOLS_TTL_MS). */
  toolsTtlMs?: number;
  /**
   * MCP tool objects for `tools/list`, or a function that lists them (called only when a
   * `tools/list` is received; it should not reject, a rejection answers -32603).
   */
  tools: readonly unknown[] | (() => Promise<readonly unknown[]>);
  /**
   * Runs a tool; rejects with an AppError (unknown tool: NOT_FOUND with reason `unknown_tool`).
   * `meta` is the request's `params._meta` when it is an object. Resolves the result, or a
   * `CallAnswer` to add `_meta` to the `CallToolResult`.
   */
  call(
    name: string,
    args: Record<string, unknown>,
    meta: Record<string, unknown> | undefined,
    requestId: string | number,
  ): Promise<unknown>;
  /**
   * `notifications/cancelled {requestId}`: the client gave up on that request (a `tools/call`
   * still running should stop). Absent, the notification is ignored.
   */
  cancelled?(requestId: string | number): Promise<void>;
  /**
   * Whether a rejection of `call` means the tool does not exist (a protocol error, -32602)
   * rather than a tool error (a result with `isError`). The router's test is passed in.
   */
  isUnknownTool(err: unknown): boolean;
  /** `resources/*`: absent, those methods answer -32601 and no capability is advertised. */
  resources?: McpResourceProvider;
  /** `prompts/*`: absent, those methods answer -32601 and no capability is advertised. */
  prompts?: McpPromptProvider;
  /**
   * `completion/complete` for a prompt argument or a resource-template variable. Resolves the
   * candidate values (at most 100 are sent) and whether there are more.
   */
  complete?(ref: McpCompletionRef, argument: { name: string; value: string }): Promise<McpCompletion>;
  /** Tool calls as tasks (`tasks/*`): absent, no task capability and those methods answer -32601. */
  tasks?: McpTaskProvider;
}

/** A tool's result with `_meta` for its `CallToolResult` (e.g. that it was replayed). */
export class CallAnswer {
  constructor(
    readonly result: unknown,
    readonly meta: Record<string, unknown>,
  ) {}
}

/** How to answer the HTTP request: a status and an optional JSON body (202: none). */
export interface McpAnswer {
  status: number;
  body?: JsonRpcResponse | JsonRpcResponse[];
}

const isId = (v: unknown): v is string | number =>
  typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/** Whether a parsed body is meant for the MCP dialect: an array (batch) or an object with `jsonrpc`. */
export function isJsonRpcBody(body: unknown): boolean {
  return Array.isArray(body) || (isObject(body) && 'jsonrpc' in body);
}

/** The version to answer `initialize` with: the client's when spoken here, else the newest. */
export function negotiateVersion(requested: unknown): string {
  return typeof requested === 'string' && MCP_PROTOCOL_VERSIONS.includes(requested)
    ? requested
    : MCP_PROTOCOL_VERSIONS[0];
}

async function callTool(
  id: string | number,
  params: Record<string, unknown>,
  deps: McpDeps,
): Promise<JsonRpcResponse> {
  const { name, arguments: args, _meta: meta } = params;
  if (typeof name !== 'string' || name === '') {
    return rpcError(id, JSON_RPC_ERRORS.invalidParams, 'tools/call: params.name must be a non-empty string');
  }
  if (args !== undefined && !isObject(args)) {
    return rpcError(id, JSON_RPC_ERRORS.invalidParams, 'tools/call: params.arguments must be an object');
  }
  try {
    const asTask = await maybeTaskCall(id, name, args ?? {}, params, deps.tasks, isStateless(deps));
    if (asTask) return asTask;
    const answer = await deps.call(name, args ?? {}, isObject(meta) ? meta : undefined, id);
    if (answer instanceof CallAnswer) {
      const result: Record<string, unknown> = toolResult(answer.result, name);
      const own = isObject(result._meta) ? result._meta : {};
      return { jsonrpc: '2.0', id, result: { ...result, _meta: { ...own, ...answer.meta } } };
    }
    return { jsonrpc: '2.0', id, result: toolResult(answer, name) };
  } catch (err) {
    // MCP: an unknown tool is a protocol error; everything else the tool (or its policy) said no to
    // is a result with isError, which the model can read and act on.
    if (deps.isUnknownTool(err)) {
      return rpcError(id, JSON_RPC_ERRORS.invalidParams, (err as Error).message, { tool: name });
    }
    return { jsonrpc: '2.0', id, result: toolError(err) };
  }
}

const isStateless = (deps: McpDeps) =>
  deps.protocolVersion !== undefined && MCP_STATELESS_VERSIONS.includes(deps.protocolVersion);

/** The capabilities of `initialize`: what `deps` provides. */
export function capabilitiesOf(deps: McpDeps, stateless = isStateless(deps)): Record<string, unknown> {
  return {
    tools: { listChanged: false },
    logging: {},
    // The stateless era's `subscriptions/listen` stream; the 2025 eras' `resources/subscribe`.
    ...(deps.resources
      ? { resources: { subscribe: stateless || deps.resources.subscribe !== undefined, listChanged: false } }
      : {}),
    ...(deps.prompts ? { prompts: { listChanged: false } } : {}),
    ...(deps.complete ? { completions: {} } : {}),
    ...(deps.tasks ? taskCapabilities(stateless) : {}),
  };
}

const INSTRUCTIONS =
  "Built-in tools are named platform.<tool> (the bare name works too); your account's connector tools are mcp.<connector>.<tool>. Results are JSON; secrets in results are redacted.";

async function listTools(deps: McpDeps): Promise<readonly unknown[]> {
  const tools = typeof deps.tools === 'function' ? await deps.tools() : deps.tools;
  return deps.tasks ? withTaskSupport(tools, deps.tasks) : tools;
}

async function request(id: string | number, method: string, params: Record<string, unknown>, deps: McpDeps) {
  switch (method) {
    case 'server/discover': {
      // The stateless era's handshake in one answer: what `initialize` said, plus the tool list.
      let tools: readonly unknown[];
      try {
        tools = await listTools(deps);
      } catch {
        return rpcError(id, JSON_RPC_ERRORS.internal, 'Internal error: the tools could not be listed');
      }
      return {
        jsonrpc: '2.0' as const,
        id,
        result: {
          protocolVersion: isStateless(deps) ? deps.protocolVersion : MCP_ALL_VERSIONS[0],
          supportedVersions: MCP_ALL_VERSIONS,
          capabilities: capabilitiesOf(deps, true),
          serverInfo: deps.serverInfo,
          instructions: INSTRUCTIONS,
          tools,
          ttlMs: deps.toolsTtlMs ?? DEFAULT_TOOLS_TTL_MS,
        },
      };
    }
    case 'initialize':
      return {
        jsonrpc: '2.0' as const,
        id,
        result: {
          protocolVersion: negotiateVersion(params.protocolVersion),
          capabilities: capabilitiesOf(deps),
          serverInfo: deps.serverInfo,
          instructions: INSTRUCTIONS,
        },
      };
    case 'ping':
      return { jsonrpc: '2.0' as const, id, result: {} };
    case 'tools/list': {
      try {
        const tools = await listTools(deps);
        // The 2026 era's cacheable list: how long the client may reuse it.
        const ttl = isStateless(deps) ? { ttlMs: deps.toolsTtlMs ?? DEFAULT_TOOLS_TTL_MS } : {};
        return { jsonrpc: '2.0' as const, id, result: { tools, ...ttl } };
      } catch {
        return rpcError(id, JSON_RPC_ERRORS.internal, 'Internal error: the tools could not be listed');
      }
    }
    case 'tools/call':
      return callTool(id, params, deps);
    default:
      return (
        (await catalogRequest(id, method, params, deps)) ??
        (await taskRequest(id, method, params, deps.tasks, isStateless(deps))) ??
        rpcError(id, JSON_RPC_ERRORS.methodNotFound, `Method not found: ${method.slice(0, 100)}`)
      );
  }
}

/** One message of a body: a response, or undefined for notifications and client responses. */
async function handleMessage(message: unknown, deps: McpDeps): Promise<JsonRpcResponse | undefined> {
  if (!isObject(message))
    return rpcError(null, JSON_RPC_ERRORS.invalidRequest, 'Invalid Request: not an object');
  const id = isId(message.id) ? message.id : null;
  if (message.jsonrpc !== '2.0') {
    return rpcError(id, JSON_RPC_ERRORS.invalidRequest, 'Invalid Request: jsonrpc must be "2.0"');
  }
  if (!('method' in message)) {
    // A response to a server request: this server sends none, so there is nothing to match.
    if ('result' in message || 'error' in message) return undefined;
    return rpcError(id, JSON_RPC_ERRORS.invalidRequest, 'Invalid Request: no method');
  }
  if (typeof message.method !== 'string' || message.method === '') {
    return rpcError(id, JSON_RPC_ERRORS.invalidRequest, 'Invalid Request: method must be a string');
  }
  const isNotification = !('id' in message);
  if (!isNotification && !isId(message.id)) {
    return rpcError(null, JSON_RPC_ERRORS.invalidRequest, 'Invalid Request: id must be a string or a number');
  }
  const params = message.params;
  if (params !== undefined && !isObject(params)) {
    return isNotification
      ? undefined
      : rpcError(id, JSON_RPC_ERRORS.invalidParams, 'Invalid params: params must be an object');
  }
  if (isNotification) {
    // Cancellation is the one notification that asks for something; the others (initialized,
    // progress, roots changed, …) need nothing from a stateless server.
    if (message.method === 'notifications/cancelled' && deps.cancelled && isId(params?.requestId)) {
      await deps.cancelled(params.requestId).catch(() => undefined);
    }
    return undefined;
  }
  const answer = await request(message.id as string | number, message.method, params ?? {}, deps);
  // `server/discover` speaks the 2026 revision whatever the header said.
  return isStateless(deps) || message.method === 'server/discover'
    ? withResultShape2026(message.method, answer, deps.serverInfo)
    : answer;
}

/**
 * Answers one MCP body: a message or a batch (an array, answered with an array of the responses
 * to its requests). Only notifications and responses: 202 without a body. A body that is not a
 * JSON-RPC message at all: 400 with -32600.
 */
export async function handleJsonRpc(body: unknown, deps: McpDeps): Promise<McpAnswer> {
  if (Array.isArray(body)) {
    if (body.length === 0) {
      return {
        status: 400,
        body: rpcError(null, JSON_RPC_ERRORS.invalidRequest, 'Invalid Request: empty batch'),
      };
    }
    const answers = (await Promise.all(body.map((m) => handleMessage(m, deps)))).filter(
      (a): a is JsonRpcResponse => a !== undefined,
    );
    return answers.length === 0 ? { status: 202 } : { status: 200, body: answers };
  }
  const answer = await handleMessage(body, deps);
  if (!answer) return { status: 202 };
  const wholeBodyInvalid = 'error' in answer && answer.error.code === JSON_RPC_ERRORS.invalidRequest;
  return { status: wholeBodyInvalid ? 400 : 200, body: answer };
}
