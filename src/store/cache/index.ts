export {
  DEFAULT_LIST_LIMIT,
  MAX_LIST_LIMIT,
  type CacheIncrOptions,
  type CacheKind,
  type CacheListOptions,
  type CachePort,
  type CacheSetOptions,
  type CacheStatus,
} from './cache.port';
export { MemoryCache, type MemoryCacheOptions } from './memory.cache';
export { RedisCache, escapeGlob, type RedisCacheOptions } from './redis.cache';
export { NamespacedCache } from './namespaced.cache';
export {
  createRateLimiter,
  type RateLimiter,
  type RateLimitDecision,
  type RateLimitOptions,
} from './rate-limiter';
export { createCache, type CreateCacheOptions } from './create-cache';
export { CacheDedupeStore, type CacheDedupeStoreOptions } from './cache-dedupe-store';
