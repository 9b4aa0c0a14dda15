import type { ActorSystemApi } from '../../src/kernel/kernel.types';
import type { Logger } from '../../src/logging/logger';
import type { CachePort } from '../../src/store/cache';
import { SharedRevocationSchema, type RevocationList, type SharedRevocation } from './revocation-list';

/** Broadcast to every node when a token (or an account's older tokens) is revoked. */
export const TOKEN_REVOKED_BROADCAST = 'auth.tokenRevoked';

/** The cache log of revocations: a sequence number and one entry per revocation (until it is useless). */
const SEQ_KEY = 'auth:revocations:seq';
const LOG_PREFIX = 'auth:revocations:log:';
/** Entries read per `mget`, and at most per sync pass (a node far behind catches up over passes). */
const READ_BATCH = 500;
const MAX_PER_PASS = 10_000;

export type RevocationBroadcasts = Pick<ActorSystemApi, 'broadcast' | 'onBroadcast'>;

export interface RevocationFeedOptions {
  /** How often the node reads the cache log for revocations it missed, in ms. Default 1000. */
  syncIntervalMs?: number;
  /**
   * How long after its last complete sync the node still trusts its list alone, in ms. Past it,
   * `fresh` is false and tokens are checked in the cache again on every request. Default 3000.
   */
  staleAfterMs?: number;
  /**
   * How long a missing log entry (written by a node between its `incr` and its `set`) is waited
   * for before it is skipped as expired or abandoned, in ms. Default 10000.
   */
  gapWaitMs?: number;
  logger?: Logger;
}

const ttlUntil = (expiresAtMs: number) => Math.max(1000, expiresAtMs - Date.now());

/**
 * Appends a revocation to the cache log (numbered by `incr`), where nodes that missed its broadcast
 * find it at their next sync. Each entry lives until the tokens it refuses expire.
 */
export async function appendRevocation(cache: CachePort, record: SharedRevocation): Promise<void> {
  const seq = await cache.incr(SEQ_KEY);
  await cache.set(LOG_PREFIX + seq, JSON.stringify(record), { ttlMs: ttlUntil(record.expiresAt) });
}

/**
 * Keeps this process's `RevocationList` in step with every other node's revocations:
 *
 * - **at once** through the broadcast `auth.tokenRevoked`, sent by the revoking node;
 * - **within `syncIntervalMs`** (1 s) for a node that missed the broadcast: it reads the cache
 *   log from where it left off (one `get` of the sequence per interval when nothing changed).
 *
 * `fresh` tells whether the last complete sync is recent (`staleAfterMs`): when it is not (the
 * cache unreachable, the timer not started), the token service goes back to one cache read per
 * request, so a revocation is never missed for longer than that bound.
 */
export class RevocationFeed {
  private cursor = 0;
  private lastCompleteAt = 0;
  private readonly gaps = new Map<number, number>();
  private syncing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private readonly syncIntervalMs: number;
  private readonly staleAfterMs: number;
  private readonly gapWaitMs: number;

  constructor(
    private readonly cache: CachePort,
    private readonly list: RevocationList,
    private readonly broadcasts: RevocationBroadcasts,
    private readonly options: RevocationFeedOptions = {},
  ) {
    this.syncIntervalMs = options.syncIntervalMs ?? 1000;
    this.staleAfterMs = options.staleAfterMs ?? 3000;
    this.gapWaitMs = options.gapWaitMs ?? 10_000;
  }

  /** Whether the list alone may decide (a complete sync within `staleAfterMs`). */
  get fresh(): boolean {
    return this.lastCompleteAt !== 0 && Date.now() - this.lastCompleteAt <= this.staleAfterMs;
  }

  /**
   * First step of the boot: listen to broadcasts and note where the log stands, before the
   * revocations already made are loaded from the durable store (`fromHead`); without a durable
   * store the whole log is read instead (`fromHead` false).
   */
  async begin(fromHead: boolean): Promise<void> {
    this.unsubscribe ??= this.broadcasts.onBroadcast(TOKEN_REVOKED_BROADCAST, (body) => {
      const parsed = SharedRevocationSchema.safeParse(body);
      if (parsed.success) this.list.apply(parsed.data);
    });
    if (!fromHead) return;
    try {
      this.cursor = await this.head();
    } catch (err) {
      // Read from the start once the cache answers.
      this.options.logger?.warn({ err }, 'revocations: cache log unreadable at start');
    }
  }

  /** Second step: a first sync, then one every `syncIntervalMs`. */
  async run(): Promise<void> {
    await this.sync().catch((err: unknown) =>
      this.options.logger?.warn({ err }, 'revocations: first sync failed; tokens are checked in the cache'),
    );
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.sync().catch((err: unknown) =>
        this.options.logger?.debug({ err }, 'revocations: sync failed (will retry)'),
      );
    }, this.syncIntervalMs);
    this.timer.unref();
  }

  /** Tells every node (log first, then broadcast: a lost broadcast is caught up by the sync). */
  async publish(record: SharedRevocation): Promise<void> {
    await appendRevocation(this.cache, record);
    await this.broadcasts.broadcast(TOKEN_REVOKED_BROADCAST, record).catch((err: unknown) => {
      this.options.logger?.warn(
        { err },
        'revocations: broadcast failed; other nodes learn it at their next sync',
      );
    });
  }

  /** Reads the log entries after the cursor (one pass at a time). */
  sync(): Promise<void> {
    this.syncing ??= this.pass().finally(() => {
      this.syncing = undefined;
    });
    return this.syncing;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  private async head(): Promise<number> {
    return Number((await this.cache.get(SEQ_KEY)) ?? 0);
  }

  private async pass(): Promise<void> {
    const startedAt = Date.now();
    const head = await this.head();
    if (head < this.cursor) {
      // The sequence went back: the cache was emptied. Its new entries start again from 1.
      this.cursor = 0;
      this.gaps.clear();
    }
    const until = Math.min(head, this.cursor + MAX_PER_PASS);
    let cursor = this.cursor;
    let waiting = false;
    for (let low = this.cursor + 1; low <= until; low += READ_BATCH) {
      const high = Math.min(until, low + READ_BATCH - 1);
      const keys: string[] = [];
      for (let seq = low; seq <= high; seq++) keys.push(LOG_PREFIX + seq);
      const values = await this.cache.mget(keys);
      values.forEach((value, i) => {
        const seq = low + i;
        let done = value !== null;
        if (value !== null) this.applyEntry(value);
        else {
          // Not written yet (the writer is between `incr` and `set`), or already expired.
          const since = this.gaps.get(seq) ?? startedAt;
          this.gaps.set(seq, since);
          done = startedAt - since >= this.gapWaitMs;
        }
        if (done) this.gaps.delete(seq);
        // The cursor stops before the first entry still awaited; entries after it are applied
        // anyway (applying twice is harmless) and read again next time.
        if (!done) waiting = true;
        else if (!waiting) cursor = seq;
      });
    }
    this.cursor = cursor;
    if (until === head) this.lastCompleteAt = startedAt;
  }

  private applyEntry(value: string): void {
    try {
      const parsed = SharedRevocationSchema.safeParse(JSON.parse(value));
      if (parsed.success) this.list.apply(parsed.data);
    } catch {
      // Not JSON: not an entry of ours.
    }
  }
}
