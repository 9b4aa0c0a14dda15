import type { Document } from 'bson';
import { ErrorCodes, fail, MongoCommandError } from '../errors';
import { ExpirySchedule, type Expiry } from './expiry-schedule';
import { IndexKeyer, type IndexDefinition, type IndexEntry } from './index-spec';
import { flatValuesAtPath, valuesAtPath } from './paths';
import { valueKey } from './value-key';

/** The `_id` index as `listIndexes` shows it. */
export const ID_INDEX: IndexDefinition = Object.freeze({
  v: 2,
  key: { _id: 1 },
  name: '_id_',
}) as IndexDefinition;

/** A secondary index; only unique ones keep entries (a hash map from key to `_id` key). */
export class SecondaryIndex {
  readonly keyer: IndexKeyer;
  /** Unique indexes only: canonical key -> `_id` key of the document holding it. */
  readonly entries: Map<string, string> | undefined;

  constructor(readonly def: IndexDefinition) {
    this.keyer = new IndexKeyer(def);
    this.entries = def.unique ? new Map() : undefined;
  }

  /** Usable for equality lookups: every document is in it (not sparse, not partial). */
  get lookupable(): boolean {
    return !!this.entries && !this.def.sparse && !this.def.partialFilterExpression;
  }
}

/**
 * One collection: documents by canonical `_id` key (insertion order is the natural order) and
 * its indexes. The methods here keep documents and unique indexes consistent and throw
 * DuplicateKey before changing anything; journaling is the caller's job (see WriteBatch).
 * Stored documents are never mutated in place.
 */
export class Collection {
  readonly docs = new Map<string, Document>();
  readonly indexes = new Map<string, SecondaryIndex>();
  /** Indexes with `expireAfterSeconds` on a single field. */
  ttl: SecondaryIndex[] = [];
  /** When each document expires under `ttl` (see `takeExpired`). */
  private readonly expiries = new ExpirySchedule();
  /**
   * Documents by the value of the leading field of an index: field -> canonical value key ->
   * `_id` keys (in insertion order). Non-unique indexes keep no entries of their own, so without
   * this every query on an owner (`{ agentId }` sorted by date: the listings of route records,
   * executions, notifications) scanned the whole collection: 170-320 ms for 300,000 route records,
   * during which the process serving the API did nothing else. Leading fields of TTL indexes (dates:
   * a bucket per document) and of complete unique single-field indexes (their own map answers)
   * get none. The planner (`planner.ts`) takes the smallest bucket a filter's equality names.
   */
  readonly buckets = new Map<string, Map<string, Set<string>>>();

  constructor(
    readonly db: string,
    public name: string,
  ) {}

  get ns(): string {
    return `${this.db}.${this.name}`;
  }

  definitions(): IndexDefinition[] {
    return [ID_INDEX, ...[...this.indexes.values()].map((i) => i.def)];
  }

  /** Adds an index and fills it; throws DuplicateKey (and adds nothing) if the data violates it. */
  addIndex(def: IndexDefinition): void {
    const index = new SecondaryIndex(def);
    if (index.entries) {
      for (const [idKey, doc] of this.docs) {
        for (const entry of index.keyer.entries(doc)) {
          if (index.entries.has(entry.key)) {
            const err = this.duplicate(index, entry);
            throw fail(ErrorCodes.DuplicateKey, `Index build failed: ${err.message}`, err.extra);
          }
          index.entries.set(entry.key, idKey);
        }
      }
    }
    this.indexes.set(def.name, index);
    this.refreshTtl();
    this.refreshBuckets();
  }

  dropIndex(name: string): void {
    this.indexes.delete(name);
    this.refreshTtl();
    this.refreshBuckets();
  }

  /** Builds the buckets of fields that became leading fields, drops those of fields that no longer are. */
  private refreshBuckets(): void {
    const fields = new Set<string>();
    for (const index of this.indexes.values()) {
      const field = index.keyer.fields[0];
      if (field === undefined || field === '_id' || index.def.expireAfterSeconds !== undefined) continue;
      if (index.lookupable && index.keyer.fields.length === 1) continue;
      fields.add(field);
    }
    for (const field of [...this.buckets.keys()]) if (!fields.has(field)) this.buckets.delete(field);
    for (const field of fields) {
      if (this.buckets.has(field)) continue;
      const byValue = new Map<string, Set<string>>();
      for (const [idKey, doc] of this.docs) for (const k of bucketKeys(doc, field)) addTo(byValue, k, idKey);
      this.buckets.set(field, byValue);
    }
  }

