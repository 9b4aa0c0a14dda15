import type { Principal } from '../../schemas/auth';
import { AppError, errors, isAppError } from '../../schemas/errors';
import {
  ConnectorCallResultSchema,
  ConnectorsDescribeReplySchema,
  ConnectorsToolsReplySchema,
  CONNECTOR_TOOL_NAME,
  type ConnectorCallRelated,
  type ConnectorCallResult,
  type ConnectorToolEntry,
} from '../../schemas/messages/connectors';
import { CONNECTOR_SLUG_PATTERN } from '../../schemas/documents/connector';
import type { ActorSystemApi } from '../../src/kernel';

/**
 * Connector tools for the tool router (docs/connectors.md, "Calling connector tools"): `mcp.<slug>.<tool>`
 * resolves to the caller's account's connector `slug`. Everything goes through the account's
 * `connectors:<accountId>` actor, so it works from any process (the call itself runs on a worker).
 */

/** Options of one call. */
export interface ConnectorCallOptions {
  /** Aborting it cancels the call (the server gets `notifications/cancelled`). */
  signal?: AbortSignal;
  /** The caller's principal (must belong to the account). Default: an agent of the account. */
  auth?: Principal;
  /** Limit of the call, ms (default 30000, at most 120000). */
  timeoutMs?: number;
  /** Apps, workflows and skills the call is made for: checked against `permissionScope`, kept in `usedBy`. */
  related?: ConnectorCallRelated;
}

/** A connector tool as the router's hook wants it (structurally its `ExternalTool`). */
export interface ConnectorExternalTool {
  readonly source: 'external_mcp';
  readonly mutating: boolean;
  readonly maxDurationMs: number;
  run(
    input: Record<string, unknown>,
    ctx: { signal: AbortSignal; principal?: Principal; related?: ConnectorCallRelated },
  ): Promise<ConnectorCallResult>;
}

export interface ConnectorTools {
  /**
   * Calls `tool` of the account's connector `slug`. Resolves `{content, structuredContent?, isError}`
   * (a tool's own failure is `isError: true`); rejects with AppError: NOT_FOUND (no such connector
   * or tool, `details.reason: 'unknown_tool'`), CONFLICT (disabled), PERMISSION_DENIED (outside
   * `permissionScope`, or the endpoint refused by policy), VALIDATION_ERROR (the server refused the
   * arguments), UNAVAILABLE (server unreachable, cancelled), DEADLINE_EXCEEDED.
   */
  callConnectorTool(
    accountId: string,
    slug: string,
    tool: string,
    args: Record<string, unknown>,
    options?: ConnectorCallOptions,
  ): Promise<ConnectorCallResult>;
  /** The tools of the account's enabled connectors: `{name: 'mcp.<slug>.<tool>', description, inputSchema, readOnly}`. */
  listConnectorTools(accountId: string, auth?: Principal): Promise<ConnectorToolEntry[]>;
  /**
   * Longest a connector tool called through the router may take, in ms: the call timeout plus the
   * margin for queueing and a session start (the router's deadline for `mcp.*` calls).
   */
  readonly maxDurationMs: number;
  /** The router's listing hook: the tools of the agent's account's enabled connectors ([] without an account). */
  list(agent: { accountId?: string }, principal?: Principal): Promise<ConnectorToolEntry[]>;
  /**
   * The router's resolver hook: `mcp.<slug>.<tool>` for an agent of an account, or undefined when the
   * account has no such connector or tool.
   */
  resolve(
    name: string,
    agent: { accountId?: string },
    signal?: AbortSignal,
  ): Promise<ConnectorExternalTool | undefined>;
}

/** `mcp.<slug>.<tool>` → `{slug, tool}`; undefined for any other name. */
export function parseConnectorToolName(name: string): { slug: string; tool: string } | undefined {
  const match = /^mcp\.([^.]+)\.(.+)$/.exec(name);
  if (!match || !CONNECTOR_SLUG_PATTERN.test(match[1]) || !CONNECTOR_TOOL_NAME.test(match[2]))
    return undefined;
  return { slug: match[1], tool: match[2] };
}

const addressOf = (accountId: string) => `connectors:${accountId}`;

