import type { Document } from 'bson';
import { ErrorCodes, fail } from '../errors';
import type { Collection } from '../engine/collection';
import { isPlainObject, valueKey } from '../engine/value-key';
import { encodeCursorReply } from '../wire/cursor-reply';

/** The collection named by the command's first field (`{ find: 'users' }`). */
export function collectionName(cmd: Document, command: string): string {
  const name = cmd[command];
  if (typeof name !== 'string' || name === '') {
    throw fail(
      ErrorCodes.InvalidNamespace,
      `collection name has invalid type ${typeof name} for command '${command}'`,
    );
  }
  return name;
}

export function optionalDoc(cmd: Document, field: string): Document | undefined {
  const v = cmd[field];
  if (v === undefined || v === null) return undefined;
  if (!isPlainObject(v)) throw fail(ErrorCodes.TypeMismatch, `BSON field '${field}' must be an object`);
  return v;
}

export function optionalBool(cmd: Document, field: string): boolean {
  const v = cmd[field];
  if (v === undefined || v === null) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  throw fail(ErrorCodes.TypeMismatch, `BSON field '${field}' must be a boolean`);
}

export function requiredArray(cmd: Document, field: string): unknown[] {
  const v = cmd[field];
  if (!Array.isArray(v)) throw fail(ErrorCodes.TypeMismatch, `BSON field '${field}' must be an array`);
  return v;
}

/** The `collation` of a command: undefined for none or the binary `simple` locale. */
export function collationOf(cmd: Document | undefined): Document | undefined {
  const c = cmd?.collation;
  if (c === undefined || c === null) return undefined;
  if (!isPlainObject(c) || typeof c.locale !== 'string')
    throw fail(ErrorCodes.BadValue, 'collation must be an object with a locale');
  return c.locale === 'simple' ? undefined : c;
}

export function cursorReply(
  field: 'firstBatch' | 'nextBatch',
  docs: Uint8Array[],
  id: number,
  ns: string,
): Buffer {
  return encodeCursorReply(field, docs, id, ns);
}

/** MongoDB refuses a hint that names no existing index; so does this server (it otherwise ignores hints). */
export function checkHint(coll: Collection | undefined, hint: unknown): void {
  if (hint === undefined || hint === null || !coll) return;
  if (typeof hint === 'string') {
    if (hint === '_id_' || coll.indexes.has(hint)) return;
  } else if (typeof hint === 'object') {
    const key = valueKey(hint);
    if ('$natural' in (hint as Document) || coll.definitions().some((d) => valueKey(d.key) === key)) return;
  }
  throw fail(
    ErrorCodes.BadValue,
    'error processing query: planner returned error :: caused by :: hint provided does not correspond to an existing index',
  );
}
