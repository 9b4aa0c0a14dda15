import os from 'node:os';
import { Piscina } from 'piscina';
import { AppError, errors } from '../../schemas/errors';
import {
  OUTCOME_EXIT_CODES,
  PROC_EXECUTE_LIMITS,
  ProcExecuteInputSchema,
  type ProcExecuteRequest,
  type SandboxOutcome,
} from '../../schemas/tools/proc-execute';
import { FairHandOver } from './fair-hand-over';
import { HostChannel } from './host-channel';
import { SandboxCall, type CallEnd } from './sandbox-call';
import {
  SANDBOX_DEFAULTS,
  checkLimits,
  ownerLimits,
  withoutUndefined,
  type ExecuteOptions,
  type Sandbox,
  type SandboxOptions,
  type SandboxResult,
} from './sandbox-options';
import { readTaskReply } from './task-reply';
import { resolveTaskFile } from './task-file';

export {
  SANDBOX_DEFAULTS,
  type ExecuteOptions,
  type Sandbox,
  type SandboxOptions,
  type SandboxResult,
} from './sandbox-options';

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
