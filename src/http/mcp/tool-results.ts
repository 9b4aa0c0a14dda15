import { isAppError, isUncertainOutcome } from '../../../schemas/errors';
import { isObject } from './json-rpc-messages';

/** How tool results and tool errors look in MCP (`CallToolResult`), for calls and for tasks. */

/**
 * This server's `_meta` fields (MCP reserves unprefixed names; ours carry a prefix):
 * - `idempotencyKey`, in a `tools/call`'s `params._meta`: the call's idempotency key (like the
 *   `Idempotency-Key` header, docs/tool-router.md);
 * - `replayed`, in a result's `_meta`: the outcome of the first call with that key, not run again;
 * - `mayHaveRun`, in a tool error's `_meta`: whether a call that failed unavailable or past its
 *   deadline may still have run (retry it with an idempotency key).
 */
export const MCP_META = Object.freeze({
  idempotencyKey: 'io.agent-runtime/idempotencyKey',
  replayed: 'io.agent-runtime/replayed',
  mayHaveRun: 'io.agent-runtime/mayHaveRun',
});

/** A result that already is an MCP `CallToolResult` (`{content: [...], isError?}`), from a connector. */
function isCallToolResult(result: unknown): result is Record<string, unknown> {
  return isObject(result) && Array.isArray(result.content);
}

/**
 * A tool's result as an MCP `CallToolResult`: JSON text, plus `structuredContent` for objects. A
 * connector tool (`mcp.<server>.<tool>`) already answers a `CallToolResult`: it is passed through.
 */
export function toolResult(result: unknown, name = '') {
  if (name.startsWith('mcp.') && isCallToolResult(result))
    return { ...result, isError: result.isError === true };
  return {
    content: [{ type: 'text', text: JSON.stringify(result ?? null) }],
    ...(isObject(result) ? { structuredContent: result } : {}),
    isError: false,
  };
}

/** A failed call as an MCP tool error (`isError: true`), so that the model sees why. */
export function toolError(err: unknown) {
  let text = 'Internal error';
  let mayHaveRun: boolean | undefined;
  if (isAppError(err) && err.code !== 'INTERNAL_ERROR') {
    const details = err.details as { retryAfter?: unknown; mayHaveRun?: unknown } | undefined;
    const retryAfter = details?.retryAfter;
    // As on HTTP: a 503/504 says whether the call may have run, `true` unless a layer knew better.
    if (isUncertainOutcome(err.code)) mayHaveRun = details?.mayHaveRun !== false;
    text = `${err.code}: ${err.message}${typeof retryAfter === 'number' ? ` (retry after ${retryAfter} s)` : ''}`;
    if (mayHaveRun === true) text += ' (the call may have run: retry it with the same idempotency key)';
  }
  return {
    content: [{ type: 'text', text }],
    ...(mayHaveRun !== undefined ? { _meta: { [MCP_META.mayHaveRun]: mayHaveRun } } : {}),
    isError: true,
  };
}
