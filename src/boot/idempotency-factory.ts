import type { Config } from '../config/load-config';
import { CacheIdempotencyStore, IdempotencyKeeper } from '../http';
import type { Logger } from '../logging/logger';
import { MemoryCache, type CachePort } from '../store/cache';

/** Namespace of the idempotency records in a shared cache (Redis). */
export const IDEMPOTENCY_NAMESPACE = 'idempotency:';

/** Bounds of the records in embedded mode: least recently used dropped first past either. */
const EMBEDDED_LIMITS = { maxEntries: 10_000, maxBytes: 32 * 1024 * 1024 };

/** The front door's idempotency keys, and what to close at shutdown. */
export interface Idempotency {
  keeper: IdempotencyKeeper;
  close(): Promise<void>;
}

/**
 * Idempotency keys over the cache port: in Redis (`REDIS_URL`), shared by every front door, under
 * `idempotency:`; otherwise in a bounded in-memory cache of their own, so that a burst of keyed
 * requests never evicts agents' memory or sessions from the process's cache (and the other way
 * round). A retry waits for a first request still running at most `REQUEST_TIMEOUT_MS`.
 */
export function createIdempotency(
  cache: CachePort,
  config: Pick<Config, 'IDEMPOTENCY_TTL_MS' | 'REQUEST_TIMEOUT_MS' | 'NODE_ID'>,
  logger: Logger,
): Idempotency {
  const own = cache.kind === 'redis' ? undefined : new MemoryCache(EMBEDDED_LIMITS);
  const keeper = new IdempotencyKeeper({
    store: new CacheIdempotencyStore(own ?? cache.namespace(IDEMPOTENCY_NAMESPACE)),
    windowMs: config.IDEMPOTENCY_TTL_MS,
    waitMs: config.REQUEST_TIMEOUT_MS,
    owner: config.NODE_ID,
    logger,
  });
  return { keeper, close: async () => own?.close() };
}