  private bucket(doc: Document, idKey: string): void {
    for (const [field, byValue] of this.buckets)
      for (const k of bucketKeys(doc, field)) addTo(byValue, k, idKey);
  }

  private unbucket(doc: Document, idKey: string, keep?: Document): void {
    for (const [field, byValue] of this.buckets) {
      const kept = keep ? bucketKeys(keep, field) : undefined;
      for (const k of bucketKeys(doc, field)) {
        if (kept?.has(k)) continue;
        const ids = byValue.get(k);
        ids?.delete(idKey);
        if (ids?.size === 0) byValue.delete(k);
      }
    }
  }

  private refreshTtl(): void {
    this.ttl = [...this.indexes.values()].filter((i) => i.def.expireAfterSeconds !== undefined);
    this.reschedule();
  }

  /** Schedules every document again (TTL indexes changed, or stale entries piled up). */
  private reschedule(): void {
    const entries: Expiry[] = [];
    if (this.ttl.length > 0) {
      for (const [idKey, doc] of this.docs) {
        const at = this.expiryOf(doc);
        if (at !== undefined) entries.push({ at, idKey });
      }
    }
    this.expiries.rebuild(entries);
  }

  private schedule(doc: Document, idKey: string): void {
    if (this.ttl.length === 0) return;
    const at = this.expiryOf(doc);
    if (at !== undefined) this.expiries.add(at, idKey);
  }

  /** The earliest time (ms) at which a TTL index makes `doc` expire, if any does. */
  private expiryOf(doc: Document): number | undefined {
    let earliest: number | undefined;
    for (const index of this.ttl) {
      const ms = index.def.expireAfterSeconds! * 1000;
      for (const v of valuesAtPath(doc, index.keyer.fields[0])) {
        for (const d of Array.isArray(v) ? v : [v]) {
          if (d instanceof Date && (earliest === undefined || d.getTime() + ms < earliest))
            earliest = d.getTime() + ms;
        }
      }
    }
    return earliest;
  }

  /**
   * The documents expired at `nowMs` (for the TTL sweep, which removes them), found through the
   * expiry schedule: only what is due is visited, whatever the collection's size.
   */
  takeExpired(nowMs: number): Document[] {
    if (this.ttl.length === 0) return [];
    const expired: Document[] = [];
    for (const idKey of this.expiries.takeDue(nowMs)) {
      // As the document is now: gone, or replaced by a version that expires later (it has its
      // own entry), it is skipped.
      const doc = this.docs.get(idKey);
      if (doc && this.isExpired(doc, nowMs)) expired.push(doc);
    }
    // Replaced and removed documents leave entries behind; drop them once they outnumber the documents.
    if (this.expiries.size > 2 * this.docs.size + 1024) this.reschedule();
    return expired;
  }

  /** Inserts a new document (it must carry `_id`). */
  insert(doc: Document): void {
    const idKey = valueKey(doc._id);
    if (this.docs.has(idKey)) throw this.duplicateId(doc._id);
    const planned = this.planEntries(doc, idKey);
    this.docs.set(idKey, doc);
    for (const [index, entries] of planned) for (const e of entries) index.entries!.set(e.key, idKey);
    this.schedule(doc, idKey);
    if (this.buckets.size > 0) this.bucket(doc, idKey);
  }

  /** Swaps `oldDoc` for `newDoc` (same `_id`), keeping its position in the natural order. */
  replace(oldDoc: Document, newDoc: Document): void {
    const idKey = valueKey(oldDoc._id);
    const planned = this.planEntries(newDoc, idKey);
    this.unindex(oldDoc, idKey);
    this.docs.set(idKey, newDoc);
    for (const [index, entries] of planned) for (const e of entries) index.entries!.set(e.key, idKey);
    this.schedule(newDoc, idKey);
    if (this.buckets.size > 0) {
      // Values the new version keeps stay where they are (their place in insertion order).
      this.unbucket(oldDoc, idKey, newDoc);
      this.bucket(newDoc, idKey);
    }
  }

