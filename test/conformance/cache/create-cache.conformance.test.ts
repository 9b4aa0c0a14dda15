import { silentLogger } from '../../../src/logging/logger';
import { createCache } from '../../../src/store/cache/create-cache';
import { RedisCache } from '../../../src/store/cache/redis.cache';
import { describeWithService } from '../../support/services';

describe('createCache', () => {
  it('is the bounded memory cache when REDIS_URL is unset', async () => {
    const cache = await createCache({ REDIS_URL: undefined }, silentLogger, { memory: { maxEntries: 2 } });
    try {
      expect(cache.kind).toBe('memory');
      await cache.set('a', '1');
      await cache.set('b', '2');
      await cache.set('c', '3');
      expect(await cache.mget(['a', 'b', 'c'])).toEqual([null, '2', '3']);
    } finally {
      await cache.close();
    }
  });

  it('refuses a malformed Redis URL without echoing it', async () => {
    await expect(RedisCache.connect('redis://:pw-secret@host:notaport')).rejects.toMatchObject({
      code: 'INTERNAL_ERROR',
      message: 'invalid Redis URL',
    });
  });
});

describeWithService('redis', 'createCache with REDIS_URL', (url) => {
  it('is the Redis cache, up', async () => {
    const cache = await createCache({ REDIS_URL: url }, silentLogger);
    try {
      expect(cache.kind).toBe('redis');
      expect(await cache.status()).toMatchObject({ state: 'up' });
    } finally {
      await cache.close();
    }
  });
});
