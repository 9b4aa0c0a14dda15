import { createHash } from 'node:crypto';
import { AppError } from '../../../schemas/errors';

/**
 * The cache port: short-lived, cache-like data (sessions, one-time tokens, counters, rate limits,
 * per-agent scratch memory). Two implementations behave the same way and pass the same
 * conformance suite: `RedisCache` (shared by every process) and `MemoryCache` (one process).
 *
 * Conventions shared by every operation:
 * - Keys and values are strings; callers JSON-encode structured values.
 * - Durations are milliseconds (`ttlMs`), integers >= 1 (fractions are rounded up).
 * - A key without a TTL lives until deleted (or evicted, for the bounded memory cache).
 * - Failures reject with `AppError`: `UNAVAILABLE` (retryable) when the backing store cannot be
 *   reached or the cache is closed; `INTERNAL_ERROR` for misuse the store refuses (for example
 *   `incr` on a value that is not an integer). Calls never hang waiting for a reconnect.
 */
export interface CachePort {
  /** `'redis'` or `'memory'`; a namespaced view reports its root's kind. */
  readonly kind: CacheKind;
  /** Reads (`get`, each key of `mget`) that found a value or not, since start (metrics); a view shares its root's. */
  readonly reads?: CacheReads;

  /** The value, or null when the key is missing or expired. */
  get(key: string): Promise<string | null>;
  /** Values in the order of `keys` (null for each missing key). */
  mget(keys: readonly string[]): Promise<(string | null)[]>;
  /**
   * Writes the value and replaces the key's TTL (no `ttlMs` = no expiry). With `onlyIfAbsent`
   * nothing is written when the key exists. Resolves whether the value was written.
   */
  set(key: string, value: string, options?: CacheSetOptions): Promise<boolean>;
  /** Resolves whether a key was removed. */
  delete(key: string): Promise<boolean>;
  /**
   * Atomically adds `by` (an integer, default 1, may be negative) to the integer stored at the key
   * and resolves the new value. A missing key counts as 0; `ttlMs` is applied only when this call
   * creates the key, so a counter window is not extended by later increments.
   */
  incr(key: string, by?: number, options?: CacheIncrOptions): Promise<number>;
  /** Sets the key's TTL. Resolves false when the key does not exist. */
  expire(key: string, ttlMs: number): Promise<boolean>;
  /**
   * Milliseconds left before the key expires. Null in both cases where there is no countdown:
   * the key does not exist, or it has no TTL (use `get` to tell them apart).
   */
  ttl(key: string): Promise<number | null>;
  /**
   * Keys starting with `prefix` (the prefix is literal: glob characters have no meaning), sorted,
   * at most `limit` of them. When more keys match, which ones are returned is unspecified.
   */
  list(prefix: string, options?: CacheListOptions): Promise<string[]>;
  /** Atomic get-and-delete (one-time tokens): of concurrent takes, exactly one gets the value. */
  take(key: string): Promise<string | null>;
  /** A view whose keys are all prefixed with `prefix` (for example `agent:abc:`); views nest. */
  namespace(prefix: string): CachePort;
  /** Health for readiness probes; never throws. */
  status(): Promise<CacheStatus>;
  /** Releases connections and timers. A namespaced view's `close` does nothing. */
  close(): Promise<void>;
}

export type CacheKind = 'redis' | 'memory';

/** Options of `set`. */
export interface CacheSetOptions {
  /** Time to live in ms. Default: none (the key does not expire). */
  ttlMs?: number;
  /** Write only when the key does not exist (SET NX). Default false. */
  onlyIfAbsent?: boolean;
}

/** Options of `incr`. */
export interface CacheIncrOptions {
  /** TTL in ms given to the key when this call creates it. Default: none. */
  ttlMs?: number;
  /**
   * The id of the operation that increments (a tool call's envelope id): the increment is applied
   * at most once per id and key. A later call with the same id and key, a retry after an answer
   * lost with the connection, adds nothing and resolves the value the first call produced. The
   * mark is written atomically with the increment and kept `onceTtlMs`.
   */
  once?: string;
  /** How long the mark of `once` is kept, ms. Default `INCR_ONCE_TTL_MS` (10 minutes). */
  onceTtlMs?: number;
}

/**
 * How long `incr` remembers an operation id (`CacheIncrOptions.once`) by default: the window in
 * which the kernel answers a duplicate of a call from its record of handled ids (docs/kernel.md).
 */
export const INCR_ONCE_TTL_MS = 10 * 60_000;

/**
 * Where the mark of an operation id lives: beside no caller's keys (a namespace's `list` never
 * shows it), named after the full key and the id.
 */
export function incrOnceMark(key: string, id: string): string {
  return `incr-once:${createHash('sha256').update(`${key}\n${id}`).digest('base64url')}`;
}

/** Options of `list`. */
export interface CacheListOptions {
  /** Maximum number of keys returned. Default 1000, at most 10000. */
  limit?: number;
}

/** Health of a cache. `detail` is for people and never holds a secret. */
export interface CacheStatus {
  state: 'up' | 'down';
  detail: string;
}

/**
 * How `createRateLimiter` reaches the store behind a cache. Implementations expose it under this
 * symbol so the port's public surface stays free of driver types; a cache without it gets an
 * in-process limiter.
 */
export const RATE_LIMIT_BACKEND = Symbol('cache.rateLimitBackend');

export type RateLimitBackend =
  // `registry` lets limiters with the same settings share counters, as they would in Redis.
  | { kind: 'memory'; keyPrefix: string; registry: Map<string, unknown> }
  // The ioredis client, typed loosely here so the port does not import the driver.
  | { kind: 'redis'; keyPrefix: string; client: unknown };

export interface RateLimitCapable {
  [RATE_LIMIT_BACKEND](): RateLimitBackend;
}

export const DEFAULT_LIST_LIMIT = 1000;
export const MAX_LIST_LIMIT = 10_000;

/** Normalises a TTL argument: a positive finite number of ms, rounded up to an integer. */
export function normaliseTtl(ttlMs: number | undefined, op: string): number | undefined {
  if (ttlMs === undefined) return undefined;
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) {
    throw new AppError('INTERNAL_ERROR', `cache.${op}: ttlMs must be a positive number of milliseconds`, {
      ttlMs,
    });
  }
  return Math.ceil(ttlMs);
}

export function normaliseIncrement(by: number): number {
  if (!Number.isSafeInteger(by)) {
    throw new AppError('INTERNAL_ERROR', 'cache.incr: the increment must be a safe integer', { by });
  }
  return by;
}

export function normaliseLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_LIST_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new AppError('INTERNAL_ERROR', 'cache.list: limit must be a positive integer', { limit });
  }
  return Math.min(limit, MAX_LIST_LIMIT);
}

/** The error every implementation raises when it cannot serve a call. */
export function cacheUnavailable(detail: string, cause?: unknown): AppError {
  return new AppError('UNAVAILABLE', 'cache unavailable', { reason: detail }, { cause });
}

export function notAnInteger(key: string): AppError {
  return new AppError('INTERNAL_ERROR', 'cache.incr: the stored value is not an integer', { key });
}

/** Hits and misses of a cache's reads: two plain counters, bumped on every read. */
export class CacheReads {
  hits = 0;
  misses = 0;

  count<T>(value: T | null): T | null {
    if (value === null) this.misses++;
    else this.hits++;
    return value;
  }

  countAll<T>(values: (T | null)[]): (T | null)[] {
    for (const v of values) this.count(v);
    return values;
  }
}
