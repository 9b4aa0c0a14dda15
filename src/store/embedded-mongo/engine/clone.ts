import { isPlainObject, setField } from './value-key';

/**
 * Deep copy of the mutable parts of a document (plain objects and arrays). BSON value objects
 * (ObjectId, Binary, Date, Long, ...) are never mutated by the server, so they are shared.
 * Stored documents are copy-on-write: an update copies, changes the copy, then swaps it in, so a
 * reader (or an open cursor) holding the old version never sees a half-applied change.
 */
export function cloneDocument<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneDocument) as T;
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value)) setField(out, k, cloneDocument(value[k]));
    return out as T;
  }
  return value;
}
