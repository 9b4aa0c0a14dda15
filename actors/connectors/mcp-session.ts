import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ConnectorTool, ConnectorTransport } from '../../schemas/documents/connector';
import { AppError, isAppError } from '../../schemas/errors';
import type { ConnectorCallResult } from '../../schemas/messages/connectors';
import type { Logger } from '../../src/logging/logger';
import type { Lookup } from '../tools/net/target-guard';
import { listenUpstream, type UpstreamListener } from './connector-upstream';
import { MAX_SCHEMAS_BYTES, normalizeResult, storedTool } from './mcp-tool-shapes';

export { normalizeResult } from './mcp-tool-shapes';
import { openPinnedFetch, type PinnedFetch } from './mcp-http-fetch';

/** One connector's transport settings, secrets in clear (built by the actor, never stored so). */
export interface ConnectorSpec {
  /** The document's `_id`: the key of its session in a pool. */
  readonly id: string;
  /** The owner account (panic per account). */
  readonly accountId: string;
  readonly slug: string;
  readonly transport: ConnectorTransport;
  readonly command?: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly url?: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** How sessions are opened (from the pool's options). */
export interface SessionOptions {
  readonly allowLoopback: boolean;
  readonly lookup?: Lookup;
  readonly connectTimeoutMs: number;
  readonly clientVersion: string;
  readonly logger: Logger;
  /** The server's unasked notifications (catalog changes, resource updates): connector-upstream.ts. */
  readonly onUpstream?: UpstreamListener;
}

/** Why a connector operation failed, in `details.reason` of the AppError. */
export type ConnectorFailure =
  'connect' | 'transport' | 'timeout' | 'server' | 'cancelled' | 'policy' | 'too_large';

/** Failures that say the server cannot be reached (they turn `healthStatus` to `error`). */
export function isConnectionFailure(err: unknown): boolean {
  const reason = isAppError(err) ? err.details.reason : undefined;
  return reason === 'connect' || reason === 'transport';
}

/** Most tools kept from one server, and pages of `tools/list` read. */
export const MAX_TOOLS = 500;
const MAX_TOOL_PAGES = 20;
/** Bytes of a stdio server's stderr kept for the log line of a failed start. */
const STDERR_TAIL = 2048;

function causeCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

function fail(message: string, reason: ConnectorFailure, code: AppError['code'] = 'UNAVAILABLE'): AppError {
  return new AppError(code, message, { reason }, { retryable: false });
}

/** Maps what the SDK, the child process or the network threw to an AppError with a readable message. */
export function mapConnectorError(
  err: unknown,
  context: { slug: string; stage: 'connect' | 'tools/list' | 'call'; timeoutMs: number },
): AppError {
  const who = `MCP connector "${context.slug}"`;
  if (isAppError(err)) {
    if (err.code === 'PERMISSION_DENIED' && err.details.reason !== 'policy') {
      return new AppError(err.code, `${who}: ${err.message}`, { ...err.details, reason: 'policy' });
    }
    return err;
  }
  const connecting = context.stage === 'connect';
  const reason: ConnectorFailure = connecting ? 'connect' : 'transport';
  if (err instanceof McpError) {
    if (err.code === ErrorCode.RequestTimeout) {
      return fail(
        `${who}: no answer to ${connecting ? 'initialize' : context.stage} within ${context.timeoutMs} ms`,
        'timeout',
        'DEADLINE_EXCEEDED',
      );
    }
    if (err.code === ErrorCode.ConnectionClosed) {
      return fail(
        `${who}: the server closed the connection${connecting ? ' before initializing' : ''}`,
        reason,
      );
    }
    if (err.code === ErrorCode.InvalidParams) {
      return new AppError('VALIDATION_ERROR', `${who}: ${err.message}`, { reason: 'server' });
    }
    return fail(`${who}: ${err.message}`, connecting ? 'connect' : 'server');
  }
  if (err instanceof StreamableHTTPError) {
    const status = err.code === undefined ? '' : ` HTTP ${err.code}`;
    return fail(`${who}: the server answered${status}: ${err.message.slice(0, 300)}`, reason);
  }
  const code = causeCode(err);
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof Error && err.name === 'TimeoutError') {
    return fail(
      `${who}: no answer within ${context.timeoutMs} ms`,
      connecting ? 'connect' : 'timeout',
      'DEADLINE_EXCEEDED',
    );
  }
  if (code === 'ENOENT') return fail(`${who}: could not start the command (not found)`, 'connect');
  if (code === 'EACCES') return fail(`${who}: could not start the command (not executable)`, 'connect');
  if (code === 'ECONNREFUSED') return fail(`${who}: connection refused by the server`, reason);
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET')
    return fail(`${who}: connection reset by the server`, reason);
  if (
    code?.startsWith('UND_ERR_CONNECT') ||
    code === 'ETIMEDOUT' ||
    code === 'EHOSTUNREACH' ||
    code === 'ENETUNREACH'
  ) {
    return fail(`${who}: could not connect to the server (${code})`, reason);
  }
  if (/not connected/i.test(message)) return fail(`${who}: the session is closed`, 'transport');
  return fail(`${who}: ${message.slice(0, 300) || 'connection failed'}`, reason);
}

/**
 * One open MCP client session to a connector's server (a child process for stdio, an HTTP session
 * otherwise). Opened by `McpSession.open` (initialize done); `close` ends it (and the child).
 */
export class McpSession {
  /** Calls in flight. */
  inFlight = 0;
  lastUsed = Date.now();
  private closedFlag = false;
  private closing?: Promise<void>;
  private readonly closeListeners: Array<() => void> = [];

