import { AppError, isAppError } from '../../schemas/errors';
import type { ConnectorTool } from '../../schemas/documents/connector';
import type { ConnectorCallResult } from '../../schemas/messages/connectors';
import type { Logger } from '../../src/logging/logger';
import { raceAbort, type Lookup } from '../tools/net/target-guard';
import { checkStdioCommand } from './connector-policy';
import { StdioBudget } from './connector-stdio-budget';
import { UpstreamSubscriptions, type UpstreamListener } from './connector-upstream';
import { mapConnectorError, McpSession, type ConnectorSpec } from './mcp-session';

/** Options of a `ConnectorPool`, with their defaults. */
export interface ConnectorPoolOptions {
  logger: Logger;
  /** HTTP endpoints on loopback (and plain http to them) allowed: `config.ALLOW_LOOPBACK_HTTP`. Default false. */
  allowLoopback?: boolean;
  /** `config.MCP_STDIO_ALLOWLIST`, checked again at every start of a stdio server. Default [] (none). */
  stdioAllowlist?: readonly (readonly string[])[];
  /** Name resolver for HTTP endpoints. Default the system's. */
  lookup?: Lookup;
  /** A session without calls for this long is closed, ms. Default 300000 (5 minutes). */
  idleMs?: number;
  /** Most stdio servers (child processes) open at once in this process. Default 16. */
  maxStdioSessions?: number;
  /** Connection and `initialize` limit, ms. Default 10000. */
  connectTimeoutMs?: number;
  /** `tools/list` limit (per page), ms. Default 10000. */
  listTimeoutMs?: number;
  /** Limit of a call without its own, ms. Default 30000. */
  callTimeoutMs?: number;
  /** Largest limit a call may ask for, ms. Default 120000. */
  maxCallTimeoutMs?: number;
  /** Largest result (JSON), bytes. Default 4 MB. */
  maxResultBytes?: number;
  /** Version announced in `initialize`. */
  clientVersion?: string;
}

/** What a discovery found. */
export interface Discovery {
  tools: ConnectorTool[];
  serverInfo?: { name: string; version: string };
}

/** An open session, for diagnostics (and the tests that check children are gone). */
export interface SessionInfo {
  connectorId: string;
  slug: string;
  transport: ConnectorSpec['transport'];
  pid: number | null;
  inFlight: number;
}

/**
 * The MCP client sessions of this worker process (docs/connectors.md, "Connection pool"): opened
 * lazily on first use, shared by every call to the same connector, reopened after a failure, closed
 * after `idleMs` without calls, at most `maxStdioSessions` child processes (the least recently used
 * idle one is closed to make room). Every call has a timeout and an AbortSignal; `abortAll` (the
 * panic button) cancels every call in flight. One pool per process (`startRuntime`), closed at stop.
 */
export class ConnectorPool {
  private readonly sessions = new Map<string, McpSession>();
  private readonly opening = new Map<string, Promise<McpSession>>();
  private readonly idleTimers = new Map<string, NodeJS.Timeout>();
  /** Bumped by `close(id)`: a session whose opening started before is closed when it arrives. */
  private readonly epochs = new Map<string, number>();
  /** Calls in flight, with the account they belong to. */
  private readonly calls = new Map<AbortController, string>();
  /** The stdio children's bound, fair between accounts (connector-stdio-budget.ts). */
  private readonly stdio: StdioBudget;
  private stopped = false;
  /** Upstream resources subscribed through this pool (renewed on a new session; connector-upstream.ts). */
  readonly subscriptions = new UpstreamSubscriptions();
  private upstream?: UpstreamListener;
  private readonly log: Logger;
  private readonly o: Required<Omit<ConnectorPoolOptions, 'lookup' | 'logger'>> & { lookup?: Lookup };

  constructor(options: ConnectorPoolOptions) {
    this.log = options.logger;
    this.o = {
      allowLoopback: options.allowLoopback ?? false,
      stdioAllowlist: options.stdioAllowlist ?? [],
      lookup: options.lookup,
      idleMs: options.idleMs ?? 300_000,
      maxStdioSessions: options.maxStdioSessions ?? 16,
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      listTimeoutMs: options.listTimeoutMs ?? 10_000,
      callTimeoutMs: options.callTimeoutMs ?? 30_000,
      maxCallTimeoutMs: options.maxCallTimeoutMs ?? 120_000,
      maxResultBytes: options.maxResultBytes ?? 4 * 1024 * 1024,
      clientVersion: options.clientVersion ?? '1.0.0',
    };
    this.stdio = new StdioBudget(this.o.maxStdioSessions);
  }

