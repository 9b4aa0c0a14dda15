import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../../../src/logging/logger';
import { cancelledError, statementTimeout, unavailable } from './sql-errors';
import {
  SqlStepError,
  type DbErrorFields,
  type RawResult,
  type SqlExecutor,
  type SqlTransaction,
} from './sql-executor';

/** Tuning of the embedded backend. */
export interface PgliteExecutorOptions {
  /** Calls waiting for the instance before new ones are refused with UNAVAILABLE (default 1000). */
  maxQueue?: number;
  /** Time PGlite may take to open (initdb on first use, recovery after a kill), in ms (default 60000). */
  startTimeoutMs?: number;
  /** After a failed start, calls fail fast for this long before the next attempt, in ms (default 5000). */
  retryStartMs?: number;
}

const WORKER_FILE = 'pglite.worker.js';

/** The worker file next to this module (src under jest, dist when the build emitted it), else its source twin. */
function resolveWorkerFile(dir: string = __dirname): string {
  const candidates = [path.join(dir, WORKER_FILE)];
  const parts = dir.split(path.sep);
  const distIndex = parts.lastIndexOf('dist');
  if (distIndex >= 0) {
    candidates.push(
      path.join([...parts.slice(0, distIndex), ...parts.slice(distIndex + 1)].join(path.sep), WORKER_FILE),
    );
  }
  const found = candidates.find((file) => fs.existsSync(file));
  if (!found) throw new Error(`PGlite worker not found (looked at ${candidates.join(', ')})`);
  return found;
}

interface Job {
  id: number;
  tx: SqlTransaction;
  resolve: (results: RawResult[]) => void;
  reject: (err: unknown) => void;
  onAbort?: () => void;
}

type WorkerMessage =
  | { type: 'ready' }
  | { type: 'start-failed'; message: string }
  | { type: 'step'; id: number; index: number }
  | { type: 'commit'; id: number }
  | { type: 'done'; id: number; results: RawResult[] }
  | { type: 'failed'; id: number; stepIndex: number; error: Partial<DbErrorFields> & { message: string } }
  | { type: 'closed' };

/**
 * The embedded backend: one PGlite instance (PostgreSQL in WebAssembly) under `dataDir`, hosted by
 * a worker thread, shared by all agents (one schema and role each, like PostgreSQL).
 *
 * - PGlite has a single connection: calls are queued here and sent one at a time (bounded queue).
 * - Memory is bounded by running exactly one instance.
 * - PGlite cannot enforce `statement_timeout` nor cancel a statement, and blocks the thread it
 *   runs on. The worker reports each step; a step that outlives `statementTimeoutMs`, or a call
 *   aborted while running, gets the worker terminated: the call fails (DEADLINE_EXCEEDED or
 *   cancelled), the uncommitted transaction is lost as in a crash, and a new worker reopens the data
 *   directory (PostgreSQL recovery; about a second) before the queued calls go on. An abort during
 *   COMMIT lets the COMMIT finish.
 */
export class PgliteExecutor implements SqlExecutor {
  readonly backend = 'pglite' as const;
  private readonly workerFile = resolveWorkerFile();
  private readonly maxQueue: number;
  private readonly startTimeoutMs: number;
  private readonly retryStartMs: number;
  private worker?: Worker;
  private state: 'starting' | 'ready' | 'failed' | 'closed' = 'starting';
  private failedAt = 0;
  private readonly queue: Job[] = [];
  private current?: Job & { committing: boolean };
  private timer?: NodeJS.Timeout;
  private nextId = 1;
  private closing?: Promise<void>;

  constructor(
    private readonly dataDir: string,
    private readonly log: Logger,
    options: PgliteExecutorOptions = {},
  ) {
    this.maxQueue = options.maxQueue ?? 1000;
    this.startTimeoutMs = options.startTimeoutMs ?? 60_000;
    this.retryStartMs = options.retryStartMs ?? 5000;
    this.start();
  }

