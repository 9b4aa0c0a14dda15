import type { Request, RequestHandler } from 'express';
import { errors } from '../../../schemas/errors';
import { createRateLimiter, type CachePort } from '../../store/cache';

/** One rate limit applied by `rateLimit`. */
export interface RateLimitRule {
  /** The cache the counters live in (`deps.services.cache`): Redis shares them between processes. */
  cache: CachePort;
  /** Names the limit; counters are keyed `rl:<name>:<key>`. Two rules with one name share counters. */
  name: string;
  /** Requests allowed per window and key; 0 = no limit (the middleware lets everything through). */
  points: number;
  /** Window length in whole seconds. */
  durationSec: number;
  /** Once refused, keep refusing the key for this many seconds. Default 0 (until the window ends). */
  blockDurationSec?: number;
  /**
   * The key(s) one request counts against, e.g. `(req) => [ipKey(req)]` or
   * `(req) => [`${req.ip}|${email}`]`. Each key is consumed once; the request is refused when any
   * key is over the limit. Return nothing (undefined or []) to skip the rule for this request (for
   * example when the body has no email: validation answers it next).
   */
  key: (req: Request) => string | readonly string[] | undefined;
  /** `error` of the 429. Default "Too many requests, retry later". */
  message?: string;
}

/** The client's address as Express sees it (`trust proxy` decides whether X-Forwarded-For counts). */
export function ipKey(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/** A lower-cased, trimmed string field of the JSON body, or undefined. */
export function bodyField(req: Request, field: string): string | undefined {
  const body = req.body as Record<string, unknown> | undefined;
  const value = body && typeof body === 'object' ? body[field] : undefined;
  return typeof value === 'string' && value.trim() !== '' ? value.trim().toLowerCase() : undefined;
}

/**
 * A middleware enforcing one rate limit on the cache port (`createRateLimiter`: Redis or memory).
 * Over the limit it fails with 429 RATE_LIMITED and `Retry-After` (seconds, from
 * `details.retryAfter`). A cache outage is 503 UNAVAILABLE (fail closed: an unreachable limiter
 * must not turn into unlimited password guessing). Put it after the body parser when the key reads
 * the body (route-level middleware always is).
 *
 * @example
 * router.post('/register',
 *   rateLimit({ cache, name: 'register-ip', points: 20, durationSec: 3600, key: (req) => ipKey(req) }),
 *   handler);
 */
export function rateLimit(rule: RateLimitRule): RequestHandler {
  if (rule.points === 0) return (_req, _res, next) => next();
  const limiter = createRateLimiter(rule.cache, {
    keyPrefix: `rl:${rule.name}`,
    points: rule.points,
    durationSec: rule.durationSec,
    blockDurationSec: rule.blockDurationSec,
  });
  const message = rule.message ?? 'Too many requests, retry later';
  return async (req, _res, next) => {
    try {
      const raw = rule.key(req);
      const keys = raw === undefined ? [] : typeof raw === 'string' ? [raw] : raw;
      if (keys.length > 0) {
        const decisions = await Promise.all(keys.map((k) => limiter.consume(`:${k}`)));
        const waitMs = Math.max(0, ...decisions.filter((d) => !d.allowed).map((d) => d.retryAfterMs));
        if (decisions.some((d) => !d.allowed)) {
          throw errors.rateLimited(message, Math.max(1, Math.ceil(waitMs / 1000)));
        }
      }
    } catch (err) {
      next(err);
      return;
    }
    next();
  };
}
