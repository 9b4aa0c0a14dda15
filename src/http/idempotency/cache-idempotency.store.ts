import type { CachePort } from '../../store/cache';
import type { IdempotencyRecord, IdempotencyStore } from './idempotency-store';

/** Claim attempts when the record vanishes between SET NX and GET (it expired or was released). */
const CLAIM_ATTEMPTS = 3;

/**
 * The IdempotencyStore on the cache port, one key per (caller, key) in whatever namespace the
 * cache given is (`src/boot` uses `idempotency:`): claim = `SET k <pending JSON> NX PX lease`,
 * then `GET` when it exists; renew = `PEXPIRE`; complete = `SET k <done JSON> PX ttl`; release =
 * `GET`, and `DEL` when the claim is still the caller's.
 *
 * The port has no compare-and-set, so `complete` overwrites whatever is there: it goes wrong only
 * when the claim had lapsed (its node stalled past the lease) and another request claimed the key
 * meanwhile, and then both requests ran anyway.
 */
export class CacheIdempotencyStore implements IdempotencyStore {
  constructor(private readonly cache: CachePort) {}

  async claim(
    key: string,
    fingerprint: string,
    owner: string,
    leaseMs: number,
  ): Promise<IdempotencyRecord | undefined> {
    const pending = JSON.stringify({ state: 'pending', fingerprint, owner });
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
      if (await this.cache.set(key, pending, { onlyIfAbsent: true, ttlMs: leaseMs })) return undefined;
      const existing = await this.cache.get(key);
      if (existing === null) continue; // expired or released in between: claim again
      const record = decodeRecord(existing);
      if (record) return record;
      // Not a record this store wrote (nothing else writes here): replace it rather than be stuck.
      await this.cache.delete(key);
    }
    // The key keeps appearing and vanishing: someone else is working on it; the caller waits.
    return { state: 'pending', fingerprint, owner: '' };
  }

  async renew(key: string, leaseMs: number): Promise<void> {
    await this.cache.expire(key, leaseMs);
  }

  async complete(
    key: string,
    record: Exclude<IdempotencyRecord, { state: 'pending' }>,
    ttlMs: number,
  ): Promise<void> {
    await this.cache.set(key, JSON.stringify(record), { ttlMs });
  }

  async release(key: string, owner: string): Promise<void> {
    const existing = await this.cache.get(key);
    const record = existing === null ? undefined : decodeRecord(existing);
    if (record?.state === 'pending' && record.owner === owner) await this.cache.delete(key);
  }
}

/** Reads a stored record; anything unreadable is undefined. */
export function decodeRecord(value: string): IdempotencyRecord | undefined {
  try {
    const record = JSON.parse(value) as Partial<IdempotencyRecord> | null;
    if (typeof record !== 'object' || record === null || typeof record.fingerprint !== 'string')
      return undefined;
    if (record.state === 'pending' && typeof record.owner === 'string') return record as IdempotencyRecord;
    if (record.state === 'done' && ('outcome' in record || 'notKept' in record))
      return record as IdempotencyRecord;
    return undefined;
  } catch {
    return undefined;
  }
}
