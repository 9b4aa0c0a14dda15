import { randomUUID } from 'node:crypto';
import type { CachePort } from '../../../src/store/cache/cache.port';
import { MemoryCache } from '../../../src/store/cache/memory.cache';
import { RedisCache } from '../../../src/store/cache/redis.cache';
import { serviceUrl } from '../../support/services';

/** A fresh, isolated cache for one suite, and how to remove what the suite wrote. */
export interface CacheUnderTest {
  cache: CachePort;
  cleanup(): Promise<void>;
}

export interface CacheFactory {
  name: string;
  /** Set when the implementation cannot run here (its service is unreachable). */
  skip?: string;
  create(): Promise<CacheUnderTest>;
}

export const memoryFactory: CacheFactory = {
  name: 'memory',
  async create() {
    const cache = new MemoryCache();
    return { cache, cleanup: () => cache.close() };
  },
};

/**
 * Redis is shared with other engineers' suites: every run writes under its own prefix and deletes
 * only those keys (never FLUSHDB).
 */
export const redisFactory: CacheFactory = {
  name: 'redis',
  skip: serviceUrl('redis') ? undefined : 'redis not reachable',
  async create() {
    const root = await RedisCache.connect(serviceUrl('redis') as string);
    const cache = root.namespace(`test:cache:${randomUUID()}:`);
    return {
      cache,
      async cleanup() {
        for (let keys = await cache.list(''); keys.length > 0; keys = await cache.list('')) {
          await Promise.all(keys.map((k) => cache.delete(k)));
        }
        // Rate-limiter keys live under the same prefix, so the loop above removed them too.
        await root.close();
      },
    };
  },
};

export function cacheFactories(): CacheFactory[] {
  return [memoryFactory, redisFactory];
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `fn` as a describe block per implementation (skipped, with the reason, when unavailable). */
export function describeEachCache(title: string, fn: (get: () => CacheUnderTest) => void): void {
  for (const factory of cacheFactories()) {
    const block = factory.skip ? describe.skip : describe;
    block(`${title} [${factory.name}]${factory.skip ? ` (${factory.skip}: skipped)` : ''}`, () => {
      let current: CacheUnderTest | undefined;
      beforeAll(async () => {
        current = await factory.create();
      });
      afterAll(async () => {
        await current?.cleanup();
      });
      fn(() => current as CacheUnderTest);
    });
  }
}
