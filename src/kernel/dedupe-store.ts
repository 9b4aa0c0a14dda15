import type { ReplyBody } from '../../schemas/envelope';

/**
 * What the store knows about an envelope id:
 * - `pending`: a node claimed it and is handling it (until `complete`, `release` or the lease ends);
 * - `done`: it was handled; `reply` is what a duplicate receives (absent for fire-and-forget).
 */
export type DedupeRecord = { state: 'pending'; owner: string } | { state: 'done'; reply?: ReplyBody };

/** What the kernel knows about a delivery when it claims its id. */
export interface ClaimOptions {
  /**
   * Whether another node may already know this id: the broker redelivered the message, or its kind
   * declares `dedupe: 'shared'` (callers choose its ids and may publish one twice, and the copies
   * can land on different nodes). A store that keeps a local record in front of a shared one may
   * answer from the local record alone when this is false. Default true.
   */
  shared?: boolean;
}

/**
 * The record of handled envelope ids that makes duplicates harmless. Async so that a shared
 * implementation (on the cache) can plug in through the same port as the in-memory one.
 * Records are bounded and time-limited: the store protects against redeliveries and client retries
 * within minutes, not forever (conditional writes in the actors cover the rest).
 */
export interface DedupeStore {
  /**
   * Claims `id` for `owner` for `leaseMs` when it is unknown (or its lease has expired) and
   * resolves `undefined`: the caller handles it. Otherwise resolves the existing record. Must be
   * atomic across the nodes sharing the store (for the claims made with `options.shared`).
   */
  claim(
    id: string,
    owner: string,
    leaseMs: number,
    options?: ClaimOptions,
  ): Promise<DedupeRecord | undefined>;
  /** Marks `id` handled; `reply` is re-sent to duplicates. Kept for the store's TTL. */
  complete(id: string, reply: ReplyBody | undefined): Promise<void>;
  /** Forgets a claim whose message was not handled (requeued, dead-lettered, defect), so that a redelivery runs it. */
  release(id: string): Promise<void>;
  /** Reads the record of `id`, if any. */
  get(id: string): Promise<DedupeRecord | undefined>;
}
