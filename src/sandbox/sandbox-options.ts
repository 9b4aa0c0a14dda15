import type { ProcExecuteRequest, ProcExecuteResult } from '../../schemas/tools/proc-execute';
import type { Logger } from '../logging/logger';
import type { HostCalls } from './host-channel';

export const MB = 1024 * 1024;

/** Options of `createSandbox`. Limits apply to every call of the pool. */
export interface SandboxOptions {
  /** Worker threads; 0 = one per core. Usually `config.SANDBOX_THREADS`. */
  threads: number;
  /** Calls that may wait for a free worker; past it `execute` fails with UNAVAILABLE. Default 1000. */
  maxQueue?: number;
  /**
   * Threads one owner's calls (`ExecuteOptions.owner`: an account) may hold at once; the others
   * stay free for other owners' calls. Default `threads - 1` (at least 1); more than `threads` is
   * taken as `threads` (no thread kept for others).
   */
  threadsPerOwner?: number;
  /** Calls of one owner that may wait, within `maxQueue`. Default half of `maxQueue`, rounded up. */
  maxQueuePerOwner?: number;
  logger: Logger;
  /** Hard cap of a worker's QuickJS memory (WebAssembly linear memory), in bytes. Default 64 MB, min 32 MB. */
  memoryLimitBytes?: number;
  /** QuickJS stack budget in bytes. Default 512 KB (about 3,000 nested calls). */
  maxStackSizeBytes?: number;
  /** Cap of stdout and of stderr, each, in UTF-8 bytes. Default 64 KB. */
  outputLimitBytes?: number;
  /** Cap of the JSON text of `result`, in bytes. Default 64 KB. */
  resultLimitBytes?: number;
  /**
   * How long a worker may overrun a call's timeout (or a cancel) before it is terminated and
   * replaced. The interrupt handler normally stops a script within milliseconds. Default 1500 ms.
   */
  killGraceMs?: number;
  /**
   * Calls handed to one worker at once: 1 (default), or 2 so that a worker holds the next call
   * while it runs one and starts it the moment the first ends, without a round trip through this
   * thread (which, on a worker node, is busy with the transport). 2 gives one thread more calls per
   * second when the main thread is the bottleneck of the hand-over; when the cores are already
   * saturated (several sandbox threads on few cores) it only takes CPU from everything else.
   */
  tasksPerWorker?: 1 | 2;
}

/** Options of one call. */
export interface ExecuteOptions {
  /** Aborting it cancels the call, queued or running (outcome 'cancelled'). */
  signal?: AbortSignal;
  /**
   * Whose call it is: the account (or the agent without one) it runs for. Owners share the threads
   * fairly (docs/sandbox.md, "Waiting calls"); calls without an owner are all one owner's.
   */
  owner?: string;
  /**
   * Host calls offered to the script: the global `platform` with `platform.call(name, input)`
   * (docs/sandbox.md, "Host calls"). Absent: the script has no `platform` (as for proc_execute).
   */
  host?: HostCalls;
}

export type SandboxResult = ProcExecuteResult;

/** Runs untrusted JavaScript in QuickJS inside a Piscina pool. See docs/sandbox.md. */
export interface Sandbox {
  /**
   * Validates and runs one request. Resolves with the run's result whatever the script did; rejects
   * with an AppError: VALIDATION_ERROR (bad request, unknown language), UNAVAILABLE (queue full,
   * sandbox closed), INTERNAL_ERROR (the sandbox itself failed).
   */
  execute(request: ProcExecuteRequest, options?: ExecuteOptions): Promise<SandboxResult>;
  /** Cancels every queued and running call (the panic button). Returns how many were cancelled. */
  abortAll(reason?: string): number;
  /** Calls in flight (queued or running) and worker threads. */
  stats(): { threads: number; inFlight: number; queued: number };
  /** Cancels what is in flight, then stops the workers. Later calls fail with UNAVAILABLE. */
  close(): Promise<void>;
}

/** Defaults of `SandboxOptions`. */
export const SANDBOX_DEFAULTS: Readonly<
  Required<Omit<SandboxOptions, 'threads' | 'logger' | 'threadsPerOwner' | 'maxQueuePerOwner'>>
> = Object.freeze({
  maxQueue: 1000,
  memoryLimitBytes: 64 * MB,
  maxStackSizeBytes: 512 * 1024,
  outputLimitBytes: 64 * 1024,
  resultLimitBytes: 64 * 1024,
  killGraceMs: 1500,
  tasksPerWorker: 1,
});

/** `threadsPerOwner` and `maxQueuePerOwner`, checked, with their defaults. */
export function ownerLimits(
  options: SandboxOptions,
  threads: number,
  maxQueue: number,
): { threadsPerOwner: number; maxQueuePerOwner: number } {
  const wanted = options.threadsPerOwner ?? threads - 1;
  if (!Number.isInteger(wanted) || (options.threadsPerOwner !== undefined && wanted < 1)) {
    throw new TypeError('createSandbox: threadsPerOwner must be an integer >= 1');
  }
  // At most every thread (`threads` may be one per core, unknown to whoever configured the share).
  const threadsPerOwner = Math.min(threads, Math.max(1, wanted));
  const maxQueuePerOwner = options.maxQueuePerOwner ?? Math.ceil(maxQueue / 2);
  if (!Number.isInteger(maxQueuePerOwner) || maxQueuePerOwner < 0) {
    throw new TypeError('createSandbox: maxQueuePerOwner must be an integer >= 0');
  }
  return { threadsPerOwner, maxQueuePerOwner };
}

export function withoutUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export function checkLimits(l: typeof SANDBOX_DEFAULTS): void {
  const bad = (name: string, min: number) => {
    throw new TypeError(`createSandbox: ${name} must be an integer >= ${min}`);
  };
  const int = (v: number, name: string, min: number) => (Number.isInteger(v) && v >= min) || bad(name, min);
  int(l.maxQueue, 'maxQueue', 0);
  int(l.memoryLimitBytes, 'memoryLimitBytes', 32 * MB);
  int(l.maxStackSizeBytes, 'maxStackSizeBytes', 64 * 1024);
  int(l.outputLimitBytes, 'outputLimitBytes', 1024);
  int(l.resultLimitBytes, 'resultLimitBytes', 1024);
  int(l.killGraceMs, 'killGraceMs', 100);
  if (l.tasksPerWorker !== 1 && l.tasksPerWorker !== 2) bad('tasksPerWorker (at most 2)', 1);
  // Deeper than this and the engine's recursion could outrun the worker's native stack.
  if (l.maxStackSizeBytes > 1024 * 1024) bad('maxStackSizeBytes (at most 1 MB)', 64 * 1024);
}
