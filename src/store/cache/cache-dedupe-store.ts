import type { ReplyBody } from '../../../schemas/envelope';
import type { DedupeRecord, DedupeStore } from '../../kernel/dedupe-store';
import type { CachePort } from './cache.port';

/** Options of the dedupe store on the cache. */
export interface CacheDedupeStoreOptions {
  /** How long a handled id (and its reply) is remembered, in ms. Default 600000 (10 minutes). */
  doneTtlMs?: number;
  /**
   * The longest lease written at once, in ms. A longer claim (the kernel asks for the message's
   * deadline plus 5 s) is written with this TTL and extended while this store holds it, so the
   * claim of a node that died lapses within this time instead of at the deadline. Default 15000.
   */
  maxLeaseMs?: number;
  /** Clock, for tests. Default Date.now. */
  now?: () => number;
}

const PENDING = 'pending:';
const DONE = 'done';
const DONE_WITH_REPLY = 'done:';
/** Claim attempts when the record vanishes between SET NX and GET (it expired in between). */
const CLAIM_ATTEMPTS = 3;

/**
 * The DedupeStore on the cache port, shared by every node using the same cache (Redis). One key
 * per envelope id, in whatever namespace the cache given is (for example
 * `cache.namespace('kernel:dedupe:')`):
 *
 * - claim: `SET id "pending:<owner>" NX PX lease`; when the key exists, its record is read back;
 * - complete: `SET id "done" | "done:<JSON reply>" PX doneTtlMs`;
 * - release: `DEL id`.
 *
 * Claims longer than `maxLeaseMs` are renewed (`PEXPIRE`) by one timer for all of them, every
 * `maxLeaseMs / 3`, until completed, released or their requested lease ends.
 *
 * `release` deletes the key whoever holds it: a node releases only what it claimed, so this goes
 * wrong only when its claim had already lapsed and another node claimed the id meanwhile (the
 * other copy then runs too; idempotent handlers tolerate it, as any duplicate).
 */
export class CacheDedupeStore implements DedupeStore {
  private readonly doneTtlMs: number;
  private readonly maxLeaseMs: number;
  private readonly now: () => number;
  /** Claims of this store longer than `maxLeaseMs`, by id: until when to keep renewing them. */
  private readonly held = new Map<string, number>();
  private renewer?: NodeJS.Timeout;

  constructor(
    private readonly cache: CachePort,
    options: CacheDedupeStoreOptions = {},
  ) {
    this.doneTtlMs = options.doneTtlMs ?? 600_000;
    this.maxLeaseMs = options.maxLeaseMs ?? 15_000;
    this.now = options.now ?? Date.now;
  }

  async claim(id: string, owner: string, leaseMs: number): Promise<DedupeRecord | undefined> {
    const ttlMs = Math.max(1, Math.min(leaseMs, this.maxLeaseMs));
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
      if (await this.cache.set(id, PENDING + owner, { onlyIfAbsent: true, ttlMs })) {
        if (leaseMs > ttlMs) this.hold(id, this.now() + leaseMs);
        return undefined;
      }
      const existing = await this.cache.get(id);
      // Null: the record expired between the two calls; claim again.
      if (existing !== null) return decodeRecord(existing);
    }
    // The key keeps appearing and vanishing: treat the id as new (delivery is at least once).
    return undefined;
  }

  async complete(id: string, reply: ReplyBody | undefined): Promise<void> {
    this.held.delete(id);
    const value = reply === undefined ? DONE : DONE_WITH_REPLY + JSON.stringify(reply);
    await this.cache.set(id, value, { ttlMs: this.doneTtlMs });
  }

  async release(id: string): Promise<void> {
    this.held.delete(id);
    await this.cache.delete(id);
  }

  async get(id: string): Promise<DedupeRecord | undefined> {
    const value = await this.cache.get(id);
    return value === null ? undefined : decodeRecord(value);
  }

  /** Stops renewing claims (they lapse by themselves). Does not close the cache. */
  close(): void {
    this.held.clear();
    if (this.renewer) clearInterval(this.renewer);
    this.renewer = undefined;
  }

  private hold(id: string, until: number): void {
    this.held.set(id, until);
    if (this.renewer) return;
    this.renewer = setInterval(() => this.renew(), Math.max(1, Math.floor(this.maxLeaseMs / 3)));
    this.renewer.unref();
  }

  private renew(): void {
    const now = this.now();
    for (const [id, until] of this.held) {
      const left = until - now;
      if (left <= 0) {
        this.held.delete(id);
        continue;
      }
      // A failed renewal only shortens the claim; the next tick tries again.
      this.cache.expire(id, Math.min(left, this.maxLeaseMs)).catch(() => undefined);
    }
    if (this.held.size === 0 && this.renewer) {
      clearInterval(this.renewer);
      this.renewer = undefined;
    }
  }
}

/** Reads a stored record; anything unreadable counts as unknown (the message then runs). */
export function decodeRecord(value: string): DedupeRecord | undefined {
  if (value.startsWith(PENDING)) return { state: 'pending', owner: value.slice(PENDING.length) };
  if (value === DONE) return { state: 'done' };
  if (value.startsWith(DONE_WITH_REPLY)) {
    try {
      const reply = JSON.parse(value.slice(DONE_WITH_REPLY.length)) as ReplyBody | null;
      if (typeof reply !== 'object' || reply === null || typeof reply.kind !== 'string') return undefined;
      return { state: 'done', reply };
    } catch {
      return undefined;
    }
  }
  return undefined;
}
