import { requestsWaiting } from './accept-first';

/**
 * Work that may wait behind the first answers of new requests: the rest of a stream whose first
 * event is out (docs/studio.md, "Answered at once"). A burst of a thousand streams then gives
 * every one its first event before any of them does the rest of its work, instead of each doing
 * all of its work in turn while the last ones wait for their first byte.
 *
 * Waiting work starts only while no first answer is being prepared (`first`), no request waits at
 * the front door (`requestsWaiting`: a burst being accepted, accept-first.ts) and none began for
 * `quietMs` (a burst still arriving): the rest of the old streams would otherwise take the document
 * server and the broker from the new ones (their writes queue behind it there, not here). Then it starts in later turns of the event loop
 * (`setImmediate`), at most `perTurn` per turn: between two turns, Node reads the sockets again,
 * so a newly arrived request is seen before more of the waiting work starts. Nothing is dropped or
 * starved: a piece that waited `maxWaitMs` starts regardless, and all of it starts in order.
 */
export class IdleLane {
  private readonly queue: Array<{ at: number; start: () => void }> = [];
  private scheduled = false;
  private firsts = 0;
  /** When the last first answer began (`performance.now()`). */
  private lastFirstAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly perTurn = 4,
    private readonly maxWaitMs = 500,
    private readonly quietMs = 20,
  ) {}

  /** Prepares a first answer (`work`): waiting work holds back until none is being prepared. */
  async first<T>(work: () => Promise<T>): Promise<T> {
    this.firsts += 1;
    this.lastFirstAt = performance.now();
    try {
      return await work();
    } finally {
      this.firsts -= 1;
      if (this.firsts === 0 && this.queue.length > 0) this.schedule();
    }
  }

  /** Starts `work` in a later turn; settles as it does. */
  run<T>(work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        try {
          work().then(resolve, reject);
        } catch (err) {
          reject(err);
        }
      };
      this.queue.push({ at: performance.now(), start });
      this.schedule();
    });
  }

  /** Pieces of work not started yet. */
  get waiting(): number {
    return this.queue.length;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.turn);
  }

  private readonly turn = (): void => {
    this.scheduled = false;
    const oldest = this.queue[0];
    if (!oldest) return;
    const now = performance.now();
    const due = this.maxWaitMs - (now - oldest.at);
    const quietIn = this.quietMs - (now - this.lastFirstAt);
    // Requests still queued at the front door (a burst being accepted) are first answers to come.
    const busy = this.firsts > 0 || requestsWaiting();
    if (due > 0 && (busy || quietIn > 0)) {
      // Checked again when the last first answer is out (it schedules a turn), a millisecond from now
      // while requests wait at the front door, once no first answer began for `quietMs` (a burst
      // still arriving), and at the latest when the oldest is due.
      const wait = this.firsts > 0 ? due : busy ? 1 : quietIn;
      const timer = setTimeout(() => this.schedule(), Math.max(1, Math.min(due, wait)));
      timer.unref();
      return;
    }
    for (let i = 0; i < this.perTurn && this.queue.length > 0; i += 1) this.queue.shift()!.start();
    if (this.queue.length > 0) this.schedule();
  };
}
