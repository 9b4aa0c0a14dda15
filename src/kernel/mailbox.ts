/**
 * A mailbox: runs jobs one at a time, in the order they were pushed. One per activated actor, so
 * an actor handles one message at a time while different actors run concurrently.
 *
 * The runner must not throw (it settles its own job); a throw is reported to `onError` and the
 * mailbox moves on, because one bad job must never wedge an actor forever.
 */
export class Mailbox<J> {
  private readonly queue: J[] = [];
  private running = false;

  constructor(
    private readonly run: (job: J) => Promise<void>,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  push(job: J): void {
    this.queue.push(job);
    if (!this.running) void this.drain();
  }

  /** Jobs waiting or running. */
  get size(): number {
    return this.queue.length + (this.running ? 1 : 0);
  }

  /** Jobs waiting (not counting the one running). */
  get waiting(): number {
    return this.queue.length;
  }

  get idle(): boolean {
    return !this.running && this.queue.length === 0;
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const job = this.queue.shift() as J;
        try {
          await this.run(job);
        } catch (error) {
          this.onError(error);
        }
      }
    } finally {
      this.running = false;
    }
  }
}
