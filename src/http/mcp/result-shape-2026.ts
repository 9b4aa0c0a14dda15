import { isObject, type JsonRpcResponse } from './json-rpc-messages';

/**
 * The result shape of the 2026-07-28 revision: every result names its kind (`resultType`,
 * `complete` unless a method said otherwise, e.g. a task), and the cacheable results (the lists
 * and `resources/read`) carry how long a client may reuse them (`ttlMs`) and whether they may be
 * shared between authorization contexts (`cacheScope`). Everything `/mcp` lists is the caller's
 * own view (its files, its connectors, its allowed tools), so the scope is always `private`.
 * Clients of that revision refuse a result without these (the SDK v2 client does).
 */

/** Methods whose results are cacheable in the 2026 era; the others need only `resultType`. */
const CACHEABLE = new Set([
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'server/discover',
]);

/** Where a 2026 result names the server (a SHOULD for `server/discover`: clients key caches on it). */
export const SERVER_INFO_META = 'io.modelcontextprotocol/serverInfo';

/**
 * `answer` with the 2026 fields filled where absent (a value the method set is kept). `ttlMs` of a
 * cacheable result that set none is 0 ("immediately stale": the client asks again each time).
 * `server/discover` also names the server in its `_meta` (only there: the other results would
 * carry the same bytes on every call).
 */
export function withResultShape2026(
  method: string,
  answer: JsonRpcResponse,
  serverInfo: { name: string; version: string },
): JsonRpcResponse {
  if (!('result' in answer) || !isObject(answer.result)) return answer;
  const result: Record<string, unknown> = { resultType: 'complete', ...answer.result };
  if (method === 'server/discover') {
    const own = isObject(result._meta) ? result._meta : {};
    result._meta = { [SERVER_INFO_META]: serverInfo, ...own };
  }
  if (CACHEABLE.has(method)) {
    if (typeof result.ttlMs !== 'number') result.ttlMs = 0;
    if (result.cacheScope !== 'public' && result.cacheScope !== 'private') result.cacheScope = 'private';
  }
  return { ...answer, result };
}
