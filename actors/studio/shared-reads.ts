/**
 * Identical reads in flight at the same moment share one answer: a caller asking for what
 * another caller's read is already fetching (the same key) waits for that read instead of sending
 * its own. Nothing is kept once the read settles (no cache, no staleness beyond the read in
 * flight), so a change made before a read starts is always seen by the reads started after it.
 * For a burst of requests of one account (a thousand intent streams asking `status`), the
 * listings it needs cost one actor ask each instead of one per request.
 */
export class SharedReads<T> {
  private readonly inFlight = new Map<string, Promise<T>>();

  read(key: string, fetch: () => Promise<T>): Promise<T> {
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const started = fetch().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, started);
    return started;
  }
}

/** The key of what a principal may see: who it is and the scopes it carries. */
export function principalKey(p: {
  subjectType?: string;
  via?: string;
  accountId?: string;
  agentId?: string;
  tokenId?: string;
  scopes?: readonly string[];
}): string {
  return JSON.stringify([p.subjectType, p.via, p.accountId, p.agentId, p.tokenId, p.scopes ?? null]);
}
