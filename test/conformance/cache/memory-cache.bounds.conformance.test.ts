import { MemoryCache } from '../../../src/store/cache/memory.cache';
import { sleep } from './cache-factories';

describe('memory cache bounds', () => {
  const caches: MemoryCache[] = [];
  const make = (options: ConstructorParameters<typeof MemoryCache>[0]) => {
    const cache = new MemoryCache(options);
    caches.push(cache);
    return cache;
  };
  afterAll(() => Promise.all(caches.map((c) => c.close())));

  it('evicts the least recently used key past maxEntries (reads count as use)', async () => {
    const cache = make({ maxEntries: 3 });
    await cache.set('a', '1');
    await cache.set('b', '2');
    await cache.set('c', '3');
    expect(await cache.get('a')).toBe('1'); // a is now the most recently used
    await cache.incr('c'); // so is c
    await cache.set('d', '4');
    expect(await cache.mget(['a', 'b', 'c', 'd'])).toEqual(['1', null, '4', '4']);
    expect(cache.stats()).toMatchObject({ entries: 3, evictions: 1 });
  });

  it('evicts past maxBytes and refuses a single value larger than the bound', async () => {
    const cache = make({ maxBytes: 1000 });
    await cache.set('k1', 'x'.repeat(200)); // ~404 bytes
    await cache.set('k2', 'x'.repeat(200));
    await cache.set('k3', 'x'.repeat(200)); // over 1000: k1 goes
    expect(await cache.get('k1')).toBeNull();
    expect(await cache.get('k3')).not.toBeNull();
    expect(cache.stats().bytes).toBeLessThanOrEqual(1000);
    await expect(cache.set('huge', 'x'.repeat(600))).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('sweeps expired keys in the background even if nobody reads them', async () => {
    const cache = make({ sweepIntervalMs: 40 });
    await Promise.all(Array.from({ length: 50 }, (_, i) => cache.set(`s${i}`, 'v', { ttlMs: 30 })));
    await cache.set('keep', 'v');
    expect(cache.stats().entries).toBe(51);
    await sleep(120);
    expect(cache.stats().entries).toBe(1);
  });

  it('after close, calls fail with UNAVAILABLE and status is down', async () => {
    const cache = make({});
    await cache.set('a', '1');
    await cache.close();
    await expect(cache.get('a')).rejects.toMatchObject({ code: 'UNAVAILABLE', retryable: true });
    expect(await cache.status()).toMatchObject({ state: 'down' });
  });
});
