import { isAppError } from '../../../schemas/errors';
import {
  isObject,
  JSON_RPC_ERRORS,
  rpcError,
  type JsonRpcError,
  type JsonRpcResponse,
  type JsonRpcResult,
} from './json-rpc-messages';

/**
 * The MCP methods beyond tools (`resources/*`, `prompts/*`, `completion/complete`,
 * `logging/setLevel`): their params are checked here and answered by the providers the router
 * passes in (json-rpc.ts, `McpDeps`). Protocol only: what a resource or a prompt is, the providers say.
 */

/** The levels of `logging/setLevel` (RFC 5424 severities, as MCP names them). */
export const MCP_LOG_LEVELS = Object.freeze([
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
]);

/** What `resources/*` reads. Rejections with an AppError NOT_FOUND answer -32002, other 4xx -32602. */
export interface McpResourceProvider {
  /** One page of resources (`{uri, name, mimeType?, size?, ...}`) and the cursor of the next. */
  list(cursor: string | undefined): Promise<{ resources: readonly unknown[]; nextCursor?: string }>;
  /** The contents (`{uri, mimeType?, text | blob}`) of one resource. */
  read(uri: string): Promise<readonly unknown[]>;
  /** `resources/templates/list`: `{uriTemplate, name, ...}` (or a function that lists them). */
  templates: readonly unknown[] | (() => Promise<readonly unknown[]>);
  /**
   * `resources/subscribe` and `resources/unsubscribe` (the 2025 eras): absent, they answer -32601
   * and `capabilities.resources.subscribe` is false.
   */
  subscribe?(uri: string): Promise<void>;
  unsubscribe?(uri: string): Promise<void>;
}

/** What `prompts/*` reads. An unknown prompt rejects with an AppError NOT_FOUND (-32602). */
export interface McpPromptProvider {
  /** `{name, title?, description?, arguments?}` (or a function that lists them). */
  list: readonly unknown[] | (() => Promise<readonly unknown[]>);
  get(name: string, args: Record<string, string>): Promise<{ description?: string; messages: unknown[] }>;
}

export type McpCompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

export interface McpCompletion {
  values: string[];
  hasMore?: boolean;
}

/** The providers of these methods (part of `McpDeps`); an absent one: its methods answer -32601. */
export interface McpCatalogDeps {
  resources?: McpResourceProvider;
  prompts?: McpPromptProvider;
  complete?(ref: McpCompletionRef, argument: { name: string; value: string }): Promise<McpCompletion>;
}

/** A provider's rejection as a JSON-RPC error: a 4xx AppError says why, anything else is internal. */
function providerError(id: string | number, err: unknown, notFound: number): JsonRpcError {
  if (isAppError(err) && err.status < 500) {
    const code = err.code === 'NOT_FOUND' ? notFound : JSON_RPC_ERRORS.invalidParams;
    return rpcError(id, code, err.message);
  }
  return rpcError(id, JSON_RPC_ERRORS.internal, 'Internal error');
}

const listOf = async (list: readonly unknown[] | (() => Promise<readonly unknown[]>)) =>
  typeof list === 'function' ? list() : list;

const isStringRecord = (v: unknown): v is Record<string, string> =>
  isObject(v) && Object.values(v).every((x) => typeof x === 'string');

function completionRef(ref: unknown): McpCompletionRef | undefined {
  if (!isObject(ref)) return undefined;
  if (ref.type === 'ref/prompt' && typeof ref.name === 'string')
    return { type: 'ref/prompt', name: ref.name };
  if (ref.type === 'ref/resource' && typeof ref.uri === 'string')
    return { type: 'ref/resource', uri: ref.uri };
  return undefined;
}

