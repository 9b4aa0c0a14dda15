import { AppError } from '../../schemas/errors';

/** Whose work a call is: the calling agent's account and workspace (either may be absent). */
export interface WorkScope {
  readonly accountId?: string;
  readonly workspaceId?: string;
}

/** Which calls `abortAll` stops: every field given must match the call's scope; `{}` = all. */
export type WorkAbortFilter = WorkScope;

/** One call registered with `track`: its signal and its release. */
export interface TrackedWork {
  /** Fires on the call's own signal (with its reason) or on a matching `abortAll`. */
  readonly signal: AbortSignal;
  /** The call is over: forget it. Idempotent. */
  release(): void;
}

/** What one `abortAll` stopped. */
export interface WorkAbortReport {
  /** Tool calls in flight whose scope matched (their signals were aborted). */
  calls: number;
  /** What each process-wide service then cancelled on its own (work begun outside a tracked call). */
  sandbox: number;
  egress: number;
  connectors: number;
}

/** Process-wide services that can cancel their work in flight (the panic button). */
export interface WorkAbortSources {
  /** Sandbox (`proc_execute`): cancels everything; used only by an unfiltered abort. */
  sandbox?: { abortAll(reason?: string): number };
  /** HTTP egress (`net_*`): cancels everything; used only by an unfiltered abort. */
  egress?: { abortAll(reason?: string): number };
  /** MCP connector pool: cancels everything, or one account's calls. */
  connectors?: { abortAll(reason?: string, filter?: { accountId?: string }): number };
}

/**
 * The process's registry of work in flight, for the panic button (`services.work`). Every tool call
 * the router runs is tracked with its scope (`track`); `abortAll(reason, filter)` aborts the signals
 * of the matching calls (the sandbox, the egress, the private databases and the connector pool
 * stop that call's work through its signal), and an unfiltered abort also asks the process-wide
 * services to cancel whatever else they run. The panic route calls it on every node (broadcast).
 */
export interface WorkAborter {
  /** Registers one call of `scope`; release it when the call ends. */
  track(scope: WorkScope, signal: AbortSignal): TrackedWork;
  /** Cancels the calls in flight that match `filter` (all when omitted or empty). */
  abortAll(reason: string, filter?: WorkAbortFilter): WorkAbortReport;
  /** Tracked calls in flight. */
  inFlight(): number;
}

interface Entry {
  readonly scope: WorkScope;
  readonly controller: AbortController;
}

/** The reason a tracked call's signal carries after `abortAll`. */
export function cancelledError(reason: string): AppError {
  return new AppError('UNAVAILABLE', `Cancelled (${reason})`, { reason: 'cancelled' }, { retryable: false });
}

const matches = (scope: WorkScope, filter: WorkAbortFilter): boolean =>
  (filter.accountId === undefined || filter.accountId === scope.accountId) &&
  (filter.workspaceId === undefined || filter.workspaceId === scope.workspaceId);

export function createWorkAborter(sources: WorkAbortSources = {}): WorkAborter {
  const entries = new Set<Entry>();

  function track(scope: WorkScope, signal: AbortSignal): TrackedWork {
    const controller = new AbortController();
    const entry: Entry = { scope, controller };
    if (signal.aborted) {
      controller.abort(signal.reason);
      return { signal: controller.signal, release: () => undefined };
    }
    const follow = () => controller.abort(signal.reason);
    signal.addEventListener('abort', follow, { once: true });
    entries.add(entry);
    let released = false;
    return {
      signal: controller.signal,
      release: () => {
        if (released) return;
        released = true;
        entries.delete(entry);
        signal.removeEventListener('abort', follow);
      },
    };
  }

  function abortAll(reason: string, filter: WorkAbortFilter = {}): WorkAbortReport {
    const all = filter.accountId === undefined && filter.workspaceId === undefined;
    let calls = 0;
    for (const entry of [...entries]) {
      if (!all && !matches(entry.scope, filter)) continue;
      entries.delete(entry);
      if (entry.controller.signal.aborted) continue;
      calls += 1;
      entry.controller.abort(cancelledError(reason));
    }
    const report: WorkAbortReport = { calls, sandbox: 0, egress: 0, connectors: 0 };
    if (all) {
      report.sandbox = sources.sandbox?.abortAll(reason) ?? 0;
      report.egress = sources.egress?.abortAll(reason) ?? 0;
      report.connectors = sources.connectors?.abortAll(reason) ?? 0;
    } else if (filter.workspaceId === undefined && sources.connectors) {
      // The pool knows each call's account (not its workspace).
      report.connectors = sources.connectors.abortAll(reason, { accountId: filter.accountId });
    }
    return report;
  }

  return { track, abortAll, inFlight: () => entries.size };
}
