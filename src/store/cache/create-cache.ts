import type { Config } from '../../config/load-config';
import type { Logger } from '../../logging/logger';
import type { CachePort } from './cache.port';
import { MemoryCache, type MemoryCacheOptions } from './memory.cache';
import { RedisCache, type RedisCacheOptions } from './redis.cache';

/** Tuning of `createCache` beyond the configuration (tests, benchmarks). */
export interface CreateCacheOptions {
  memory?: MemoryCacheOptions;
  redis?: Omit<RedisCacheOptions, 'logger'>;
}

/**
 * The cache of this process: Redis when `REDIS_URL` is set (shared by every process), the bounded
 * in-memory cache otherwise (embedded mode, one process). Never rejects because Redis is down: the
 * Redis cache starts "down" and reconnects by itself (see `RedisCache.connect`).
 */
export async function createCache(
  config: Pick<Config, 'REDIS_URL'> & Partial<Pick<Config, 'REDIS_RECONNECT_MAX_MS'>>,
  logger: Logger,
  options: CreateCacheOptions = {},
): Promise<CachePort> {
  const log = logger.child({ component: 'cache' });
  if (config.REDIS_URL) {
    return RedisCache.connect(config.REDIS_URL, {
      maxReconnectDelayMs: config.REDIS_RECONNECT_MAX_MS,
      ...options.redis,
      logger: log,
    });
  }
  log.info('cache: in memory (REDIS_URL unset)');
  return new MemoryCache(options.memory);
}
