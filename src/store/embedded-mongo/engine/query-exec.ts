import type { Document } from 'bson';
import { ErrorCodes, fail } from '../errors';
import type { Collection } from './collection';
import { find } from 'mingo';
import type { Cursor } from 'mingo/cursor';
import { cloneDocument } from './clone';
import { MINGO_OPTIONS } from './mingo-options';
import { matcher, type MatchOptions } from './planner';
import { compileFastProjection } from './projection';
import { TOP_SORTED_MAX, topSorted } from './top-sorted';
import { isPlainObject } from './value-key';

/** The shape options of a read (`find`, `findAndModify`, `count`). */
export interface ReadOptions extends MatchOptions {
  sort?: Document;
  projection?: Document;
  skip?: number;
  /** 0 or undefined = no limit. */
  limit?: number;
}

/** Validates a sort specification; undefined when it sorts nothing. */
export function parseSort(sort: unknown): Document | undefined {
  if (sort === undefined || sort === null) return undefined;
  if (!isPlainObject(sort)) throw fail(ErrorCodes.TypeMismatch, 'sort must be an object');
  const keys = Object.keys(sort);
  if (keys.length === 0) return undefined;
  for (const k of keys) {
    const dir = sort[k];
    if (dir !== 1 && dir !== -1) {
      throw fail(
        ErrorCodes.BadValue,
        `$sort key ordering must be 1 (for ascending) or -1 (for descending); got ${JSON.stringify(dir)} for '${k}'`,
      );
    }
  }
  return sort;
}

export function parseProjection(projection: unknown): Document | undefined {
  if (projection === undefined || projection === null) return undefined;
  if (!isPlainObject(projection)) throw fail(ErrorCodes.TypeMismatch, 'projection must be an object');
  return Object.keys(projection).length > 0 ? projection : undefined;
}

export function nonNegativeInt(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw fail(ErrorCodes.TypeMismatch, `BSON field '${field}' must be an integer`);
  if (value < 0)
    throw fail(ErrorCodes.BadValue, `BSON field '${field}' value must be >= 0, actual value '${value}'`);
  return value;
}

/**
 * The documents of a read, lazily: unsorted reads stream from the collection (so a `limit`
 * stops early); a sorted page of at most `TOP_SORTED_MAX` documents keeps only those
 * (`topSorted`); other sorted reads and projection operators go through mingo's cursor.
 */
export function readDocuments(
  coll: Collection | undefined,
  filter: unknown,
  opts: ReadOptions,
): Iterator<Document> {
  const m = matcher(coll, filter, opts);
  const skip = opts.skip ?? 0;
  const limit = opts.limit && opts.limit > 0 ? opts.limit : Infinity;
  const fastProject = opts.projection ? compileFastProjection(opts.projection) : undefined;
  if (opts.projection && !fastProject) {
    // Projection operators ($slice, $elemMatch, positional `$`) and dotted paths need mingo and the
    // query itself. Mingo projects nested paths in place (an exclusion such as `{'a.b': 0}` deletes
    // `b` from the objects it is given), so it gets copies of the matching documents: stored
    // documents are never changed by a read.
    const copies = map(m.matches(), cloneDocument);
    return drain(withWindow(m.query.find<Document>(copies, opts.projection), opts.sort, skip, limit));
  }
  let docs: Iterator<Document>;
  const bounded = opts.sort && !opts.collation && limit !== Infinity && skip + limit <= TOP_SORTED_MAX;
  const matching = bounded ? [...m.matches()] : undefined;
  // A sorted page (the listings' `sort` + `limit`): keep the best skip + limit, not sort them all.
  const page = matching && topSorted(matching, opts.sort!, skip + limit);
  if (page) {
    docs = window(page, skip, limit);
  } else if (opts.sort) {
    docs = drain(
      withWindow(
        find(matching ?? m.matches(), {}, undefined, { ...MINGO_OPTIONS, collation: opts.collation }),
        opts.sort,
        skip,
        limit,
      ),
    );
  } else {
    docs = window(m.matches(), skip, limit);
  }
  return fastProject ? map(docs, fastProject) : docs;
}

function withWindow(
  cursor: Cursor<Document>,
  sort: Document | undefined,
  skip: number,
  limit: number,
): Cursor<Document> {
  if (sort) cursor.sort(sort);
  if (skip > 0) cursor.skip(skip);
  if (limit !== Infinity) cursor.limit(limit);
  return cursor;
}

function* drain(cursor: Cursor<Document>): Generator<Document> {
  for (;;) {
    const doc = cursor.next();
    if (doc === undefined) return;
    yield doc;
  }
}

function* window(source: Iterable<Document>, skip: number, limit: number): Generator<Document> {
  let skipped = 0;
  let taken = 0;
  if (limit <= 0) return;
  for (const doc of source) {
    if (skipped < skip) {
      skipped += 1;
      continue;
    }
    yield doc;
    if (++taken >= limit) return;
  }
}

function* map(source: Iterator<Document>, f: (doc: Document) => Document): Generator<Document> {
  for (let r = source.next(); !r.done; r = source.next()) yield f(r.value);
}

/** Counts matching documents (with skip and limit). */
export function countDocuments(coll: Collection | undefined, filter: unknown, opts: ReadOptions): number {
  if (!coll) return 0;
  const isEmptyFilter =
    filter === undefined || filter === null || (isPlainObject(filter) && Object.keys(filter).length === 0);
  let total: number;
  if (isEmptyFilter && coll.ttl.length === 0) total = coll.docs.size;
  else {
    total = 0;
    for (const _ of matcher(coll, filter, opts).matches()) total += 1;
  }
  total = Math.max(0, total - (opts.skip ?? 0));
  return opts.limit && opts.limit > 0 ? Math.min(total, opts.limit) : total;
}
