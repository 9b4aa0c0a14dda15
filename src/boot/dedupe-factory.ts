import type { Logger } from '../logging/logger';
import { LayeredDedupeStore } from '../kernel';
import { CacheDedupeStore, type CachePort } from '../store/cache';

/** Namespace of the kernel's dedupe records in the cache. */
export const DEDUPE_NAMESPACE = 'kernel:dedupe:';

/**
 * The kernel's record of handled envelope ids. With Redis (`REDIS_URL` set) the cache is shared by
 * every node: a `LayeredDedupeStore` keeps this node's record in memory and goes to the shared one
 * for redeliveries and for kinds that declare `dedupe: 'shared'`. With the in-memory cache there is
 * nothing shared to add: undefined, and the actor system uses its `MemoryDedupeStore`.
 */
export function createDedupeStore(cache: CachePort, logger: Logger): LayeredDedupeStore | undefined {
  if (cache.kind !== 'redis') return undefined;
  const shared = new CacheDedupeStore(cache.namespace(DEDUPE_NAMESPACE));
  return new LayeredDedupeStore({
    shared,
    logger: logger.child({ component: 'dedupe' }),
    onClose: () => shared.close(),
  });
}
