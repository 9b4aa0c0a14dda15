import type { ReplyBody } from '../../schemas/envelope';
import { silentLogger, type Logger } from '../logging/logger';
import type { ClaimOptions, DedupeRecord, DedupeStore } from './dedupe-store';
import { MemoryDedupeStore } from './memory-dedupe-store';

/** Options of `LayeredDedupeStore`. */
export interface LayeredDedupeStoreOptions {
  /** The store every node sees (for example `CacheDedupeStore` on Redis). */
  shared: DedupeStore;
  /** This node's record. Default: a `MemoryDedupeStore` with its defaults. */
  local?: DedupeStore;
  /** Where failures of the shared store are reported (at most one line per 10 s). Default silent. */
  logger?: Logger;
  /** Called by `close()` (for example to stop the shared store's lease renewals). */
  onClose?: () => void;
}

const WARN_EVERY_MS = 10_000;

/**
 * A local record in front of a shared one, so that the hot path stays in memory:
 *
 * - `claim` asks the local record first (a duplicate on this node is found there, with no round
 *   trip). When the id is new here, the shared record is asked only if `options.shared` is not
 *   false: the broker redelivered the message, or its kind declares `dedupe: 'shared'`. A first
 *   delivery of an id the kernel made up cannot be known to another node, so it costs nothing more
 *   than the memory store.
 * - `complete` and `release` always update the local record, and the shared one only for ids this
 *   node claimed there. The kernel does not wait for them: a reply is never delayed by the cache.
 * - `get` (a duplicate waiting for its first copy) reads the local record, then the shared one.
 *
 * The shared store failing is not fatal: the message is handled as new (delivery is at least once)
 * and the failure is logged, at most once per 10 s.
 */
export class LayeredDedupeStore implements DedupeStore {
  readonly local: DedupeStore;
  readonly shared: DedupeStore;
  /** Ids this node claimed in the shared record and has not completed or released yet. */
  private readonly claimedShared = new Set<string>();
  private readonly log: Logger;
  private readonly onClose?: () => void;
  private lastWarnAt = 0;
  private failuresSinceWarn = 0;

  constructor(options: LayeredDedupeStoreOptions) {
    this.shared = options.shared;
    this.local = options.local ?? new MemoryDedupeStore();
    this.log = options.logger ?? silentLogger;
    this.onClose = options.onClose;
  }

  claim(
    id: string,
    owner: string,
    leaseMs: number,
    options?: ClaimOptions,
  ): Promise<DedupeRecord | undefined> {
    if (options?.shared === false) return this.local.claim(id, owner, leaseMs, options);
    return this.claimShared(id, owner, leaseMs, options);
  }

  complete(id: string, reply: ReplyBody | undefined): Promise<void> {
    if (this.claimedShared.delete(id)) {
      this.shared.complete(id, reply).then(undefined, (err: unknown) => this.failed(err, 'complete'));
    }
    return this.local.complete(id, reply);
  }

  release(id: string): Promise<void> {
    if (this.claimedShared.delete(id)) {
      this.shared.release(id).then(undefined, (err: unknown) => this.failed(err, 'release'));
    }
    return this.local.release(id);
  }

  async get(id: string): Promise<DedupeRecord | undefined> {
    const local = await this.local.get(id);
    if (local?.state === 'done') return local;
    try {
      return (await this.shared.get(id)) ?? local;
    } catch (err) {
      this.failed(err, 'get');
      return local;
    }
  }

  /** Ids claimed in the shared record and not concluded yet (status, tests). */
  get sharedClaims(): number {
    return this.claimedShared.size;
  }

  close(): void {
    this.onClose?.();
  }

  private async claimShared(
    id: string,
    owner: string,
    leaseMs: number,
    options: ClaimOptions | undefined,
  ): Promise<DedupeRecord | undefined> {
    const local = await this.local.claim(id, owner, leaseMs, options);
    if (local !== undefined) return local;
    let record: DedupeRecord | undefined;
    try {
      record = await this.shared.claim(id, owner, leaseMs, options);
    } catch (err) {
      this.failed(err, 'claim');
      return undefined; // handled as new: the local claim stands
    }
    if (record === undefined) {
      this.claimedShared.add(id);
      return undefined;
    }
    // Known elsewhere. Done: remember the outcome here too, so later copies stay local.
    // Pending on another node: drop the local claim, which is not ours to run.
    if (record.state === 'done') await this.local.complete(id, record.reply);
    else await this.local.release(id);
    return record;
  }

  private failed(err: unknown, operation: string): void {
    this.failuresSinceWarn++;
    const now = Date.now();
    if (now - this.lastWarnAt < WARN_EVERY_MS) return;
    this.log.warn(
      { err, operation, failures: this.failuresSinceWarn },
      'kernel: shared dedupe store unavailable, duplicates on other nodes may run again',
    );
    this.lastWarnAt = now;
    this.failuresSinceWarn = 0;
  }
}
