import os from 'node:os';
import { Piscina } from 'piscina';
import { AppError, errors } from '../../schemas/errors';
import {
  OUTCOME_EXIT_CODES,
  PROC_EXECUTE_LIMITS,
  ProcExecuteInputSchema,
  type ProcExecuteRequest,
  type ProcExecuteResult,
  type SandboxOutcome,
} from '../../schemas/tools/proc-execute';
import type { Logger } from '../logging/logger';
import { FairHandOver } from './fair-hand-over';
import { HostChannel, type HostCalls } from './host-channel';
import { SandboxCall, type CallEnd } from './sandbox-call';
import { readTaskReply } from './task-reply';
import { resolveTaskFile } from './task-file';

const MB = 1024 * 1024;

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

/**
 * Worker threads get a large native stack: QuickJS's stack check measures only its own (emscripten)
 * stack, and deep recursion in the engine must hit that check before the thread's real stack ends.
 * Measured: the parser needs about 16x the QuickJS budget; 32 MB is 64x the default 512 KB.
 */
const WORKER_STACK_MB = 32;
/** The worker's own JS heap (replies, buffers); QuickJS memory is outside it. */
const WORKER_HEAP_MB = 128;

export function createSandbox(options: SandboxOptions): Sandbox {
  const limits = { ...SANDBOX_DEFAULTS, ...withoutUndefined(options) };
  checkLimits(limits);
  if (!Number.isInteger(options.threads) || options.threads < 0) {
    throw new TypeError('createSandbox: threads must be an integer >= 0');
  }
  const threads = options.threads > 0 ? options.threads : os.availableParallelism();
  const { threadsPerOwner, maxQueuePerOwner } = ownerLimits(options, threads, limits.maxQueue);
  const log = options.logger.child({ component: 'sandbox' });
  const pool = new Piscina({
    filename: resolveTaskFile(),
    minThreads: threads,
    maxThreads: threads,
    // With 2, a worker holds the next call while it runs one. Calls still run one at a time per
    // worker (a run is synchronous); a call waiting in a worker is `queued` for its timeout and
    // its cancellation, and is submitted again if that worker is killed (sandbox-call.ts).
    concurrentTasksPerWorker: limits.tasksPerWorker,
    // Piscina does not apply maxQueue to tasks that carry an AbortSignal (all of ours): the
    // sandbox counts its calls itself, below.
    closeTimeout: limits.killGraceMs + 1000,
    resourceLimits: { stackSizeMb: WORKER_STACK_MB, maxOldGenerationSizeMb: WORKER_HEAP_MB },
    workerData: {
      memoryLimitBytes: limits.memoryLimitBytes,
      maxStackSizeBytes: limits.maxStackSizeBytes,
      outputLimitBytes: limits.outputLimitBytes,
      resultLimitBytes: limits.resultLimitBytes,
      maxResultDepth: PROC_EXECUTE_LIMITS.maxResultDepth,
    },
  });
  pool.on('error', (err: unknown) => log.error({ err }, 'sandbox pool error'));
  // Calls wait here, not in Piscina's queue, shared fairly between owners (see FairHandOver). The
  // share counts calls handed over: with tasksPerWorker 2, Piscina gives every worker one call before
  // any gets a second, so `threadsPerOwner` calls of one owner still leave a worker free. An owner
  // allowed every thread may fill every place.
  const capacity = threads * limits.tasksPerWorker;
  const share = threadsPerOwner < threads ? threadsPerOwner : capacity;
  const handOver = new FairHandOver(pool, capacity, share);
  const inFlight = new Set<SandboxCall>();
  /** Calls in flight (queued or running) per owner. */
  const perOwner = new Map<string, number>();
  let closed = false;

  async function execute(
    request: ProcExecuteRequest,
    { signal, owner = '', host }: ExecuteOptions = {},
  ): Promise<SandboxResult> {
    if (closed) throw errors.unavailable('The sandbox is closed');
    const parsed = ProcExecuteInputSchema.safeParse(request);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
      const summary = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
      throw errors.validation(`Invalid proc_execute input: ${summary}`, { issues });
    }
    if (inFlight.size >= threads + limits.maxQueue) {
      throw errors.unavailable('The sandbox is busy; retry later');
    }
    const ownCalls = perOwner.get(owner) ?? 0;
    if (ownCalls >= threadsPerOwner + maxQueuePerOwner) {
      throw errors.unavailable(
        `The sandbox is busy with ${ownCalls} calls of this account; retry when some have ended`,
      );
    }
    const input = parsed.data;
    const timeoutMs = input.timeout ?? PROC_EXECUTE_LIMITS.defaultTimeoutMs;
    if (signal?.aborted) return stopped('cancelled', `execution cancelled (${reasonOf(signal.reason)})`);

    const call = new SandboxCall(
      timeoutMs,
      limits.killGraceMs,
      (outcome) => log.warn({ outcome, timeoutMs }, 'sandbox worker did not stop in time; terminated'),
      owner,
    );
    const onAbort = () => call.cancel(reasonOf(signal?.reason));
    const channel = host ? new HostChannel(host, () => call.hostAnswered()) : undefined;
    inFlight.add(call);
    perOwner.set(owner, ownCalls + 1);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const end = await call.run(
        handOver,
        { code: input.code, stdin: input.stdin ?? '', args: input.args ?? [], timeoutMs },
        channel ? () => channel.open() : undefined,
      );
      return toResult(end, call, timeoutMs);
    } catch (err) {
      return failed(err);
    } finally {
      channel?.close();
      signal?.removeEventListener('abort', onAbort);
      inFlight.delete(call);
      const left = (perOwner.get(owner) ?? 1) - 1;
      if (left > 0) perOwner.set(owner, left);
      else perOwner.delete(owner);
    }
  }

  function toResult(end: CallEnd, call: SandboxCall, timeoutMs: number): SandboxResult {
    const cancelNote = `Error: execution cancelled (${call.cancelReason ?? 'aborted'})`;
    if (end.kind === 'cancelled-queued') return stopped('cancelled', cancelNote);
    if (end.kind === 'killed') {
      return end.outcome === 'cancelled'
        ? stopped('cancelled', cancelNote)
        : stopped('timeout', `Error: script timed out after ${timeoutMs} ms`, timeoutMs);
    }
    if ((end.reply as { resultTooDeep?: unknown } | null)?.resultTooDeep === true) {
      const limit = PROC_EXECUTE_LIMITS.maxResultDepth;
      throw errors.validation(
        `The script's result nests arrays and objects deeper than ${limit} levels; return a flatter value (or a string)`,
        { reason: 'result_too_deep', limit },
      );
    }
    const r = readTaskReply(end.reply);
    if (!r) {
      log.error('sandbox worker sent an invalid reply');
      throw errors.internal('The sandbox failed to run the script');
    }
    const stderr = r.outcome === 'cancelled' ? `${r.stderr}${cancelNote}\n` : r.stderr;
    return { ...r, stderr, exitCode: OUTCOME_EXIT_CODES[r.outcome] };
  }

  function failed(err: unknown): SandboxResult {
    if (err instanceof AppError) throw err;
    const e = err as { message?: unknown; code?: unknown; name?: unknown };
    if (e?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      // The worker's own heap ran out (not QuickJS's): Piscina replaces the worker.
      log.warn('sandbox worker ran out of heap; replaced');
      return stopped('out_of_memory', 'InternalError: out of memory (sandbox worker)');
    }
    const message = typeof e?.message === 'string' ? e.message : String(err);
    if (/queue is at limit|No task queue available/i.test(message)) {
      throw errors.unavailable('The sandbox is busy; retry later');
    }
    if (closed) throw errors.unavailable('The sandbox is closed');
    log.error({ err: message }, 'sandbox call failed');
    throw errors.internal('The sandbox failed to run the script');
  }

  function abortAll(reason = 'aborted'): number {
    let cancelled = 0;
    for (const call of inFlight) if (call.cancel(reason)) cancelled += 1;
    if (cancelled > 0) log.info({ cancelled, reason }, 'sandbox calls cancelled');
    return cancelled;
  }

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    abortAll('sandbox closed');
    await pool.close({ force: true });
  }

  return {
    execute,
    abortAll,
    stats: () => ({ threads, inFlight: inFlight.size, queued: handOver.queued + pool.queueSize }),
    close,
  };
}

/** A result the main thread answers by itself (the script never ran, or its worker was killed). */
function stopped(outcome: SandboxOutcome, note: string, durationMs = 0): SandboxResult {
  return {
    stdout: '',
    stderr: `${note}\n`,
    exitCode: OUTCOME_EXIT_CODES[outcome],
    durationMs,
    truncated: false,
    outcome,
  };
}

function reasonOf(reason: unknown): string {
  if (typeof reason === 'string' && reason) return reason.slice(0, 200);
  if (reason instanceof Error && reason.message) return reason.message.slice(0, 200);
  return 'aborted';
}

/** `threadsPerOwner` and `maxQueuePerOwner`, checked, with their defaults. */
function ownerLimits(
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

function withoutUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function checkLimits(l: typeof SANDBOX_DEFAULTS): void {
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
