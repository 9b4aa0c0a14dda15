import type { MembershipEpochDocument } from '../../schemas/documents/workspace-membership-epoch';
import { performance } from 'node:perf_hooks';
import { isAppError } from '../../schemas/errors';
import { type Repository } from '../../src/store/mongo';

/**
 * The membership epoch (docs/workspaces.md, "Cache"): one counter in the document store, raised
 * each time a membership change could not reach the cache (the cache was down, so the member's
 * cached list could not be invalidated there). Every cached list carries the epoch its reader
 * knew before loading it; a list from an older epoch is never served. That is how a list cached
 * before an outage stays unused after the cache comes back, whatever the outage made the cache
 * miss. The counter only moves during outages, so in the normal case every process reads it once
 * in a while (`maxAgeMs`), never once per request.
 */
const EPOCH_ID = 'membership';

export interface MembershipEpochOptions {
  /**
   * How long this process trusts the epoch it read without reading it again, in ms. It bounds how
   * long a process that saw nothing of an outage (its own cache calls never failed) may trust the
   * epoch from before it. Infinity when the cache is this process's own (nobody else can miss an
   * invalidation in it). Default 1000.
   */
  maxAgeMs?: number;
  /** Monotonic clock, for tests. Default `performance.now`. */
  now?: () => number;
}

/** This process's view of the epoch: read lazily, shared by concurrent readers, only ever raised. */
export class MembershipEpoch {
  private readonly maxAgeMs: number;
  private readonly now: () => number;
  private value = 0;
  /** When the read that gave `value` started; -Infinity until the first read. */
  private readAt = -Infinity;
  /** The last time this process saw the cache fail: a read must start after it to be trusted. */
  private distrustSince = -Infinity;
  private inFlight?: { startedAt: number; promise: Promise<number> };

  constructor(
    private readonly epochs: Repository<MembershipEpochDocument>,
    options: MembershipEpochOptions = {},
  ) {
    this.maxAgeMs = options.maxAgeMs ?? 1000;
    this.now = options.now ?? (() => performance.now());
  }

  /**
   * The epoch a cached list must carry to be served: the one this process knows when it is fresh
   * (read after the last cache failure seen here, and within `maxAgeMs`), otherwise read again.
   * A number when known at once (the usual case: no promise on the hot path).
   */
  current(): number | Promise<number> {
    const now = this.now();
    if (this.readAt > this.distrustSince && now - this.readAt <= this.maxAgeMs) return this.value;
    // Join a read already on its way only if it started after the last failure seen here: one
    // that started before it may predate the epoch raised during that outage.
    if (this.inFlight && this.inFlight.startedAt > this.distrustSince) return this.inFlight.promise;
    const startedAt = now;
    const promise = this.read().then((value) => {
      this.learn(value, startedAt);
      return this.value;
    });
    const flight = { startedAt, promise };
    this.inFlight = flight;
    const clear = () => {
      if (this.inFlight === flight) this.inFlight = undefined;
    };
    promise.then(clear, clear);
    return promise;
  }

  /** The cache failed here: read the epoch again before trusting a cached list. */
  distrust(): void {
    this.distrustSince = this.now();
  }

  /** A cached entry written by a process that knew a later epoch: a lower bound, taken at once. */
  observe(value: number): void {
    if (value > this.value) this.value = value;
  }

  /**
   * Raises the epoch (a change could not invalidate the cache): every list cached before, in every
   * process, is refused from now on (at once here, within `maxAgeMs` elsewhere; see the doc).
   */
  async bump(): Promise<number> {
    const startedAt = this.now();
    const update = { $inc: { epoch: 1 }, $set: { bumpedAt: new Date() } };
    let doc: MembershipEpochDocument | null;
    try {
      doc = await this.epochs.findOneAndUpdate({ _id: EPOCH_ID }, update, { upsert: true });
    } catch (err) {
      // Two first-ever bumps racing: the loser's upsert hits the unique `_id`; the document exists now.
      if (!isAppError(err) || err.code !== 'CONFLICT') throw err;
      doc = await this.epochs.findOneAndUpdate({ _id: EPOCH_ID }, update);
    }
    const value = doc?.epoch ?? 0;
    this.learn(value, startedAt);
    return value;
  }

  private async read(): Promise<number> {
    return (await this.epochs.findById(EPOCH_ID))?.epoch ?? 0;
  }

  private learn(value: number, readAt: number): void {
    this.observe(value);
    if (readAt > this.readAt) this.readAt = readAt;
  }
}
