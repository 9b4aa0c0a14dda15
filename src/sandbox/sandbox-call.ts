import type { MessagePort } from 'node:worker_threads';

/**
 * Slots and states of the control block a call shares with its worker (an Int32Array over a
 * SharedArrayBuffer). Mirrored in quickjs.task.js; keep both in step.
 */
export const CONTROL = Object.freeze({
  STATE: 0,
  /** Milliseconds between submission and start, written by the worker before it sets RUNNING. */
  STARTED_AFTER_MS: 1,
  /** Bumped (and notified) after each host call's answer, and on cancel (host-link.js). */
  HOST_SEQ: 2,
  QUEUED: 0,
  RUNNING: 1,
  CANCELLED: 2,
});

/** Times a call that never started is given back to the pool after its worker went away. */
const MAX_RESUBMITS = 2;

/** The host calls a run is offered (host-link.js): the worker's end of a fresh channel, and limits. */
export interface TaskHost {
  port: MessagePort;
  maxCalls: number;
  maxInputBytes: number;
}

/** What a worker receives for one call (kept small: it is copied to the worker). */
export interface TaskInput {
  code: string;
  stdin: string;
  args: string[];
  timeoutMs: number;
  control: SharedArrayBuffer;
  submittedAt: number;
  host?: TaskHost;
}

/** How a call is submitted. */
export interface RunOptions {
  /** Aborting it while the task runs terminates its worker (the watchdog's last resort). */
  signal: AbortSignal;
  /** Whose call it is (an account): `FairHandOver` shares the workers between owners. */
  owner?: string;
  /** What is transferred with the task: the worker's end of the host-call channel. */
  transferList?: MessagePort[];
}

/** What a call is submitted to: `FairHandOver` in front of Piscina (or Piscina's `run`). */
export interface TaskRunner {
  run(task: TaskInput, options: RunOptions): Promise<unknown>;
}

/** How a call ended, seen from the main thread. */
export type CallEnd =
  /** The worker answered (the reply is validated by the caller). */
  | { kind: 'reply'; reply: unknown }
  /** Cancelled before a worker started it; answered at once. */
  | { kind: 'cancelled-queued' }
  /** The worker did not stop in time and was terminated (Piscina replaces it). */
  | { kind: 'killed'; outcome: 'timeout' | 'cancelled' };

/**
 * One call on its way through the pool: its control block, its cancellation, and the watchdog that
 * terminates a worker that ignores the interrupt (which should never happen, but a stuck worker must
 * not be lost to the pool for good).
 */
export class SandboxCall {
  private readonly control = new SharedArrayBuffer(12);
  private readonly view = new Int32Array(this.control);
  private readonly poolAbort = new AbortController();
  private readonly submittedAt = Date.now();
  private watchdog: NodeJS.Timeout | undefined;
  private cancelledAt: number | undefined;
  private settle: ((end: CallEnd) => void) | undefined;
  private done = false;
  /** Set once the call is cancelled (by its signal or by abortAll). */
  cancelReason: string | undefined;

  /**
   * @param timeoutMs the script's own limit (enforced in the worker)
   * @param graceMs how long past its limit, or past a cancel, the worker may take before it is killed
   * @param onKill told when a worker is terminated, for the log
   * @param owner whose call it is (see `RunOptions.owner`)
   */
  constructor(
    private readonly timeoutMs: number,
    private readonly graceMs: number,
    private readonly onKill: (outcome: 'timeout' | 'cancelled') => void,
    private readonly owner?: string,
  ) {}

