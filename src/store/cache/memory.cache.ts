import { performance } from 'node:perf_hooks';
import { AppError } from '../../../schemas/errors';
import {
  CacheReads,
  INCR_ONCE_TTL_MS,
  RATE_LIMIT_BACKEND,
  cacheUnavailable,
  incrOnceMark,
  normaliseIncrement,
  normaliseLimit,
  normaliseTtl,
  notAnInteger,
  type CacheIncrOptions,
  type CacheListOptions,
  type CachePort,
  type CacheSetOptions,
  type CacheStatus,
  type RateLimitBackend,
  type RateLimitCapable,
} from './cache.port';
import { NamespacedCache } from './namespaced.cache';

/** Bounds and housekeeping of the in-process cache. */
export interface MemoryCacheOptions {
  /** Most keys held; past it the least recently used key is evicted. Default 10000. */
  maxEntries?: number;
  /**
   * Approximate bound on the memory held by keys and values, counted as 2 bytes per UTF-16 code
   * unit; past it least recently used keys are evicted. Default 64 MiB.
   */
  maxBytes?: number;
  /**
   * Period of the background sweep that drops expired keys, in ms. Default 30000; 0 disables it.
   * Expiry is exact either way: every read checks the deadline; the sweep only frees memory.
   */
  sweepIntervalMs?: number;
}

interface Entry {
  value: string;
  /** `performance.now()` deadline; null = no TTL. */
  expiresAt: number | null;
  bytes: number;
}

const INTEGER = /^-?\d{1,16}$/;

/**
 * The cache of one process (embedded mode and tests). A `Map` keeps insertion order, so moving a
 * key to the end on each use makes the first key the least recently used one: eviction is O(1).
 * Deadlines use the monotonic clock so a wall-clock jump neither expires nor revives keys.
 */
export class MemoryCache implements CachePort, RateLimitCapable {
  readonly kind = 'memory' as const;
  readonly reads = new CacheReads();
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly sweeper: NodeJS.Timeout | undefined;
  private readonly limiters = new Map<string, unknown>();
  private bytes = 0;
  private evictions = 0;
  private closed = false;

  constructor(options: MemoryCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    const sweepIntervalMs = options.sweepIntervalMs ?? 30_000;
    if (sweepIntervalMs > 0) {
      this.sweeper = setInterval(() => this.sweep(), sweepIntervalMs);
      // A cache must never keep a process alive on its own.
      this.sweeper.unref();
    }
  }

  /** Counters for tests and metrics (`entries` may include expired keys not yet swept). */
  stats(): { entries: number; bytes: number; evictions: number } {
    return { entries: this.entries.size, bytes: this.bytes, evictions: this.evictions };
  }

