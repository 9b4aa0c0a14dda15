/**
 * Admission by client: at most `perKey` pieces of work of one key (an account) run at once; the
 * rest of that key wait in its own queue, first come first served. A client sending a thousand
 * requests at once fills its own queue, not everyone's: another client's single request finds a
 * free slot at once and runs beside them, so a burst cannot starve it. Keys with nothing running
 * or waiting are forgotten.
 */
export class FairGate {
  private readonly keys = new Map<string, { running: number; waiting: Array<() => void> }>();

  constructor(private readonly perKey: number) {}

  /** Runs `work` once a slot of `key` is free; the slot is given back when it settles. */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    await this.enter(key);
    try {
      return await work();
    } finally {
      this.leave(key);
    }
  }

  /** Pieces of work of `key` waiting for a slot. */
  waiting(key: string): number {
    return this.keys.get(key)?.waiting.length ?? 0;
  }

  private enter(key: string): Promise<void> {
    let entry = this.keys.get(key);
    if (!entry) {
      entry = { running: 0, waiting: [] };
      this.keys.set(key, entry);
    }
    if (entry.running < this.perKey) {
      entry.running += 1;
      return Promise.resolve();
    }
    const queue = entry.waiting;
    return new Promise<void>((resolve) => queue.push(resolve));
  }

  private leave(key: string): void {
    const entry = this.keys.get(key);
    if (!entry) return;
    const next = entry.waiting.shift();
    if (next) return next(); // the slot passes on: `running` unchanged
    entry.running -= 1;
    if (entry.running === 0) this.keys.delete(key);
  }
}
