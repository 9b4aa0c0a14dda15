import type { Document } from 'bson';
import { withBatch, type Store } from './store';

/**
 * Deletes documents whose TTL has passed (and journals the deletes). Reads already hide expired
 * documents, so this only reclaims memory and disk; it runs every second rather than every minute
 * as in mongod. Scan and delete happen in one synchronous step, so nothing changes in between.
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
        const expired: Document[] = [];
        for (const doc of coll.docs.values()) if (coll.isExpired(doc, now)) expired.push(doc);
        for (const doc of expired) batch.remove(coll, doc);
        n += expired.length;
      }
    }
    return n;
  });
}