  transaction(tx: SqlTransaction): Promise<RawResult[]> {
    if (this.state === 'closed') return Promise.reject(unavailable('Private databases are closed'));
    if (tx.signal?.aborted) return Promise.reject(cancelledError(tx.signal));
    if (this.queue.length >= this.maxQueue) {
      return Promise.reject(unavailable('Private database busy: too many calls waiting'));
    }
    if (this.state === 'failed') {
      if (Date.now() - this.failedAt < this.retryStartMs) return Promise.reject(unavailable());
      this.start();
    }
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.nextId++, tx, resolve, reject };
      if (tx.signal) {
        job.onAbort = () => this.abort(job);
        tx.signal.addEventListener('abort', job.onAbort, { once: true });
      }
      this.queue.push(job);
      this.pump();
    });
  }

  close(): Promise<void> {
    this.closing ??= this.doClose();
    return this.closing;
  }

  private async doClose(): Promise<void> {
    const wasStarting = this.state === 'starting';
    const wasUp = wasStarting || this.state === 'ready';
    this.state = 'closed';
    for (const job of this.queue.splice(0)) this.settle(job, unavailable('Private databases are closed'));
    if (this.current) this.fail(unavailable('Private databases are closed'));
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    if (wasUp) {
      // Let a first open (initdb) finish: a data directory killed half-initialised does not open again.
      // Then a clean shutdown (checkpoint) makes the next open fast. Terminate if either hangs.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, (wasStarting ? this.startTimeoutMs : 0) + 10_000);
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        worker.on('message', (m: WorkerMessage) => {
          if (m.type === 'ready') worker.postMessage({ type: 'close' });
          else if (m.type === 'closed' || m.type === 'start-failed') done();
        });
        worker.once('exit', done);
        if (!wasStarting) worker.postMessage({ type: 'close' });
      });
    }
    await worker.terminate();
  }

  private start(): void {
    this.state = 'starting';
    const worker = new Worker(this.workerFile, { workerData: { dataDir: this.dataDir } });
    this.worker = worker;
    const startTimer = setTimeout(() => {
      if (this.worker === worker && this.state === 'starting') this.startFailed(worker, 'start timed out');
    }, this.startTimeoutMs);
    worker.on('message', (m: WorkerMessage) => {
      if (this.worker !== worker) return;
      if (m.type === 'ready') {
        clearTimeout(startTimer);
        if (this.state !== 'starting') return;
        this.state = 'ready';
        this.log.info({ dataDir: this.dataDir }, 'private db: PGlite ready');
        this.pump();
      } else if (m.type === 'start-failed') {
        clearTimeout(startTimer);
        this.startFailed(worker, m.message);
      } else {
        this.onCallMessage(m);
      }
    });
    worker.on('error', (err) => {
      if (this.worker !== worker) return;
      this.log.error({ err: err.message }, 'private db: PGlite worker failed');
    });
    worker.on('exit', (code) => {
      clearTimeout(startTimer);
      if (this.worker !== worker) return;
      this.log.error({ code }, 'private db: PGlite worker exited');
      this.worker = undefined;
      if (this.current) this.fail(unavailable());
      if (this.state === 'starting') this.startFailed(undefined, `worker exited with code ${code}`);
      else if (this.state === 'ready') this.restart();
    });
  }

  private startFailed(worker: Worker | undefined, message: string): void {
    this.log.error({ message }, 'private db: PGlite could not start');
    this.state = 'failed';
    this.failedAt = Date.now();
    if (worker) void worker.terminate();
    if (this.worker === worker) this.worker = undefined;
    for (const job of this.queue.splice(0)) this.settle(job, unavailable());
  }

  /** Kills the worker (a runaway or aborted statement) and opens the data directory again. */
  private restart(): void {
    const old = this.worker;
    this.worker = undefined;
    if (old) void old.terminate();
    if (this.state !== 'closed') this.start();
  }

  private pump(): void {
    if (this.current || this.state !== 'ready' || !this.worker) return;
    const job = this.queue.shift();
    if (!job) return;
    this.current = { ...job, committing: false };
    this.arm();
    const { setup, steps, maxResultBytes } = job.tx;
    this.worker.postMessage({ type: 'run', id: job.id, setup, steps, maxResultBytes });
  }

  /** (Re)starts the watchdog of the running step. */
  private arm(): void {
    clearTimeout(this.timer);
    const current = this.current;
    if (!current) return;
    this.timer = setTimeout(() => {
      if (this.current !== current) return;
      this.log.warn(
        { timeoutMs: current.tx.statementTimeoutMs },
        'private db: statement timeout, restarting PGlite',
      );
      this.fail(statementTimeout(current.tx.statementTimeoutMs));
      this.restart();
    }, current.tx.statementTimeoutMs);
  }

  private onCallMessage(m: WorkerMessage): void {
    const current = this.current;
    if (!current || !('id' in m) || m.id !== current.id) return;
    if (m.type === 'step') {
      this.arm();
    } else if (m.type === 'commit') {
      current.committing = true;
      this.arm();
    } else if (m.type === 'done') {
      this.finish(m.results);
    } else if (m.type === 'failed') {
      if (m.error.sqlstate) {
        this.fail(new SqlStepError(m.stepIndex, { ...m.error, sqlstate: m.error.sqlstate }));
      } else {
        this.log.error({ message: m.error.message }, 'private db: PGlite call failed');
        this.fail(unavailable());
      }
    }
  }

  private abort(job: Job): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      this.settle(job, cancelledError(job.tx.signal));
      return;
    }
    if (this.current?.id === job.id && !this.current.committing) {
      this.log.info('private db: call aborted, restarting PGlite');
      this.fail(cancelledError(job.tx.signal));
      this.restart();
    }
  }

  private finish(results: RawResult[]): void {
    const job = this.current;
    if (!job) return;
    this.current = undefined;
    clearTimeout(this.timer);
    if (job.onAbort) job.tx.signal?.removeEventListener('abort', job.onAbort);
    job.resolve(results);
    this.pump();
  }

  private fail(err: unknown): void {
    const job = this.current;
    if (!job) return;
    this.current = undefined;
    clearTimeout(this.timer);
    this.settle(job, err);
    this.pump();
  }

  private settle(job: Job, err: unknown): void {
    if (job.onAbort) job.tx.signal?.removeEventListener('abort', job.onAbort);
    job.reject(err);
  }
}