  private constructor(
    readonly spec: ConnectorSpec,
    /** The SDK client: connector-forward.ts sends the federated requests through it. */
    readonly client: Client,
    private readonly transport: StdioClientTransport | StreamableHTTPClientTransport,
    private readonly pinned: PinnedFetch | undefined,
  ) {
    client.onclose = () => this.markClosed();
  }

  /** Opens a session: spawn or vet + connect, then the MCP handshake. Rejects with a mapped AppError. */
  static async open(spec: ConnectorSpec, options: SessionOptions, signal: AbortSignal): Promise<McpSession> {
    const log = options.logger.child({ connector: spec.slug, transport: spec.transport });
    const client = new Client(
      { name: 'agent-runtime-service', version: options.clientVersion },
      { capabilities: {} },
    );
    listenUpstream(client, spec, options.onUpstream);
    let pinned: PinnedFetch | undefined;
    let transport: StdioClientTransport | StreamableHTTPClientTransport;
    let stderrTail = '';
    try {
      if (spec.transport === 'stdio') {
        transport = new StdioClientTransport({
          command: spec.command ?? '',
          args: [...spec.args],
          // The SDK adds only HOME, LOGNAME, PATH, SHELL, TERM and USER: the service's own secrets stay out.
          env: { ...spec.env },
          stderr: 'pipe',
        });
        // Always drained (a full pipe would stall the server); the tail explains a failed start in the log.
        transport.stderr?.on('data', (chunk: Buffer) => {
          stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL);
        });
      } else {
        pinned = await openPinnedFetch(new URL(spec.url ?? ''), {
          allowLoopback: options.allowLoopback,
          lookup: options.lookup,
          connectTimeoutMs: options.connectTimeoutMs,
          signal,
        });
        transport = new StreamableHTTPClientTransport(new URL(spec.url ?? ''), {
          fetch: pinned.fetch,
          requestInit: { headers: { ...spec.headers } },
          reconnectionOptions: {
            initialReconnectionDelay: 1000,
            maxReconnectionDelay: 10_000,
            reconnectionDelayGrowFactor: 2,
            maxRetries: 2,
          },
        });
      }
      // Transport-level noise (a refused SSE stream, a parse error) is logged; failures of requests reject them.
      transport.onerror = (err: Error) => log.debug({ err: err.message }, 'mcp transport error');
      await client.connect(transport, { signal, timeout: options.connectTimeoutMs });
    } catch (err) {
      const mapped = mapConnectorError(signal.aborted && isAppError(signal.reason) ? signal.reason : err, {
        slug: spec.slug,
        stage: 'connect',
        timeoutMs: options.connectTimeoutMs,
      });
      await client.close().catch(() => undefined);
      await pinned?.close();
      log.warn(
        { err: mapped.message, ...(stderrTail ? { stderr: stderrTail.slice(-500) } : {}) },
        'mcp connector did not start',
      );
      throw mapped;
    }
    return new McpSession(spec, client, transport, pinned);
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  /** The child's process id (stdio), for diagnostics and tests. */
  get pid(): number | null {
    return this.transport instanceof StdioClientTransport ? this.transport.pid : null;
  }

  get serverInfo(): { name: string; version: string } | undefined {
    const info = this.client.getServerVersion();
    return info
      ? { name: String(info.name).slice(0, 200), version: String(info.version).slice(0, 100) }
      : undefined;
  }

  onClose(listener: () => void): void {
    if (this.closedFlag) listener();
    else this.closeListeners.push(listener);
  }

  /** `tools/list`, every page (bounded). */
  async listTools(signal: AbortSignal, timeoutMs: number): Promise<ConnectorTool[]> {
    const tools: ConnectorTool[] = [];
    const budget = { bytes: MAX_SCHEMAS_BYTES };
    let cursor: string | undefined;
    try {
      for (let page = 0; page < MAX_TOOL_PAGES && tools.length < MAX_TOOLS; page++) {
        const result = await this.client.listTools(cursor ? { cursor } : undefined, {
          signal,
          timeout: timeoutMs,
        });
        for (const tool of result.tools) {
          if (tools.length < MAX_TOOLS && typeof tool.name === 'string' && tool.name.length <= 128)
            tools.push(storedTool(tool, budget));
        }
        cursor = result.nextCursor;
        if (!cursor) break;
      }
    } catch (err) {
      throw mapConnectorError(signal.aborted && isAppError(signal.reason) ? signal.reason : err, {
        slug: this.spec.slug,
        stage: 'tools/list',
        timeoutMs,
      });
    }
    return tools;
  }

  /** `tools/call`; a tool's own failure is a result with `isError: true`, not a rejection. */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    timeoutMs: number,
  ): Promise<ConnectorCallResult> {
    try {
      const raw = await this.client.callTool({ name, arguments: args }, undefined, {
        signal,
        timeout: timeoutMs,
      });
      return normalizeResult(raw as Record<string, unknown>);
    } catch (err) {
      throw mapConnectorError(signal.aborted && isAppError(signal.reason) ? signal.reason : err, {
        slug: this.spec.slug,
        stage: 'call',
        timeoutMs,
      });
    }
  }

  /** Ends the session: HTTP sessions are terminated (best effort), stdio children stopped (TERM, then KILL). */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.markClosed();
      if (this.transport instanceof StreamableHTTPClientTransport && this.transport.sessionId) {
        await Promise.race([
          this.transport.terminateSession().catch(() => undefined),
          new Promise((resolve) => setTimeout(resolve, 1000).unref()),
        ]);
      }
      await this.client.close().catch(() => undefined);
      await this.pinned?.close();
    })();
    return this.closing;
  }

  private markClosed(): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}
