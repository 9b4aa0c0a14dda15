import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  CompleteResultSchema,
  EmptyResultSchema,
  GetPromptResultSchema,
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ReadResourceResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../../schemas/errors';
import type { ConnectorForwardedMethod } from '../../schemas/messages/connectors';
import type { ConnectorPool } from './connector-pool';
import { mapConnectorError, type ConnectorSpec } from './mcp-session';

/**
 * The federated requests of a connector (docs/connectors.md, "Resources, prompts and
 * completions"): `resources/*`, `prompts/*` and `completion/complete` sent as they are to the
 * upstream server on the pool's session (the same session, limits, cancellation and panic as a
 * tool call), its answer checked against the SDK's schema for that method and bounded in size.
 */

const RESULT_SCHEMAS = {
  'resources/list': ListResourcesResultSchema,
  'resources/templates/list': ListResourceTemplatesResultSchema,
  'resources/read': ReadResourceResultSchema,
  'prompts/list': ListPromptsResultSchema,
  'prompts/get': GetPromptResultSchema,
  'completion/complete': CompleteResultSchema,
  'resources/subscribe': EmptyResultSchema,
} as const;

/** As for a tool's result (the pool's default). */
const MAX_RESULT_BYTES = 4 * 1024 * 1024;

/** Upstream JSON-RPC errors that say "no such thing" rather than "the server is broken". */
function upstreamError(err: unknown, slug: string, method: string, timeoutMs: number): AppError {
  const who = `MCP connector "${slug}"`;
  if (err instanceof McpError) {
    if (err.code === ErrorCode.MethodNotFound) {
      return new AppError('NOT_FOUND', `${who} does not offer ${method}`, { reason: 'unsupported' });
    }
    // -32002 is MCP's "Resource not found"; the SDK's servers say -32602 for an unknown URI.
    if (err.code === -32002 || (method === 'resources/read' && err.code === ErrorCode.InvalidParams)) {
      return new AppError('NOT_FOUND', `${who}: ${err.message.slice(0, 300)}`, { reason: 'upstream' });
    }
  }
  return mapConnectorError(err, { slug, stage: 'call', timeoutMs });
}

/** Sends `method` with `params` to the connector and resolves the upstream result (parsed). */
export async function forwardOnPool(
  pool: ConnectorPool,
  spec: ConnectorSpec,
  method: ConnectorForwardedMethod,
  params: Record<string, unknown>,
  options: { signal: AbortSignal; timeoutMs: number },
): Promise<Record<string, unknown>> {
  const { timeoutMs } = options;
  const result = await pool.withSession(spec, options.signal, async (session, signal) => {
    try {
      return await session.client.request({ method, params } as never, RESULT_SCHEMAS[method], {
        signal,
        timeout: timeoutMs,
      });
    } catch (err) {
      throw upstreamError(
        signal.aborted && signal.reason ? signal.reason : err,
        spec.slug,
        method,
        timeoutMs,
      );
    }
  });
  // Kept by the pool: renewed on a new session, its updates relayed (connector-upstream.ts).
  if (method === 'resources/subscribe' && typeof params.uri === 'string') {
    pool.subscriptions.add(spec.id, params.uri);
  }
  const size = Buffer.byteLength(JSON.stringify(result));
  if (size > MAX_RESULT_BYTES) {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `MCP connector "${spec.slug}": answer to ${method} too large (${size} bytes, limit ${MAX_RESULT_BYTES})`,
      { reason: 'too_large', limitBytes: MAX_RESULT_BYTES },
    );
  }
  return result as Record<string, unknown>;
}
