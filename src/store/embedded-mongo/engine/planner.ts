import type { Document } from 'bson';
import { Query } from 'mingo';
import type { Options } from 'mingo/types';
import { ErrorCodes, fail } from '../errors';
import type { Collection } from './collection';
import { lookupKey } from './index-spec';
import { compileFastFilter } from './fast-filter';
import { MINGO_OPTIONS } from './mingo-options';
import { isPlainObject, valueKey } from './value-key';

/**
 * Chooses which documents a filter has to look at. Equality on `_id` (or `$in` of values) and
 * equality on every field of a complete unique index are answered from hash maps, without a scan;
 * equality on the leading field of another index narrows the candidates to the documents holding
 * that value (`Collection.buckets`); anything else scans the collection. Candidates are then
 * checked with mingo, except when the filter is exactly `{ _id: <value> }`, where the map lookup
 * already is the answer.
 */
export interface Matcher {
  /** Documents matching the filter, in natural order, skipping expired ones. */
  matches(): Generator<Document>;
  /** Documents the filter has to look at (not yet tested against it), skipping expired ones. */
  candidates(): Generator<Document>;
  /** Whether a candidate document matches the filter. */
  test(doc: Document): boolean;
  /** The mingo query of the filter, built on first use (positional projection). */
  readonly query: Query;
}

/** Values a hash lookup can answer: plain scalars and BSON values, not regexes, arrays or operator objects. */
function equalityValue(v: unknown): { ok: boolean; value?: unknown } {
  if (v instanceof RegExp || Array.isArray(v) || v === null || v === undefined) return { ok: false };
  if (isPlainObject(v)) {
    const keys = Object.keys(v);
    if (keys.length === 1 && keys[0] === '$eq') return equalityValue(v.$eq);
    if (keys.some((k) => k.startsWith('$'))) return { ok: false };
    // A literal sub-document: equality is exact, which the canonical key encodes.
    return { ok: true, value: v };
  }
  if (typeof v === 'object' && (v as { _bsontype?: string })._bsontype === 'BSONRegExp') return { ok: false };
  return { ok: true, value: v };
}

/** Canonical keys an equality condition names (a value, `$eq`, or `$in` of values), if it is one. */
function equalityKeys(cond: unknown): string[] | undefined {
  const eq = equalityValue(cond);
  if (eq.ok) return [valueKey(eq.value)];
  if (isPlainObject(cond) && Object.keys(cond).length === 1 && Array.isArray(cond.$in)) {
    const keys: string[] = [];
    for (const item of cond.$in) {
      const e = equalityValue(item);
      if (!e.ok) return undefined;
      keys.push(valueKey(e.value));
    }
    return [...new Set(keys)];
  }
  return undefined;
}

function idCandidates(filter: Document): string[] | undefined {
  if (!Object.prototype.hasOwnProperty.call(filter, '_id')) return undefined;
  return equalityKeys(filter._id);
}

/**
 * Equality on the leading field of an index (`Collection.buckets`): the documents holding that
 * value, from the smallest bucket the filter names. They are candidates, tested against the whole
 * filter like any others.
 */
function bucketCandidates(coll: Collection, filter: Document): string[] | undefined {
  let best: { byValue: Map<string, Set<string>>; keys: string[]; size: number } | undefined;
  for (const [field, byValue] of coll.buckets) {
    if (!Object.prototype.hasOwnProperty.call(filter, field)) continue;
    const keys = equalityKeys(filter[field]);
    if (!keys) continue;
    let size = 0;
    for (const k of keys) size += byValue.get(k)?.size ?? 0;
    if (!best || size < best.size) best = { byValue, keys, size };
  }
  if (!best) return undefined;
  if (best.keys.length === 1) return [...(best.byValue.get(best.keys[0]) ?? [])];
  const ids = new Set<string>();
  for (const k of best.keys) for (const id of best.byValue.get(k) ?? []) ids.add(id);
  return [...ids];
}

function uniqueCandidates(coll: Collection, filter: Document): string[] | undefined {
  for (const index of coll.indexes.values()) {
    if (!index.lookupable) continue;
    const values: unknown[] = [];
    for (const field of index.keyer.fields) {
      if (!Object.prototype.hasOwnProperty.call(filter, field)) break;
      const eq = equalityValue(filter[field]);
      if (!eq.ok) break;
      values.push(eq.value);
    }
    if (values.length !== index.keyer.fields.length) continue;
    const idKey = index.entries!.get(lookupKey(values));
    return idKey === undefined ? [] : [idKey];
  }
  return undefined;
}

/** Options for a matcher. */
export interface MatchOptions {
  /** A non-simple collation: string equality may differ from the canonical keys, so always scan. */
  collation?: Options['collation'];
  /** `let` variables for `$expr`. */
  variables?: Document;
}

export function compileFilter(filter: unknown, opts: MatchOptions = {}): Query {
  if (filter !== undefined && filter !== null && !isPlainObject(filter)) {
    throw fail(ErrorCodes.TypeMismatch, 'filter must be an object');
  }
  return new Query((filter ?? {}) as Document, {
    ...MINGO_OPTIONS,
    collation: opts.collation,
    variables: opts.variables,
  });
}

export function matcher(coll: Collection | undefined, rawFilter: unknown, opts: MatchOptions = {}): Matcher {
  if (rawFilter !== undefined && rawFilter !== null && !isPlainObject(rawFilter)) {
    throw fail(ErrorCodes.TypeMismatch, 'filter must be an object');
  }
  const filter = (rawFilter ?? {}) as Document;
  let query: Query | undefined;
  const mingoQuery = (): Query => (query ??= compileFilter(filter, opts));
  // The fast predicate ignores collation and `let`, so it is only used without them.
  const filterKeys = Object.keys(filter);
  const onlyId = filterKeys.length === 1 && filterKeys[0] === '_id';
  const fast = opts.collation || opts.variables ? undefined : compileFastFilter(filter);
  const test = fast ?? ((doc: Document) => mingoQuery().test(doc));
  if (!fast) mingoQuery(); // compile now: a bad filter must fail even on an empty collection
  const useHash = !opts.collation;
  const keys =
    useHash && coll
      ? (idCandidates(filter) ?? uniqueCandidates(coll, filter) ?? bucketCandidates(coll, filter))
      : undefined;
  const exactId = keys !== undefined && onlyId;
  function* candidates(): Generator<Document> {
    if (!coll) return;
    const now = Date.now();
    const checkTtl = coll.ttl.length > 0;
    if (keys) {
      for (const k of keys) {
        const doc = coll.docs.get(k);
        if (doc && !(checkTtl && coll.isExpired(doc, now))) yield doc;
      }
      return;
    }
    for (const doc of coll.docs.values()) {
      if (!(checkTtl && coll.isExpired(doc, now))) yield doc;
    }
  }
  function* matches(): Generator<Document> {
    for (const doc of candidates()) if (exactId || test(doc)) yield doc;
  }
  return {
    matches,
    candidates,
    test,
    get query() {
      return mingoQuery();
    },
  };
}

/** The first matching document in natural order, or undefined. */
export function findFirst(m: Matcher): Document | undefined {
  for (const doc of m.matches()) return doc;
  return undefined;
}
