import { performance } from 'node:perf_hooks';
import { isAppError } from '../../schemas/errors';
import type { Logger } from '../../src/logging/logger';
import { TimeoutLists } from '../../src/transport/timeout-list';

/** What `attempt` resolves when the cache did not answer (failed or too slow): use the documents. */
export const CACHE_MISSED = Symbol('membership.cacheMissed');

export interface MembershipCacheLinkOptions {
  /**
   * Longest wait for one cache call before the membership reads the documents instead, in ms.
   * Far below the Redis adapter's own command timeout (2 s): a listing must not wait that long
   * for a cache it can do without. Default 250.
   */
  timeoutMs?: number;
  /**
   * After a failure, how long reads skip the cache and go to the documents directly, in ms, so
   * that a cache that hangs (rather than refusing at once) costs one `timeoutMs` per period, not
   * per request. Changes still try the cache. Default 1000.
   */
  retryAfterMs?: number;
  /** Told of every failure (the epoch then distrusts itself). */
  onFailure?: () => void;
  logger?: Logger;
  /** Monotonic clock, for tests. Default `performance.now`. */
  now?: () => number;
}

/**
 * The membership's calls to the cache port, bounded in time, with the outage they reveal: the
 * first failure logs a warning, the first success of a call started after the last failure logs
 * the recovery (with what the outage cost), and nothing is logged per request in between.
 */
export class MembershipCacheLink {
  private readonly timeoutMs: number;
  private readonly retryAfterMs: number;
  private readonly now: () => number;
  private readonly deadlines = new TimeoutLists<() => void>((expire) => expire());
  private lastFailureAt = -Infinity;
  private outage?: { since: number; reads: number; bumps: number };

  constructor(private readonly options: MembershipCacheLinkOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 250;
    this.retryAfterMs = options.retryAfterMs ?? 1000;
    this.now = options.now ?? (() => performance.now());
  }

  /** Whether reads should skip the cache for now (it failed less than `retryAfterMs` ago). */
  get resting(): boolean {
    return this.now() - this.lastFailureAt < this.retryAfterMs;
  }

  /** Runs one cache call within `timeoutMs`; any failure (or the timeout) is `CACHE_MISSED`. */
  async attempt<T>(op: string, call: () => Promise<T>): Promise<T | typeof CACHE_MISSED> {
    const startedAt = this.now();
    let expire!: () => void;
    const deadline = new Promise<never>((_, reject) => {
      expire = () => reject(new Error(`no answer within ${this.timeoutMs} ms`));
    });
    // One shared timer for every call in flight (a timer per call was most of this class's cost).
    const handle = this.deadlines.add(expire, this.timeoutMs);
    try {
      // The losing call's later rejection is handled by the race: it never goes unhandled.
      const value = await Promise.race([call(), deadline]);
      if (startedAt > this.lastFailureAt) this.recovered();
      return value;
    } catch (err) {
      this.failed(op, err);
      return CACHE_MISSED;
    } finally {
      this.deadlines.remove(handle);
    }
  }

  /** Counts a read answered from the documents during an outage (reported at recovery). */
  countFallbackRead(): void {
    if (this.outage) this.outage.reads++;
  }

  /** Counts a change that raised the epoch because it could not reach the cache. */
  countBump(): void {
    if (this.outage) this.outage.bumps++;
  }

  private failed(op: string, err: unknown): void {
    this.lastFailureAt = this.now();
    this.options.onFailure?.();
    if (this.outage) return;
    this.outage = { since: this.lastFailureAt, reads: 0, bumps: 0 };
    this.options.logger?.warn(
      {
        op,
        code: isAppError(err) ? err.code : undefined,
        reason: isAppError(err) ? err.details.reason : (err as Error)?.message,
      },
      'workspace membership: cache unreachable; reading membership from the document store until it answers',
    );
  }

  private recovered(): void {
    const outage = this.outage;
    if (!outage) return;
    this.outage = undefined;
    this.options.logger?.info(
      {
        downMs: Math.round(this.now() - outage.since),
        readsFromDocuments: outage.reads,
        epochBumps: outage.bumps,
      },
      'workspace membership: cache answering again',
    );
  }
}
