/**
 * What the store knows about one key of one caller:
 * - `pending`: a request claimed it and is running (until completed, released or its lease ends);
 * - `done`: the request finished; `outcome` is what a retry receives, or, when the answer is not
 *   kept (a one-time secret, a stream, too large), `notKept` says why and with which status.
 *
 * `fingerprint` is the digest of what the first request asked for: a retry must ask the same.
 */
export type IdempotencyRecord =
  | { state: 'pending'; fingerprint: string; owner: string }
  | { state: 'done'; fingerprint: string; outcome: unknown }
  | { state: 'done'; fingerprint: string; notKept: NotKept };

/** Why an outcome is not kept, and the status the first request was answered with. */
export interface NotKept {
  status: number;
  reason: 'secret' | 'stream' | 'too_large' | 'not_json';
}

/**
 * The record of idempotency keys: claimed before the work runs, completed after it, shared by
 * every node that uses the same store (the cache port: Redis when configured). Records are kept
 * for a window (24 h by default), not forever.
 */
export interface IdempotencyStore {
  /**
   * Claims `key` for `owner` for `leaseMs` when nobody holds it and resolves `undefined`: the
   * caller runs the work. Otherwise resolves the record found. Atomic across the nodes sharing the
   * store.
   */
  claim(
    key: string,
    fingerprint: string,
    owner: string,
    leaseMs: number,
  ): Promise<IdempotencyRecord | undefined>;
  /** Extends the lease of a claim still running. */
  renew(key: string, leaseMs: number): Promise<void>;
  /** Records the final outcome (or why it is not kept), replacing the claim, for `ttlMs`. */
  complete(
    key: string,
    record: Exclude<IdempotencyRecord, { state: 'pending' }>,
    ttlMs: number,
  ): Promise<void>;
  /** Forgets the claim of `owner` (the work ended without a final outcome): a retry runs it. */
  release(key: string, owner: string): Promise<void>;
}