  remove(doc: Document): void {
    const idKey = valueKey(doc._id);
    this.unindex(doc, idKey);
    if (this.buckets.size > 0) this.unbucket(doc, idKey);
    this.docs.delete(idKey);
  }

  /** True when a TTL index says the document has expired (it is then invisible to every read). */
  isExpired(doc: Document, nowMs: number): boolean {
    if (this.ttl.length === 0) return false;
    const at = this.expiryOf(doc);
    return at !== undefined && at <= nowMs;
  }

  /**
   * Expired documents (TTL) that would collide with `doc` on `_id` or a unique key. They are
   * invisible to reads already; a write must not fail on them, so the caller deletes them first.
   */
  expiredConflicts(doc: Document, nowMs: number): Document[] {
    if (this.ttl.length === 0) return [];
    const out = new Set<Document>();
    const idKey = valueKey(doc._id);
    const same = this.docs.get(idKey);
    if (same && this.isExpired(same, nowMs)) out.add(same);
    for (const index of this.indexes.values()) {
      if (!index.entries) continue;
      for (const e of index.keyer.entries(doc)) {
        const holderKey = index.entries.get(e.key);
        const holder = holderKey === undefined || holderKey === idKey ? undefined : this.docs.get(holderKey);
        if (holder && this.isExpired(holder, nowMs)) out.add(holder);
      }
    }
    return [...out];
  }

  /** Checks every unique index for `doc` and returns what to add, without changing anything. */
  private planEntries(doc: Document, idKey: string): Array<[SecondaryIndex, IndexEntry[]]> {
    const planned: Array<[SecondaryIndex, IndexEntry[]]> = [];
    for (const index of this.indexes.values()) {
      if (!index.entries) continue;
      const entries = index.keyer.entries(doc);
      for (const e of entries) {
        const holder = index.entries.get(e.key);
        if (holder !== undefined && holder !== idKey) throw this.duplicate(index, e);
      }
      planned.push([index, entries]);
    }
    return planned;
  }

  private unindex(doc: Document, idKey: string): void {
    for (const index of this.indexes.values()) {
      if (!index.entries) continue;
      for (const e of index.keyer.entries(doc)) {
        if (index.entries.get(e.key) === idKey) index.entries.delete(e.key);
      }
    }
  }

  private duplicateId(id: unknown): MongoCommandError {
    return dupError(this.ns, '_id_', { _id: 1 }, { _id: id });
  }

  private duplicate(index: SecondaryIndex, entry: IndexEntry): MongoCommandError {
    return dupError(this.ns, index.def.name, index.def.key, index.keyer.keyValue(entry));
  }
}

/** Canonical keys of the values of `field` in `doc` (array elements one by one), null and missing left out. */
function bucketKeys(doc: Document, field: string): Set<string> {
  const keys = new Set<string>();
  for (const v of flatValuesAtPath(doc, field)) if (v !== null && v !== undefined) keys.add(valueKey(v));
  return keys;
}

function addTo(byValue: Map<string, Set<string>>, key: string, idKey: string): void {
  const ids = byValue.get(key);
  if (ids) ids.add(idKey);
  else byValue.set(key, new Set([idKey]));
}

function dupError(
  ns: string,
  indexName: string,
  keyPattern: Record<string, unknown>,
  keyValue: Record<string, unknown>,
): MongoCommandError {
  const shown = Object.entries(keyValue)
    .map(([k, v]) => `${k}: ${formatValue(v)}`)
    .join(', ');
  return fail(
    ErrorCodes.DuplicateKey,
    `E11000 duplicate key error collection: ${ns} index: ${indexName} dup key: { ${shown} }`,
    {
      keyPattern,
      keyValue,
    },
  );
}

function formatValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof Date) return `new Date(${v.getTime()})`;
  if (v !== null && typeof v === 'object' && typeof (v as { inspect?: unknown }).inspect === 'function') {
    return String((v as { inspect(): string }).inspect());
  }
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}
