/**
 * Remembers recent restarts per actor address, so that "at most N restarts per window" holds even
 * though a restarted actor's in-memory activation is thrown away.
 */
export class RestartBudget {
  private readonly history = new Map<string, { times: number[]; windowMs: number }>();

  /**
   * Records a restart of `address` at `now` if the budget allows it. Returns false (and records
   * nothing) when `max` restarts already happened within `windowMs`.
   */
  tryRestart(address: string, max: number, windowMs: number, now = Date.now()): boolean {
    const entry = this.history.get(address);
    const times = entry ? entry.times.filter((t) => now - t < windowMs) : [];
    if (times.length >= max) {
      this.history.set(address, { times, windowMs });
      return false;
    }
    times.push(now);
    this.history.set(address, { times, windowMs });
    return true;
  }

  /** Forgets actors whose last restart is out of their window (keeps the map bounded). */
  prune(now = Date.now()): void {
    for (const [address, { times, windowMs }] of this.history) {
      if (times.length === 0 || now - times[times.length - 1] >= windowMs) this.history.delete(address);
    }
  }

  get size(): number {
    return this.history.size;
  }
}
