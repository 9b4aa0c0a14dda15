import { randomUUID } from 'node:crypto';
import { CacheIdempotencyStore } from '../../../src/http/idempotency/cache-idempotency.store';
import { silentLogger } from '../../../src/logging/logger';
import { MemoryCache, RedisCache, type CachePort } from '../../../src/store/cache';
import { eventually } from '../../support/async';
import { serviceUrl } from '../../support/services';

/** The idempotency record on the cache port, over the in-memory cache and over Redis. */
const caches: Array<{
  name: string;
  skip?: boolean;
  open(): Promise<{ cache: CachePort; close(): Promise<void> }>;
}> = [
  {
    name: 'MemoryCache',
    async open() {
      const cache = new MemoryCache();
      return { cache, close: () => cache.close() };
    },
  },
  {
    name: 'Redis',
    skip: !serviceUrl('redis'),
    async open() {
      const root = await RedisCache.connect(serviceUrl('redis')!, { logger: silentLogger });
      const cache = root.namespace(`test:idempotency:${randomUUID()}:`);
      return {
        cache,
        async close() {
          for (const key of await cache.list('')) await cache.delete(key);
          await root.close();
        },
      };
    },
  },
];

describe.each(caches)('CacheIdempotencyStore over $name', ({ skip, open }) => {
  const it_ = skip ? it.skip : it;
  let opened: Awaited<ReturnType<(typeof caches)[number]['open']>>;
  let store: CacheIdempotencyStore;
  beforeEach(async () => {
    opened = await open();
    store = new CacheIdempotencyStore(opened.cache);
  });
  afterEach(() => opened.close());

  it_('claims once: the next claimant reads the pending record, then the kept outcome', async () => {
    expect(await store.claim('k1', 'fp', 'node.1', 10_000)).toBeUndefined();
    expect(await store.claim('k1', 'fp', 'node.2', 10_000)).toEqual({
      state: 'pending',
      fingerprint: 'fp',
      owner: 'node.1',
    });
    await store.complete(
      'k1',
      { state: 'done', fingerprint: 'fp', outcome: { status: 201, body: '{}' } },
      60_000,
    );
    expect(await store.claim('k1', 'other', 'node.2', 10_000)).toEqual({
      state: 'done',
      fingerprint: 'fp',
      outcome: { status: 201, body: '{}' },
    });
    expect(await opened.cache.ttl('k1')).toBeGreaterThan(10_000);
  });

  it_('releases only its own claim, and a lapsed claim can be taken again', async () => {
    await store.claim('k2', 'fp', 'node.1', 10_000);
    await store.release('k2', 'node.2');
    expect(await store.claim('k2', 'fp', 'node.3', 10_000)).toMatchObject({ owner: 'node.1' });
    await store.release('k2', 'node.1');
    expect(await store.claim('k2', 'fp', 'node.3', 50)).toBeUndefined();
    await eventually(async () => (await store.claim('k2', 'fp', 'node.4', 10_000)) === undefined, 5000);
  });

  it_('renews a claim, and replaces a value it did not write', async () => {
    await store.claim('k3', 'fp', 'node.1', 1000);
    await store.renew('k3', 60_000);
    expect(await opened.cache.ttl('k3')).toBeGreaterThan(1000);
    await opened.cache.set('k4', 'not a record');
    expect(await store.claim('k4', 'fp', 'node.1', 10_000)).toBeUndefined();
  });
});