  /** Drops every expired key now; returns how many were dropped. */
  sweep(): number {
    const now = performance.now();
    let dropped = 0;
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt !== null && entry.expiresAt <= now) {
        this.remove(key, entry);
        dropped++;
      }
    }
    return dropped;
  }

  async get(key: string): Promise<string | null> {
    this.assertOpen();
    return this.reads.count(this.live(key, true)?.value ?? null);
  }

  async mget(keys: readonly string[]): Promise<(string | null)[]> {
    this.assertOpen();
    return keys.map((key) => this.reads.count(this.live(key, true)?.value ?? null));
  }

  async set(key: string, value: string, options: CacheSetOptions = {}): Promise<boolean> {
    this.assertOpen();
    const ttlMs = normaliseTtl(options.ttlMs, 'set');
    if (options.onlyIfAbsent && this.live(key, false)) return false;
    this.write(key, value, ttlMs === undefined ? null : performance.now() + ttlMs);
    return true;
  }

  async delete(key: string): Promise<boolean> {
    this.assertOpen();
    const entry = this.live(key, false);
    if (!entry) return false;
    this.remove(key, entry);
    return true;
  }

  async incr(key: string, by = 1, options: CacheIncrOptions = {}): Promise<number> {
    this.assertOpen();
    const step = normaliseIncrement(by);
    const ttlMs = normaliseTtl(options.ttlMs, 'incr');
    const mark = options.once === undefined ? undefined : incrOnceMark(key, options.once);
    const markTtlMs = normaliseTtl(options.onceTtlMs ?? INCR_ONCE_TTL_MS, 'incr') as number;
    if (mark !== undefined) {
      const done = this.live(mark, false);
      if (done) return Number(done.value);
    }
    const entry = this.live(key, false);
    let current = 0;
    if (entry) {
      if (!INTEGER.test(entry.value)) throw notAnInteger(key);
      current = Number(entry.value);
    }
    const next = current + step;
    if (!Number.isSafeInteger(next)) throw notAnInteger(key);
    const expiresAt = entry ? entry.expiresAt : ttlMs === undefined ? null : performance.now() + ttlMs;
    this.write(key, String(next), expiresAt);
    if (mark !== undefined) this.write(mark, String(next), performance.now() + markTtlMs);
    return next;
  }

  async expire(key: string, ttlMs: number): Promise<boolean> {
    this.assertOpen();
    const ms = normaliseTtl(ttlMs, 'expire') as number;
    const entry = this.live(key, false);
    if (!entry) return false;
    entry.expiresAt = performance.now() + ms;
    return true;
  }

  async ttl(key: string): Promise<number | null> {
    this.assertOpen();
    const entry = this.live(key, false);
    if (!entry || entry.expiresAt === null) return null;
    return Math.max(1, Math.ceil(entry.expiresAt - performance.now()));
  }

  async list(prefix: string, options: CacheListOptions = {}): Promise<string[]> {
    this.assertOpen();
    const limit = normaliseLimit(options.limit);
    const now = performance.now();
    const keys: string[] = [];
    for (const [key, entry] of this.entries) {
      if (!key.startsWith(prefix)) continue;
      if (entry.expiresAt !== null && entry.expiresAt <= now) {
        this.remove(key, entry);
        continue;
      }
      keys.push(key);
    }
    return keys.sort().slice(0, limit);
  }

  async take(key: string): Promise<string | null> {
    this.assertOpen();
    const entry = this.live(key, false);
    if (!entry) return null;
    this.remove(key, entry);
    return entry.value;
  }

  namespace(prefix: string): CachePort {
    return NamespacedCache.over(this, prefix);
  }

  async status(): Promise<CacheStatus> {
    if (this.closed) return { state: 'down', detail: 'memory cache closed' };
    return { state: 'up', detail: `memory cache, ${this.entries.size}/${this.maxEntries} keys` };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.sweeper) clearInterval(this.sweeper);
    this.entries.clear();
    this.limiters.clear();
    this.bytes = 0;
  }

  [RATE_LIMIT_BACKEND](): RateLimitBackend {
    return { kind: 'memory', keyPrefix: '', registry: this.limiters };
  }

  private assertOpen(): void {
    if (this.closed) throw cacheUnavailable('memory cache closed');
  }

  /** The entry when present and not expired; `touch` marks it most recently used. */
  private live(key: string, touch: boolean): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt !== null && entry.expiresAt <= performance.now()) {
      this.remove(key, entry);
      return undefined;
    }
    if (touch) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  private write(key: string, value: string, expiresAt: number | null): void {
    const bytes = 2 * (key.length + value.length);
    if (bytes > this.maxBytes) {
      throw new AppError('PAYLOAD_TOO_LARGE', 'cache value larger than the memory cache bound', {
        bytes,
        maxBytes: this.maxBytes,
      });
    }
    const previous = this.entries.get(key);
    if (previous) this.remove(key, previous);
    this.entries.set(key, { value, expiresAt, bytes });
    this.bytes += bytes;
    // The entry just written is the most recent one, so it is never the one evicted here.
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const [oldestKey, oldest] = this.entries.entries().next().value as [string, Entry];
      this.remove(oldestKey, oldest);
      this.evictions++;
    }
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
