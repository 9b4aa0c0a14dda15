import type { Piscina } from 'piscina';
import { CONTROL, type RunOptions, type TaskInput, type TaskRunner } from './sandbox-call';

/** What goes to Piscina with a task: its abort, and the host-call port it transfers. */
type PoolOptions = Pick<RunOptions, 'signal' | 'transferList'>;

interface Waiting {
  task: TaskInput;
  options: PoolOptions;
  resolve(value: unknown): void;
  reject(reason: unknown): void;
}

/** One owner's calls: those waiting, in the order they came, and how many its workers hold. */
class OwnerLine {
  private readonly waiting: Waiting[] = [];
  /** Index of the first waiting call (the array is emptied or compacted as it is spent). */
  private head = 0;
  running = 0;

  constructor(readonly owner: string) {}

  get length(): number {
    return this.waiting.length - this.head;
  }

  get idle(): boolean {
    return this.running === 0 && this.length === 0;
  }

  push(call: Waiting): void {
    this.waiting.push(call);
  }

  peek(): Waiting | undefined {
    return this.waiting[this.head];
  }

  shift(): Waiting {
    const next = this.waiting[this.head];
    this.waiting[this.head] = undefined as unknown as Waiting;
    this.head += 1;
    if (this.head === this.waiting.length) {
      this.waiting.length = 0;
      this.head = 0;
    } else if (this.head > 64 && this.head * 2 >= this.waiting.length) {
      this.waiting.splice(0, this.head);
      this.head = 0;
    }
    return next;
  }
}

const cancelled = (task: TaskInput) =>
  Atomics.load(new Int32Array(task.control), CONTROL.STATE) === CONTROL.CANCELLED;

/**
 * Hands calls to the Piscina pool, never more at once than its workers take (`capacity`: threads ×
 * tasks per worker), fairly between owners (accounts): see docs/sandbox.md, "Waiting calls".
 *
 * - **Share**: one owner's calls hold at most `share` of the places at once, so that a call of
 *   another owner finds a worker free however many long calls the first one sent (a running
 *   script cannot be paused to let another one in: without the share, a call of another owner
 *   would wait for the end of a running call, up to its 30 s timeout).
 * - **Round robin** between the owners that have calls waiting: when a place frees up it goes to
 *   the next owner in turn that holds less than its share; that owner then goes to the back. An
 *   owner that starts waiting with nothing running comes before those already served, so a call
 *   of an owner with nothing else in the sandbox leaves at the next free place.
 * - **In order within an owner**: an owner's calls leave in the order they came.
 *
 * Why not Piscina's own queue: tasks that carry an AbortSignal (ours all do: the watchdog aborts a
 * stuck worker's task) wait in its "skip queue", where a call that cannot be placed at once goes to
 * the back of the line (default) or to its front (`stricterFIFO`): under sustained load some calls
 * waited for seconds while later ones passed them (figures in bench/results/mcp.md). Here Piscina
 * never holds more than its workers take, so its queue stays empty.
 *
 * A call cancelled while it waits here (its control block says CANCELLED) is dropped when it reaches
 * the front of its owner's line instead of being sent to a worker only to be skipped there; its
 * `SandboxCall` has already answered it. Dropping it does not use its owner's turn.
 */
export class FairHandOver implements TaskRunner {
  /** Every owner with calls waiting or running. */
  private readonly lines = new Map<string, OwnerLine>();
  /** Owners that started waiting with nothing running and have had no turn since, in order. */
  private readonly fresh = new Map<string, OwnerLine>();
  /** Owners with calls waiting that have had a turn, the next in turn first (Map: insertion order). */
  private readonly turns = new Map<string, OwnerLine>();
  private handedOver = 0;
  private waitingCalls = 0;

  /**
   * @param pool where calls run (Piscina's `run`)
   * @param capacity calls the pool's workers take at once
   * @param share calls one owner may have handed over at once (1 to `capacity`; default `capacity`)
   */
  constructor(
    private readonly pool: Pick<Piscina, 'run'>,
    private readonly capacity: number,
    private readonly share: number = capacity,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new TypeError('FairHandOver: capacity must be an integer >= 1');
    }
    if (!Number.isInteger(share) || share < 1 || share > capacity) {
      throw new TypeError('FairHandOver: share must be an integer from 1 to capacity');
    }
  }

  /** Calls waiting here for a worker (cancelled ones included until they are dropped). */
  get queued(): number {
    return this.waitingCalls;
  }

  /** Owners with calls waiting here. */
  get waitingOwners(): number {
    return this.fresh.size + this.turns.size;
  }

  run(task: TaskInput, { owner = '', ...options }: RunOptions): Promise<unknown> {
    const line = this.lineOf(owner);
    // A place is free while others wait only when every one of them holds its share: no one to pass.
    if (line.length === 0 && line.running < this.share && this.handedOver < this.capacity) {
      return this.handOver(line, task, options);
    }
    return new Promise((resolve, reject) => {
      line.push({ task, options, resolve, reject });
      this.waitingCalls += 1;
      // An owner with nothing running has had no turn yet: before those already served.
      if (!this.fresh.has(owner) && !this.turns.has(owner)) {
        (line.running > 0 ? this.turns : this.fresh).set(owner, line);
      }
    });
  }

  private lineOf(owner: string): OwnerLine {
    let line = this.lines.get(owner);
    if (!line) {
      line = new OwnerLine(owner);
      this.lines.set(owner, line);
    }
    return line;
  }

  private handOver(line: OwnerLine, task: TaskInput, options: PoolOptions): Promise<unknown> {
    this.handedOver += 1;
    line.running += 1;
    const running = this.pool.run(task, options);
    // The next call leaves as soon as Piscina has settled this one (its worker is free by then).
    const release = () => this.release(line);
    running.then(release, release);
    return running;
  }

  private release(line: OwnerLine): void {
    this.handedOver -= 1;
    line.running -= 1;
    this.dispatch();
    if (line.idle) this.forget(line);
  }

  /** Fills the free places, one call per owner in turn. */
  private dispatch(): void {
    while (this.handedOver < this.capacity) {
      const line = this.nextInTurn();
      if (!line) return;
      const next = line.shift();
      this.waitingCalls -= 1;
      // To the back of the turns (Map order), or out of them when nothing of it waits any more.
      this.fresh.delete(line.owner);
      this.turns.delete(line.owner);
      if (line.length > 0) this.turns.set(line.owner, line);
      this.handOver(line, next.task, next.options).then(next.resolve, next.reject);
    }
  }

  /** The first owner in turn below its share with a live call at the front of its line. */
  private nextInTurn(): OwnerLine | undefined {
    return this.firstLive(this.fresh) ?? this.firstLive(this.turns);
  }

  private firstLive(owners: Map<string, OwnerLine>): OwnerLine | undefined {
    for (const line of owners.values()) {
      if (line.running >= this.share) continue;
      this.dropCancelled(line);
      if (line.length > 0) return line;
      // Deleting the entry being visited is safe while iterating a Map.
      owners.delete(line.owner);
      if (line.idle) this.forget(line);
    }
    return undefined;
  }

  private dropCancelled(line: OwnerLine): void {
    for (let next = line.peek(); next && cancelled(next.task); next = line.peek()) {
      line.shift();
      this.waitingCalls -= 1;
      // Its host-call channel never reaches a worker: closed here, not left open.
      next.task.host?.port.close();
      next.resolve(undefined);
    }
  }

  private forget(line: OwnerLine): void {
    if (this.lines.get(line.owner) === line) this.lines.delete(line.owner);
  }
}
