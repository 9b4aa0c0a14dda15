import { withBatch, type Store } from './store';

/**
 * Deletes documents whose TTL has passed (and journals the deletes). Reads already hide expired
 * documents, so this only reclaims memory and disk; it runs every second rather than every minute
 * as in mongod. Each collection's expiry schedule hands over only the documents that are due (no
 * scan). Finding and deleting happen in one synchronous step, so nothing changes in between.
 */
export async function sweepExpired(store: Store, now = Date.now()): Promise<number> {
  let any = false;
  for (const colls of store.dbs.values())
    for (const coll of colls.values()) if (coll.ttl.length > 0) any = true;
  if (!any) return 0;
  return withBatch(store, (batch) => {
    let n = 0;
    for (const colls of store.dbs.values()) {
      for (const coll of colls.values()) {
        if (coll.ttl.length === 0) continue;
        const expired = coll.takeExpired(now);
        for (const doc of expired) batch.remove(coll, doc);
        n += expired.length;
      }
    }
    return n;
  });
}