  /**
   * @param openHost for a run offered host calls: opens a fresh channel for each submission (a port
   *   can be transferred once, and a resubmitted call needs its own)
   */
  run(
    pool: TaskRunner,
    input: Omit<TaskInput, 'control' | 'submittedAt' | 'host'>,
    openHost?: () => TaskHost,
  ): Promise<CallEnd> {
    return new Promise<CallEnd>((resolve, reject) => {
      const finish = (fn: () => void) => {
        if (this.done) return;
        this.done = true;
        clearTimeout(this.watchdog);
        fn();
      };
      this.settle = (end) => finish(() => resolve(end));
      if (this.cancelReason !== undefined) return this.settle({ kind: 'cancelled-queued' });
      const task: TaskInput = { ...input, control: this.control, submittedAt: this.submittedAt };
      let resubmits = 0;
      const submit = (): Promise<void> => {
        const host = openHost?.();
        const submitted = host ? { ...task, host } : task;
        const options: RunOptions = host
          ? { signal: this.poolAbort.signal, owner: this.owner, transferList: [host.port] }
          : { signal: this.poolAbort.signal, owner: this.owner };
        return pool.run(submitted, options).then(
          (reply: unknown) => this.settle?.({ kind: 'reply', reply }),
          (err: unknown): Promise<void> | void => {
            // With tasksPerWorker 2 a worker holds the next call while it runs one; if that worker
            // is terminated (the call it ran overran its timeout), the call waiting in it never
            // started: it goes back to the pool instead of failing.
            const neverStarted = Atomics.load(this.view, CONTROL.STATE) === CONTROL.QUEUED;
            if (!this.done && neverStarted && !this.poolAbort.signal.aborted && resubmits < MAX_RESUBMITS) {
              resubmits += 1;
              return submit();
            }
            finish(() => reject(err));
          },
        );
      };
      void submit();
      this.arm(this.timeoutMs + this.graceMs);
    });
  }

  /**
   * Stops the call: a queued one is answered at once (its worker skips it later), a running one is
   * interrupted by the worker's interrupt handler within milliseconds.
   * @returns false when the call had already ended or been cancelled
   */
  cancel(reason: string): boolean {
    if (this.done || this.cancelReason !== undefined) return false;
    this.cancelReason = reason;
    const previous = Atomics.compareExchange(this.view, CONTROL.STATE, CONTROL.QUEUED, CONTROL.CANCELLED);
    if (previous === CONTROL.QUEUED) {
      // Not aborting Piscina's copy: once dispatched, that would terminate a worker. The worker
      // skips a cancelled task in microseconds.
      this.settle?.({ kind: 'cancelled-queued' });
      return true;
    }
    Atomics.store(this.view, CONTROL.STATE, CONTROL.CANCELLED);
    // A worker blocked on a host call's answer wakes up and sees the cancel.
    this.hostAnswered();
    this.cancelledAt = Date.now();
    this.arm(this.graceMs);
    return true;
  }

  /** Wakes the worker waiting for a host call's answer (posted on its port just before). */
  hostAnswered(): void {
    Atomics.add(this.view, CONTROL.HOST_SEQ, 1);
    Atomics.notify(this.view, CONTROL.HOST_SEQ);
  }

  private arm(ms: number): void {
    clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => this.check(), Math.max(1, ms));
    this.watchdog.unref();
  }

  private check(): void {
    if (this.done) return;
    // The start time is written before RUNNING, so reading the state first makes it valid.
    const state = Atomics.load(this.view, CONTROL.STATE);
    if (state === CONTROL.QUEUED) return this.arm(this.timeoutMs + this.graceMs);
    const startedAt = this.submittedAt + Atomics.load(this.view, CONTROL.STARTED_AFTER_MS);
    const limit =
      this.cancelledAt !== undefined
        ? Math.min(this.cancelledAt, startedAt + this.timeoutMs) + this.graceMs
        : startedAt + this.timeoutMs + this.graceMs;
    const left = limit - Date.now();
    if (left > 0) return this.arm(left);
    const outcome = this.cancelReason !== undefined ? 'cancelled' : 'timeout';
    this.settle?.({ kind: 'killed', outcome });
    // Aborting a running Piscina task terminates its worker; Piscina starts a replacement.
    this.poolAbort.abort();
    this.onKill(outcome);
  }
}