  /** Where the servers' unasked notifications go (sessions opened from now on). */
  onUpstream(listener: UpstreamListener): void {
    this.upstream = listener;
  }

  /** Limit of a call that asks for `requested` ms (or nothing). */
  callTimeout(requested?: number): number {
    return Math.min(requested ?? this.o.callTimeoutMs, this.o.maxCallTimeoutMs);
  }

  /**
   * `initialize` + `tools/list`. `fresh`: close any open session first, so the answer proves the
   * server is reachable now (refresh). The session stays open for the calls that follow.
   */
  async discover(spec: ConnectorSpec, options: { signal: AbortSignal; fresh?: boolean }): Promise<Discovery> {
    if (options.fresh) await this.close(spec.id);
    return this.withSession(spec, options.signal, async (session, signal) => ({
      tools: await session.listTools(signal, this.o.listTimeoutMs),
      serverInfo: session.serverInfo,
    }));
  }

  /** `tools/call` with a timeout (`callTimeout(timeoutMs)`), cancelled by `signal` or `abortAll`. */
  async call(
    spec: ConnectorSpec,
    tool: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; timeoutMs?: number },
  ): Promise<ConnectorCallResult> {
    const timeoutMs = this.callTimeout(options.timeoutMs);
    const result = await this.withSession(spec, options.signal, (session, signal) =>
      session.callTool(tool, args, signal, timeoutMs),
    );
    const size = Buffer.byteLength(JSON.stringify(result));
    if (size > this.o.maxResultBytes) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `MCP connector "${spec.slug}": result of ${tool} too large (${size} bytes, limit ${this.o.maxResultBytes})`,
        { reason: 'too_large', limitBytes: this.o.maxResultBytes },
      );
    }
    return result;
  }

  /** Closes the connector's session on this process (its child process ends). */
  async close(connectorId: string): Promise<void> {
    this.epochs.set(connectorId, (this.epochs.get(connectorId) ?? 0) + 1);
    this.clearIdle(connectorId);
    const session = this.sessions.get(connectorId);
    this.sessions.delete(connectorId);
    await session?.close();
  }

  /**
   * Cancels the calls in flight (the panic button): every call, or only `accountId`'s. The callers
   * get UNAVAILABLE `MCP connector call cancelled (<reason>)`. Returns how many were cancelled.
   */
  abortAll(reason = 'cancelled', filter: { accountId?: string } = {}): number {
    let count = 0;
    for (const [controller, accountId] of [...this.calls]) {
      if (filter.accountId !== undefined && filter.accountId !== accountId) continue;
      count++;
      controller.abort(
        new AppError(
          'UNAVAILABLE',
          `MCP connector call cancelled (${reason})`,
          { reason: 'cancelled' },
          { retryable: false },
        ),
      );
    }
    return count;
  }

  /** Stops the pool: cancels calls, closes every session; later uses are refused. */
  async closeAll(): Promise<void> {
    this.stopped = true;
    this.abortAll('shutting down');
    const pending = [...this.opening.values()].map((p) => p.catch(() => undefined));
    await Promise.all(pending);
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id)));
  }

  stats(): { sessions: number; stdio: number; inFlight: number } {
    const all = [...this.sessions.values()];
    return {
      sessions: all.length,
      stdio: all.filter((s) => s.spec.transport === 'stdio').length,
      inFlight: this.calls.size,
    };
  }

  list(): SessionInfo[] {
    return [...this.sessions.values()].map((s) => ({
      connectorId: s.spec.id,
      slug: s.spec.slug,
      transport: s.spec.transport,
      pid: s.pid,
      inFlight: s.inFlight,
    }));
  }

  /**
   * Runs `work` on the connector's session with a signal that fires on `signal` or `abortAll`. A
   * reused session that turns out to be dead before the request reached the server (child gone,
   * HTTP session expired, connection refused) is replaced once and the work retried.
   */
  async withSession<T>(
    spec: ConnectorSpec,
    outer: AbortSignal,
    work: (session: McpSession, signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    if (this.stopped)
      throw new AppError('UNAVAILABLE', 'This worker is shutting down', { reason: 'cancelled' });
    const controller = new AbortController();
    const onAbort = () => controller.abort(outer.reason);
    if (outer.aborted) onAbort();
    else outer.addEventListener('abort', onAbort, { once: true });
    this.calls.set(controller, spec.accountId);
    try {
      for (let attempt = 0; ; attempt++) {
        const reused = this.sessions.has(spec.id) && !this.sessions.get(spec.id)!.closed;
        const session = await this.acquire(spec, controller.signal);
        session.inFlight++;
        this.clearIdle(spec.id);
        try {
          return await work(session, controller.signal);
        } catch (err) {
          if (reused && attempt === 0 && !controller.signal.aborted && neverReachedServer(err)) {
            await this.drop(session);
            continue;
          }
          if (isAppError(err) && (err.details.reason === 'transport' || err.details.reason === 'connect')) {
            // The session is broken: the next use opens a new one.
            await this.drop(session);
          }
          throw err;
        } finally {
          session.inFlight--;
          session.lastUsed = Date.now();
          this.scheduleIdle(session);
        }
      }
    } finally {
      outer.removeEventListener('abort', onAbort);
      this.calls.delete(controller);
    }
  }

  private async acquire(spec: ConnectorSpec, signal: AbortSignal): Promise<McpSession> {
    const current = this.sessions.get(spec.id);
    if (current && !current.closed) return current;
    if (current) this.sessions.delete(spec.id);
    let opening = this.opening.get(spec.id);
    if (!opening) {
      // Shared by every caller waiting for it: bounded by its own timeout, not by one caller's signal.
      opening = this.open(spec, AbortSignal.timeout(this.o.connectTimeoutMs)).finally(() =>
        this.opening.delete(spec.id),
      );
      this.opening.set(spec.id, opening);
    }
    return raceAbort(opening, signal);
  }

  private async open(spec: ConnectorSpec, signal: AbortSignal): Promise<McpSession> {
    const epoch = this.epochs.get(spec.id) ?? 0;
    if (spec.transport === 'stdio') {
      try {
        checkStdioCommand(this.o.stdioAllowlist, spec.command ?? '', spec.args);
      } catch (err) {
        throw mapConnectorError(err, { slug: spec.slug, stage: 'connect', timeoutMs: 0 });
      }
      await this.stdio.makeRoom(spec.accountId, [...this.sessions.values()], (id) => this.close(id));
    }
    const stdio = spec.transport === 'stdio';
    if (stdio) this.stdio.countOpening(spec.accountId, +1);
    const session = await McpSession.open(
      spec,
      {
        allowLoopback: this.o.allowLoopback,
        lookup: this.o.lookup,
        connectTimeoutMs: this.o.connectTimeoutMs,
        clientVersion: this.o.clientVersion,
        logger: this.log,
        onUpstream: this.upstream,
      },
      signal,
    ).finally(() => {
      if (stdio) this.stdio.countOpening(spec.accountId, -1);
    });
    if (this.subscriptions.has(spec.id)) {
      await this.subscriptions.renew(session.client, spec, this.o.listTimeoutMs, this.log);
    }
    if (this.stopped || (this.epochs.get(spec.id) ?? 0) !== epoch) {
      await session.close();
      throw new AppError('UNAVAILABLE', `MCP connector "${spec.slug}" was closed`, { reason: 'cancelled' });
    }
    session.onClose(() => {
      if (this.sessions.get(spec.id) === session) {
        this.sessions.delete(spec.id);
        this.clearIdle(spec.id);
      }
    });
    this.sessions.set(spec.id, session);
    this.log.debug(
      { connector: spec.slug, transport: spec.transport, pid: session.pid },
      'mcp session opened',
    );
    return session;
  }

  private async drop(session: McpSession): Promise<void> {
    if (this.sessions.get(session.spec.id) === session) {
      this.sessions.delete(session.spec.id);
      this.clearIdle(session.spec.id);
    }
    await session.close();
  }

  private scheduleIdle(session: McpSession): void {
    if (session.inFlight > 0 || session.closed || this.sessions.get(session.spec.id) !== session) return;
    // Its upstream subscriptions would end with it.
    if (this.subscriptions.has(session.spec.id)) return;
    this.clearIdle(session.spec.id);
    const timer = setTimeout(() => {
      this.idleTimers.delete(session.spec.id);
      if (session.inFlight === 0 && this.sessions.get(session.spec.id) === session) {
        this.log.debug({ connector: session.spec.slug }, 'mcp session idle: closed');
        void this.drop(session);
      }
    }, this.o.idleMs);
    timer.unref();
    this.idleTimers.set(session.spec.id, timer);
  }

  private clearIdle(connectorId: string): void {
    const timer = this.idleTimers.get(connectorId);
    if (timer) clearTimeout(timer);
    this.idleTimers.delete(connectorId);
  }
}

/** Failures of a reused session that prove the request never reached a live server. */
function neverReachedServer(err: unknown): boolean {
  if (!isAppError(err)) return false;
  const message = err.message;
  return err.details.reason === 'transport' && /session is closed|connection refused|HTTP 404/.test(message);
}