/**
 * The caller's principal, which must act for the account (another account's is refused: a bug in
 * the caller must not reach another tenant's connectors); none given = an agent of the account.
 */
function authFor(accountId: string, auth: Principal | undefined): Principal {
  if (!auth) return { subjectType: 'agent', accountId, via: 'bearer' };
  if (auth.accountId !== accountId) throw errors.forbidden('Not allowed for this account');
  return auth;
}

/** Queueing, a stdio start and the answer on top of the call's own limit. */
const REQUEST_MARGIN_MS = 15_000;

export function createConnectorTools(
  system: ActorSystemApi,
  limits: { callTimeoutMs: number; maxCallTimeoutMs: number } = {
    callTimeoutMs: 30_000,
    maxCallTimeoutMs: 120_000,
  },
): ConnectorTools {
  const callTimeout = (requested?: number) =>
    Math.min(requested ?? limits.callTimeoutMs, limits.maxCallTimeoutMs);
  // Calls through the router carry no timeout of their own: they get the default one.
  const maxDurationMs = callTimeout() + REQUEST_MARGIN_MS;

  function callConnectorTool(
    accountId: string,
    slug: string,
    tool: string,
    args: Record<string, unknown>,
    options: ConnectorCallOptions = {},
  ): Promise<ConnectorCallResult> {
    const { signal } = options;
    const timeoutMs = callTimeout(options.timeoutMs);
    return new Promise<ConnectorCallResult>((resolve, reject) => {
      if (signal?.aborted) {
        reject(
          isAppError(signal.reason) ? signal.reason : errors.unavailable('MCP connector call cancelled'),
        );
        return;
      }
      let settled = false;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        fn();
      };
      // A stream, not an ask: unsubscribing cancels the handler's signal wherever the call runs.
      const subscription = system
        .stream(
          addressOf(accountId),
          'connectors.call',
          { slug, tool, arguments: args, timeoutMs, related: options.related },
          { auth: authFor(accountId, options.auth), timeoutMs: timeoutMs + REQUEST_MARGIN_MS },
        )
        .subscribe({
          next: (value) => settle(() => resolve(ConnectorCallResultSchema.parse(value))),
          error: (err: unknown) => settle(() => reject(err)),
          complete: () =>
            settle(() => reject(new AppError('INTERNAL_ERROR', 'MCP connector call ended without a result'))),
        });
      function onAbort() {
        subscription.unsubscribe();
        settle(() =>
          reject(
            isAppError(signal?.reason)
              ? signal.reason
              : errors.unavailable('MCP connector call cancelled', { reason: 'cancelled' }),
          ),
        );
      }
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  async function listConnectorTools(accountId: string, auth?: Principal): Promise<ConnectorToolEntry[]> {
    const reply = await system.ask(
      addressOf(accountId),
      'connectors.tools',
      {},
      { auth: authFor(accountId, auth) },
    );
    return ConnectorsToolsReplySchema.parse(reply).tools;
  }

  async function resolve(
    name: string,
    agent: { accountId?: string },
  ): Promise<ConnectorExternalTool | undefined> {
    const parsed = parseConnectorToolName(name);
    const accountId = agent.accountId;
    if (!parsed || !accountId) return undefined;
    let described;
    try {
      described = ConnectorsDescribeReplySchema.parse(
        await system.ask(addressOf(accountId), 'connectors.describe', parsed, {
          auth: authFor(accountId, undefined),
        }),
      );
    } catch (err) {
      if (isAppError(err) && err.code === 'NOT_FOUND') return undefined;
      throw err;
    }
    return {
      source: 'external_mcp',
      mutating: !described.readOnly,
      maxDurationMs,
      run: (input, ctx) =>
        callConnectorTool(accountId, parsed.slug, parsed.tool, input, {
          signal: ctx.signal,
          auth: ctx.principal,
          related: ctx.related,
        }),
    };
  }

  const list = (agent: { accountId?: string }, principal?: Principal) =>
    agent.accountId ? listConnectorTools(agent.accountId, principal) : Promise.resolve([]);

  return { callConnectorTool, listConnectorTools, resolve, list, maxDurationMs };
}
