import { createDedupeStore, DEDUPE_NAMESPACE } from '../../../src/boot/dedupe-factory';
import { LayeredDedupeStore } from '../../../src/kernel';
import { silentLogger } from '../../../src/logging/logger';
import { MemoryCache, type CachePort } from '../../../src/store/cache';

describe('createDedupeStore', () => {
  it('adds nothing over an in-memory cache (nothing would be shared)', async () => {
    const cache = new MemoryCache();
    expect(createDedupeStore(cache, silentLogger)).toBeUndefined();
    await cache.close();
  });

  it('layers a shared record in the kernel namespace of a Redis cache', async () => {
    const memory = new MemoryCache();
    const namespaces: string[] = [];
    const redisLike = {
      kind: 'redis',
      namespace: (prefix: string) => (namespaces.push(prefix), memory.namespace(prefix)),
    } as unknown as CachePort;
    const store = createDedupeStore(redisLike, silentLogger);
    expect(store).toBeInstanceOf(LayeredDedupeStore);
    expect(namespaces).toEqual([DEDUPE_NAMESPACE]);
    await store!.claim('m1', 'n', 1000);
    expect(await memory.get(`${DEDUPE_NAMESPACE}m1`)).toBe('pending:n');
    store!.close();
    await memory.close();
  });
});
