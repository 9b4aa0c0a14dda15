/** Most pieces of work in one batch, unless a batcher says otherwise. */
export const DEFAULT_MAX_BATCH = 500;

/**
 * What the write batchers share (`InsertBatcher`, `UpdateBatcher`): requests of many callers made
 * within one turn of the event loop, or while the previous batch is on its way, are sent to the
 * server as one command. Group commit: while a batch of this batcher is in flight, what comes
 * meanwhile waits for its answer and goes in the next batch. Without it, a batch left at every
 * turn, and in one process, where turns are short (the document server embedded, no network), a
 * burst went out in batches of three or four instead of sixty.
 */
export abstract class TurnBatcher<W> {
  private waiting: W[] = [];
  private scheduled = false;
  private inFlight = 0;

  constructor(private readonly maxBatch = DEFAULT_MAX_BATCH) {}

  /** Sends one batch; settles each caller of it. Never rejects (failures settle the callers). */
  protected abstract send(batch: W[]): Promise<void>;

  protected enqueue(item: W): void {
    this.waiting.push(item);
    if (this.waiting.length >= this.maxBatch) this.flush();
    else this.schedule();
  }

  /** A flush at the end of this turn, unless a batch is on its way (its answer flushes). */
  private schedule(): void {
    if (this.scheduled || this.inFlight > 0) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.waiting;
    if (batch.length === 0) return;
    this.waiting = [];
    this.inFlight += 1;
    void this.send(batch).finally(() => {
      this.inFlight -= 1;
      if (this.waiting.length > 0) this.schedule();
    });
  }
}