/** `resources/*`, `prompts/*`, `completion/complete` and `logging/setLevel`; undefined: not one of them. */
export async function catalogRequest(
  id: string | number,
  method: string,
  params: Record<string, unknown>,
  deps: McpCatalogDeps,
): Promise<JsonRpcResponse | undefined> {
  const ok = (result: unknown): JsonRpcResult => ({ jsonrpc: '2.0', id, result });
  const bad = (message: string) => rpcError(id, JSON_RPC_ERRORS.invalidParams, `${method}: ${message}`);
  const { resources, prompts } = deps;
  switch (method) {
    case 'logging/setLevel':
      // Accepted and checked; a stateless server keeps no level between requests and sends no
      // log notifications (docs/tool-router.md, "MCP").
      return typeof params.level === 'string' && MCP_LOG_LEVELS.includes(params.level)
        ? ok({})
        : bad(`params.level must be one of ${MCP_LOG_LEVELS.join(', ')}`);
    case 'resources/list':
      if (!resources) return undefined;
      if (params.cursor !== undefined && typeof params.cursor !== 'string')
        return bad('params.cursor must be a string');
      try {
        const page = await resources.list(params.cursor);
        return ok(
          page.nextCursor
            ? { resources: page.resources, nextCursor: page.nextCursor }
            : { resources: page.resources },
        );
      } catch (err) {
        return providerError(id, err, JSON_RPC_ERRORS.invalidParams);
      }
    case 'resources/templates/list':
      if (!resources) return undefined;
      try {
        return ok({ resourceTemplates: await listOf(resources.templates) });
      } catch (err) {
        return providerError(id, err, JSON_RPC_ERRORS.invalidParams);
      }
    case 'resources/read':
      if (!resources) return undefined;
      if (typeof params.uri !== 'string' || params.uri === '')
        return bad('params.uri must be a non-empty string');
      try {
        return ok({ contents: await resources.read(params.uri) });
      } catch (err) {
        return providerError(id, err, JSON_RPC_ERRORS.resourceNotFound);
      }
    case 'resources/subscribe':
    case 'resources/unsubscribe': {
      const hook = method === 'resources/subscribe' ? resources?.subscribe : resources?.unsubscribe;
      if (!hook) return undefined;
      if (typeof params.uri !== 'string' || params.uri === '')
        return bad('params.uri must be a non-empty string');
      try {
        await hook(params.uri);
        return ok({});
      } catch (err) {
        return providerError(id, err, JSON_RPC_ERRORS.invalidParams);
      }
    }
    case 'prompts/list':
      if (!prompts) return undefined;
      try {
        return ok({ prompts: await listOf(prompts.list) });
      } catch (err) {
        return providerError(id, err, JSON_RPC_ERRORS.invalidParams);
      }
    case 'prompts/get':
      if (!prompts) return undefined;
      if (typeof params.name !== 'string' || params.name === '')
        return bad('params.name must be a non-empty string');
      if (params.arguments !== undefined && !isStringRecord(params.arguments)) {
        return bad('params.arguments must be an object of strings');
      }
      try {
        return ok(await prompts.get(params.name, params.arguments ?? {}));
      } catch (err) {
        return providerError(id, err, JSON_RPC_ERRORS.invalidParams);
      }
    case 'completion/complete': {
      if (!deps.complete) return undefined;
      const ref = completionRef(params.ref);
      const arg = params.argument;
      if (!ref) return bad('params.ref must be {type: "ref/prompt", name} or {type: "ref/resource", uri}');
      if (!isObject(arg) || typeof arg.name !== 'string' || typeof arg.value !== 'string') {
        return bad('params.argument must be {name, value} (strings)');
      }
      try {
        const found = await deps.complete(ref, { name: arg.name, value: arg.value });
        const values = found.values.slice(0, 100);
        const hasMore = found.hasMore === true || found.values.length > values.length;
        return ok({ completion: { values, hasMore } });
      } catch (err) {
        return providerError(id, err, JSON_RPC_ERRORS.invalidParams);
      }
    }
    default:
      return undefined;
  }
}
