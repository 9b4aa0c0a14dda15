import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { AppError, isAppError } from '../../../schemas/errors';
import { RATE_LIMIT_BACKEND, type CachePort, type RateLimitCapable } from './cache.port';
import { mapRedisError } from './redis-errors';

/** Settings of one rate limit. */
export interface RateLimitOptions {
  /** Names the limit (`login`, `tool-call`); keys become `<cache prefix><keyPrefix>:<key>`. */
  keyPrefix: string;
  /** Points available per window. */
  points: number;
  /** Window length in whole seconds (>= 1). */
  durationSec: number;
  /** Once the window's points are spent, refuse the key for this many seconds. Default: 0 (none). */
  blockDurationSec?: number;
}

/** The outcome of one `consume`. */
export interface RateLimitDecision {
  allowed: boolean;
  /** When refused: ms until a retry can succeed. 0 when allowed. */
  retryAfterMs: number;
  /** Points left in the current window. */
  remaining: number;
  /** Ms until the current window (or block) ends. */
  resetMs: number;
}

/**
 * A rate limit over the cache's store. Being limited is a normal answer (`allowed: false`), not an
 * error; a store outage rejects with AppError UNAVAILABLE so it is never mistaken for "limited".
 */
export interface RateLimiter {
  consume(key: string, points?: number): Promise<RateLimitDecision>;
  /** Forgets the key's consumption (for example after a successful login). */
  reset(key: string): Promise<void>;
}

/**
 * Builds a limiter on the same store as `cache`: rate-limiter-flexible's `RateLimiterRedis` for a
 * Redis cache (counters shared by every process; fails fast when Redis is not ready), its
 * `RateLimiterMemory` otherwise. On a memory cache, limiters with the same settings share counters.
 */
export function createRateLimiter(cache: CachePort, options: RateLimitOptions): RateLimiter {
  if (!Number.isInteger(options.durationSec) || options.durationSec < 1) {
    throw new AppError('INTERNAL_ERROR', 'rate limiter: durationSec must be a whole number >= 1');
  }
  if (!Number.isInteger(options.points) || options.points < 1) {
    throw new AppError('INTERNAL_ERROR', 'rate limiter: points must be a positive integer');
  }
  const backend =
    RATE_LIMIT_BACKEND in cache
      ? (cache as CachePort & RateLimitCapable)[RATE_LIMIT_BACKEND]()
      : { kind: 'memory' as const, keyPrefix: '', registry: new Map<string, unknown>() };
  const settings = {
    keyPrefix: backend.keyPrefix + options.keyPrefix,
    points: options.points,
    duration: options.durationSec,
    blockDuration: options.blockDurationSec ?? 0,
  };
  let limiter: RateLimiterAbstract;
  if (backend.kind === 'redis') {
    limiter = new RateLimiterRedis({
      ...settings,
      storeClient: backend.client as Redis,
      useRedisPackage: false,
      // Refuse at once instead of waiting on a connection that is not there.
      rejectIfRedisNotReady: true,
    });
  } else {
    const id = JSON.stringify(settings);
    limiter =
      (backend.registry.get(id) as RateLimiterAbstract | undefined) ?? new RateLimiterMemory(settings);
    backend.registry.set(id, limiter);
  }
  return new FlexibleRateLimiter(limiter);
}

class FlexibleRateLimiter implements RateLimiter {
  constructor(private readonly limiter: RateLimiterAbstract) {}

  async consume(key: string, points = 1): Promise<RateLimitDecision> {
    try {
      const res = await this.limiter.consume(key, points);
      return {
        allowed: true,
        retryAfterMs: 0,
        remaining: res.remainingPoints,
        resetMs: Math.max(0, res.msBeforeNext),
      };
    } catch (rejection) {
      // The library rejects with a RateLimiterRes when the key is over its limit, and with an
      // Error when the store failed: only the first one means "limited".
      if (rejection instanceof RateLimiterRes) {
        const wait = Math.max(1, Math.ceil(rejection.msBeforeNext));
        return { allowed: false, retryAfterMs: wait, remaining: 0, resetMs: wait };
      }
      throw toUnavailable(rejection);
    }
  }

  async reset(key: string): Promise<void> {
    try {
      await this.limiter.delete(key);
    } catch (err) {
      throw toUnavailable(err);
    }
  }
}

/** A connection failure becomes UNAVAILABLE; a refused command stays a defect (INTERNAL_ERROR). */
function toUnavailable(err: unknown): AppError {
  return isAppError(err) ? err : mapRedisError(err, 'rateLimit');
}
