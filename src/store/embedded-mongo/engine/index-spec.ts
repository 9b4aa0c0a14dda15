import type { Document } from 'bson';
import { Query } from 'mingo';
import { ErrorCodes, fail } from '../errors';
import { MINGO_OPTIONS } from './mingo-options';
import { valuesAtPath } from './paths';
import { isPlainObject, valueKey } from './value-key';

/** The stored definition of an index, as `listIndexes` shows it. */
export interface IndexDefinition {
  v: 2;
  key: Record<string, number | string>;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  expireAfterSeconds?: number;
  partialFilterExpression?: Document;
}

/** Index types accepted as metadata; they only order or hash, which a scan reproduces. */
const ACCEPTED_STRING_TYPES = new Set(['hashed']);
/** Options MongoDB accepts on an index that change nothing here. */
const IGNORED_OPTIONS = new Set(['v', 'background', 'ns', 'hidden', 'storageEngine', 'comment']);

/** The default index name: `a_1_b_-1`. */
export function defaultIndexName(key: Record<string, unknown>): string {
  return Object.entries(key)
    .map(([f, d]) => `${f}_${String(d)}`)
    .join('_');
}

/** Validates one `createIndexes` entry and returns its normalized definition. */
export function parseIndexDefinition(raw: unknown): IndexDefinition {
  if (!isPlainObject(raw)) throw fail(ErrorCodes.TypeMismatch, 'index specification must be an object');
  const key = raw.key;
  if (!isPlainObject(key) || Object.keys(key).length === 0) {
    throw fail(ErrorCodes.CannotCreateIndex, "index specification must have a non-empty 'key' object");
  }
  for (const [field, dir] of Object.entries(key)) {
    if (field === '' || field.startsWith('$'))
      throw fail(ErrorCodes.CannotCreateIndex, `bad index key field '${field}'`);
    const numeric = typeof dir === 'number' && dir !== 0 && Number.isFinite(dir);
    if (!numeric && !(typeof dir === 'string' && ACCEPTED_STRING_TYPES.has(dir))) {
      throw fail(
        ErrorCodes.CannotCreateIndex,
        `index type ${JSON.stringify(dir)} on '${field}' is not supported by the embedded server`,
      );
    }
  }
  const name = raw.name === undefined ? defaultIndexName(key) : raw.name;
  if (typeof name !== 'string' || name === '')
    throw fail(ErrorCodes.CannotCreateIndex, 'index name must be a non-empty string');
  const def: IndexDefinition = { v: 2, key: key as Record<string, number | string>, name };
  for (const [opt, value] of Object.entries(raw)) {
    if (opt === 'key' || opt === 'name' || IGNORED_OPTIONS.has(opt)) continue;
    if (opt === 'unique') {
      if (value) def.unique = true;
    } else if (opt === 'sparse') {
      if (value) def.sparse = true;
    } else if (opt === 'expireAfterSeconds') {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
        throw fail(ErrorCodes.CannotCreateIndex, 'expireAfterSeconds must be a non-negative number');
      }
      if (Object.keys(key).length !== 1)
        throw fail(ErrorCodes.CannotCreateIndex, 'TTL indexes are single-field indexes');
      def.expireAfterSeconds = value;
    } else if (opt === 'partialFilterExpression') {
      if (!isPlainObject(value))
        throw fail(ErrorCodes.CannotCreateIndex, 'partialFilterExpression must be an object');
      def.partialFilterExpression = value;
    } else if (opt === 'collation') {
      throw fail(ErrorCodes.CannotCreateIndex, 'index collations are not supported by the embedded server');
    } else {
      throw fail(
        ErrorCodes.CannotCreateIndex,
        `index option '${opt}' is not supported by the embedded server`,
      );
    }
  }
  if (name === '_id_' && (Object.keys(key).length !== 1 || key._id === undefined)) {
    throw fail(ErrorCodes.CannotCreateIndex, "the index name '_id_' is reserved for the _id index");
  }
  return def;
}

/** True when two definitions describe the same index (same options that matter). */
export function sameIndexOptions(a: IndexDefinition, b: IndexDefinition): boolean {
  return (
    !!a.unique === !!b.unique &&
    !!a.sparse === !!b.sparse &&
    a.expireAfterSeconds === b.expireAfterSeconds &&
    valueKey(a.partialFilterExpression ?? null) === valueKey(b.partialFilterExpression ?? null)
  );
}

export function sameKeyPattern(a: IndexDefinition, b: IndexDefinition): boolean {
  return valueKey(a.key) === valueKey(b.key);
}

/** One entry an index holds for a document: its canonical key and the values that made it. */
export interface IndexEntry {
  key: string;
  values: unknown[];
}

/** Computes index entries for documents, following MongoDB's rules for missing fields and arrays. */
export class IndexKeyer {
  readonly fields: string[];
  private readonly partial: Query | undefined;

  constructor(readonly def: IndexDefinition) {
    this.fields = Object.keys(def.key);
    this.partial = def.partialFilterExpression
      ? new Query(def.partialFilterExpression, MINGO_OPTIONS)
      : undefined;
  }

  /** Entries of `doc`, or [] when the document is not in the index (sparse or partial). */
  entries(doc: Document): IndexEntry[] {
    if (this.partial && !this.partial.test(doc)) return [];
    const perField: unknown[][] = [];
    let present = false;
    let multi = -1;
    for (let i = 0; i < this.fields.length; i++) {
      const reached = valuesAtPath(doc, this.fields[i]);
      if (reached.length > 0) present = true;
      const vals: unknown[] = [];
      for (const v of reached) {
        if (Array.isArray(v)) {
          // An empty array is indexed as `undefined`, apart from null and missing.
          if (v.length === 0) vals.push(undefined);
          else vals.push(...v);
        } else vals.push(v);
      }
      if (vals.length === 0) vals.push(null);
      if (vals.length > 1) {
        if (multi >= 0) throw fail(ErrorCodes.CannotIndexParallelArrays, 'cannot index parallel arrays');
        multi = i;
      }
      perField.push(vals);
    }
    if (this.def.sparse && !present) return [];
    const out = new Map<string, IndexEntry>();
    const count = multi >= 0 ? perField[multi].length : 1;
    for (let j = 0; j < count; j++) {
      const values = perField.map((vals, i) => (i === multi ? vals[j] : vals[0]));
      const key = values.length === 1 ? entryKey(values[0]) : compoundKey(values);
      if (!out.has(key)) out.set(key, { key, values });
    }
    return [...out.values()];
  }

  /** `{ field: value }` for error messages and `keyValue`. */
  keyValue(entry: IndexEntry): Record<string, unknown> {
    return Object.fromEntries(
      this.fields.map((f, i) => [f, entry.values[i] === undefined ? null : entry.values[i]]),
    );
  }
}

function entryKey(v: unknown): string {
  return v === undefined ? 'u' : valueKey(v);
}

/** Length-prefixed so that no two different value lists can produce the same key. */
function compoundKey(values: unknown[]): string {
  let out = '';
  for (const v of values) {
    const k = entryKey(v);
    out += k.length + ':' + k;
  }
  return out;
}

/** The index key of an equality lookup on every field of the index (same encoding as entries). */
export function lookupKey(values: unknown[]): string {
  return values.length === 1 ? entryKey(values[0]) : compoundKey(values);
}
