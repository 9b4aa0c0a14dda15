import { createSecretKey, type KeyObject } from 'node:crypto';
import { Redis } from 'ioredis';
import jwt from 'jsonwebtoken';
import { verifyOwnHs256 } from '../../actors/identity/hs256';
import { ClaimsSealer } from '../../actors/identity/sealed-claims';

/**
 * What the references of `bench:mcp` (bare.child, raw-amqp.child) do for a `POST /mcp`, shared so
 * that both do exactly the same: the bearer check of the service (its direct HS256 check,
 * jsonwebtoken for any other token shape, the secret as a KeyObject, the sealed claims opened as
 * `TokenService` opens them the first time it sees a token; no revocation check) and the
 * Redis calls of `mem_set` (one SET with the 7-day TTL) and `mem_get` (one GET).
 */

const SEVEN_DAYS = 7 * 24 * 3600;

/** The token's subject, or undefined when the header holds no valid token. */
export function bearerSubject(
  header: string | undefined,
  key: KeyObject,
  sealer: ClaimsSealer,
): string | undefined {
  try {
    const token = (header ?? '').slice(7);
    const fast = verifyOwnHs256(token, key, Math.floor(Date.now() / 1000));
    if (fast.kind === 'invalid' || fast.kind === 'expired') return undefined;
    const payload =
      fast.kind === 'valid'
        ? fast.payload
        : (jwt.verify(token, key, { algorithms: ['HS256'] }) as Record<string, unknown>);
    const claims = sealer.claimsOf(payload);
    return claims === undefined ? undefined : String(claims.sub);
  } catch {
    return undefined;
  }
}

/** An answer: HTTP status and JSON body. */
export interface MemAnswer {
  status: number;
  body: unknown;
}

export const UNAUTHORIZED: MemAnswer = {
  status: 401,
  body: { success: false, error: 'Unauthorized', code: 'UNAUTHORIZED' },
};

/** `mem_set`/`mem_get` of `body` for `sub`, keys under `prefix`. */
export async function memCall(redis: Redis, prefix: string, sub: string, body: unknown): Promise<MemAnswer> {
  const call = body as { tool?: string; input?: { key?: string; value?: unknown } } | null;
  const k = `${prefix}${sub}:${String(call?.input?.key)}`;
  try {
    if (call?.tool === 'mem_set') {
      await redis.set(k, JSON.stringify(call.input?.value ?? null), 'EX', SEVEN_DAYS);
      return { status: 200, body: { success: true, result: true } };
    }
    if (call?.tool === 'mem_get') {
      const v = await redis.get(k);
      return {
        status: 200,
        body: {
          success: true,
          result:
            v === null ? { value: null, found: false } : { value: JSON.parse(v) as unknown, found: true },
        },
      };
    }
    return { status: 404, body: { success: false, code: 'NOT_FOUND' } };
  } catch {
    return { status: 503, body: { success: false, code: 'UNAVAILABLE' } };
  }
}

/**
 * What both references of `bench:mcp` start with (bare.child, sdk-peer.child): their key prefix
 * (`BENCH_REDIS_PREFIX`, else `defaultPrefix`), the bearer check's key and sealer from JWT_SECRET,
 * and a connected Redis client with the service's option (auto-pipelining) on REDIS_URL.
 */
export async function referenceSetup(defaultPrefix: string) {
  const secret = process.env.JWT_SECRET ?? '';
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
    lazyConnect: true,
    enableAutoPipelining: true,
  });
  await redis.connect();
  return {
    prefix: process.env.BENCH_REDIS_PREFIX ?? defaultPrefix,
    key: createSecretKey(Buffer.from(secret, 'utf8')),
    sealer: new ClaimsSealer(secret),
    redis,
  };
}
