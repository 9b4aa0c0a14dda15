import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../../logging/logger';
import { silentLogger } from '../../logging/logger';
import { commandCounts } from './commands/dispatch';
import type { EmbeddedMongo } from './index';

/** Options of `startEmbeddedMongoThread`. */
export interface EmbeddedMongoThreadOptions {
  /** Data directory (journal and lock file). Default: none, memory only. */
  dir?: string;
  /** Where this side logs the thread's fate; default silent. */
  logger?: Logger;
  /** The level the thread logs at (default: the logger's); its lines are written by `logger`. */
  logLevel?: string;
  /** How long the thread may take to open its data and listen. */
  startTimeoutMs?: number;
}

type FromThread =
  | { type: 'ready'; url: string; port: number }
  | { type: 'failed'; error: string }
  | { type: 'closed'; error?: string }
  | { type: 'counts'; id: number; counts: Record<string, number> }
  | { type: 'log'; line: string };

const LEVEL_NAMES: Record<number, 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal'> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

/** A line the thread logged (pino's JSON), written again by this side's logger. */
function relog(logger: Logger, line: string): void {
  try {
    const {
      level,
      msg,
      time: _time,
      pid: _pid,
      hostname: _host,
      ...fields
    } = JSON.parse(line) as {
      level: number;
      msg?: string;
      [field: string]: unknown;
    };
    logger[LEVEL_NAMES[level] ?? 'info'](fields, msg);
  } catch {
    logger.info(line.trim());
  }
}

/** The threads running now, for `embeddedCommandCounts`. */
const running = new Set<Worker>();
let nextCountsId = 1;

/**
 * Starts the embedded document server (`startEmbeddedMongo`) on a worker thread of its own, and
 * reaches it the same way, over loopback TCP through the driver. Why a thread: the engine runs
 * every command synchronously and holds every document in its heap. On the node's main thread,
 * each command's decoding, matching and journal encoding took turns from the HTTP requests, and
 * every garbage collection of the requests' short-lived objects had to walk a heap that grows with
 * the data. On its own thread it uses the second core and its own heap (docs/architecture.md,
 * "The document server's thread"). What is durable, and when a write is acknowledged, is unchanged.
 *
 * The thread does not keep the process alive (an acknowledged write is already on disk); `close()`
 * stops it after the server has closed its journal. If the thread dies, the driver's commands fail
 * with UNAVAILABLE from then on and the death is logged.
 */
export function startEmbeddedMongoThread(options: EmbeddedMongoThreadOptions = {}): Promise<EmbeddedMongo> {
  const base = options.logger ?? silentLogger;
  const logger = base.child({ component: 'embedded-mongo-thread' });
  const worker = new Worker(path.join(__dirname, 'documents.thread.js'), {
    workerData: { dir: options.dir, logLevel: options.logLevel ?? base.level },
  });
  worker.on('message', (m: FromThread) => {
    if (m.type === 'log') relog(base, m.line);
  });
  // Once the thread has exited, for a `close()` that comes after an unexpected end.
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return new Promise<EmbeddedMongo>((resolve, reject) => {
    let started = false;
    let closing: Promise<void> | undefined;
    const startTimer = setTimeout(() => {
      reject(new Error('the embedded document server thread did not start in time'));
      void worker.terminate();
    }, options.startTimeoutMs ?? 60_000);
    startTimer.unref();

    worker.on('message', (m: FromThread) => {
      if (m.type === 'ready' && !started) {
        started = true;
        clearTimeout(startTimer);
        running.add(worker);
        worker.unref();
        resolve({
          url: m.url,
          port: m.port,
          close: () => (closing ??= closeThread(worker, exited)),
        });
      } else if (m.type === 'failed' && !started) {
        clearTimeout(startTimer);
        reject(new Error(m.error));
        void worker.terminate();
      }
    });
    worker.on('error', (err) => {
      if (!started) {
        clearTimeout(startTimer);
        reject(err);
        return;
      }
      logger.error({ err }, 'embedded document server thread failed; document commands will fail');
    });
    worker.on('exit', (code) => {
      running.delete(worker);
      if (started && !closing) logger.error({ code }, 'embedded document server thread stopped unexpectedly');
    });
  });
}

function closeThread(worker: Worker, exited: Promise<void>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    // A thread that already ended has nothing left to close.
    void exited.then(() => resolve());
    worker.on('message', (m: FromThread) => {
      if (m.type !== 'closed') return;
      void worker.terminate().then(() => (m.error ? reject(new Error(m.error)) : resolve()));
    });
    // Holds the process until the journal is closed.
    worker.ref();
    worker.postMessage({ type: 'close' });
  });
}

/**
 * The commands the embedded servers of this process ran, by name: the one on this thread (if any)
 * and those on threads (`startEmbeddedMongoThread`). For benchmarks and tests that count work.
 */
export async function embeddedCommandCounts(): Promise<Record<string, number>> {
  const out: Record<string, number> = { ...commandCounts };
  const fromThreads = await Promise.all([...running].map((w) => countsOf(w)));
  for (const counts of fromThreads) {
    for (const [name, n] of Object.entries(counts)) out[name] = (out[name] ?? 0) + n;
  }
  return out;
}

function countsOf(worker: Worker): Promise<Record<string, number>> {
  const id = nextCountsId++;
  return new Promise((resolve) => {
    const timer = setTimeout(() => done({}), 5000);
    const onMessage = (m: FromThread) => {
      if (m.type === 'counts' && m.id === id) done(m.counts);
    };
    function done(counts: Record<string, number>) {
      clearTimeout(timer);
      worker.off('message', onMessage);
      resolve(counts);
    }
    worker.on('message', onMessage);
    worker.postMessage({ type: 'counts', id });
  });
}
