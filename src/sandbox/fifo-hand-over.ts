import type { Piscina } from 'piscina';
import { CONTROL, type TaskInput, type TaskRunOptions, type TaskRunner } from './sandbox-call';

interface Waiting {
  task: TaskInput;
  options: TaskRunOptions;
  resolve(value: unknown): void;
  reject(reason: unknown): void;
}

/**
 * Hands calls to the Piscina pool in the order they came, never more at once than its workers
 * take (`capacity`: threads × tasks per worker); the others wait here, first come first served.
 *
 * Why not Piscina's own queue: tasks that carry an AbortSignal (ours all do: the watchdog aborts a
 * stuck worker's task) wait in its "skip queue", and there a call that cannot be placed goes to the
 * back (default) or to the front (`stricterFIFO`) of the line. With the default, each time a
 * worker frees up it takes the first call and sends the second to the back; with `stricterFIFO`
 * every new call jumps the line. Either way, under sustained load some calls wait for seconds while
 * others pass: `bench:mcp` (one sandbox thread, 32 callers, ~5 ms scripts) measured p50 90 ms and
 * p99 1.4-2.6 s (max 5.4 s) with the first, p50 10 ms and p99 0.2 s but a max of 1.6-4.8 s with
 * the second, where the line itself is about 170 ms long. Here Piscina never holds more than its
 * workers take, so its queue stays empty.
 *
 * A call cancelled while it waits here (its control block says CANCELLED) is dropped when its turn
 * comes instead of being sent to a worker only to be skipped there; its `SandboxCall` has already
 * answered it.
 */
export class FifoHandOver implements TaskRunner {
  private readonly waiting: Waiting[] = [];
  /** Index of the first waiting call (the array is emptied or compacted as it is spent). */
  private head = 0;
  private handedOver = 0;

  constructor(
    private readonly pool: Pick<Piscina, 'run'>,
    private readonly capacity: number,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new TypeError('FifoHandOver: capacity must be an integer >= 1');
    }
  }

  /** Calls waiting here for a worker. */
  get queued(): number {
    return this.waiting.length - this.head;
  }

  run(task: TaskInput, options: TaskRunOptions): Promise<unknown> {
    if (this.queued === 0 && this.handedOver < this.capacity) return this.handOver(task, options);
    return new Promise((resolve, reject) => this.waiting.push({ task, options, resolve, reject }));
  }

  private handOver(task: TaskInput, options: TaskRunOptions): Promise<unknown> {
    this.handedOver += 1;
    const running = this.pool.run(task, options);
    // The next call leaves as soon as Piscina has settled this one (its worker is free by then).
    running.then(this.release, this.release);
    return running;
  }

  private readonly release = (): void => {
    this.handedOver -= 1;
    while (this.queued > 0 && this.handedOver < this.capacity) {
      const next = this.waiting[this.head];
      this.waiting[this.head] = undefined as unknown as Waiting;
      this.head += 1;
      if (Atomics.load(new Int32Array(next.task.control), CONTROL.STATE) === CONTROL.CANCELLED) {
        next.task.host?.port.close();
        next.resolve(undefined);
        continue;
      }
      this.handOver(next.task, next.options).then(next.resolve, next.reject);
    }
    if (this.queued === 0) {
      this.waiting.length = 0;
      this.head = 0;
    } else if (this.head > 64 && this.head * 2 >= this.waiting.length) {
      this.waiting.splice(0, this.head);
      this.head = 0;
    }
  };
}
