import { calculateObjectSize, serialize, type Document } from 'bson';
import { ErrorCodes, fail } from '../errors';
import type { Journal } from '../persistence/journal';
import { frameRecord, RECORD_HEADER_SIZE } from '../persistence/record-codec';
import { takeEncoded } from '../encoded-bytes';
import { Collection } from './collection';
import type { IndexDefinition } from './index-spec';

/** Documents serialised between two yields of an online snapshot (about 10-20 ms of work). */
const SNAPSHOT_SLICE = 2000;

/**
 * The whole data set in memory: databases -> collections. Every change goes through a WriteBatch,
 * which applies it in memory synchronously and collects the journal records; `commit()` then
 * waits until those records are durable. Because a command applies all its changes without
 * yielding to the event loop, each command is atomic with respect to every other command.
 */
export class Store {
  readonly dbs = new Map<string, Map<string, Collection>>();
  journal: Journal | null = null;

  collection(db: string, name: string): Collection | undefined {
    return this.dbs.get(db)?.get(name);
  }

  collections(db: string): Collection[] {
    return [...(this.dbs.get(db)?.values() ?? [])];
  }

  batch(): WriteBatch {
    return new WriteBatch(this);
  }

  /**
   * Framed records describing the whole live state (the rewrite at start, the online compaction),
   * without holding the event loop for the whole data set (300,000 route records took 3 s to
   * serialise, during which a process serving the API answered nothing): what to write is captured
   * at once (collections, index definitions and the current version of every document, which stays
   * as it is since stored documents are never mutated), then serialised `sliceSize` documents at a
   * time, yielding to the event loop in between. Changes made meanwhile are not in it: their records
   * follow it in the journal.
   */
  async snapshotRecordsInSlices(sliceSize = SNAPSHOT_SLICE): Promise<Buffer[]> {
    const now = Date.now();
    // Names as they are now: a collection renamed meanwhile gets its `rn` record after the snapshot.
    const plan: Array<{ head: Buffer[]; db: string; name: string; coll: Collection; docs: Document[] }> = [];
    for (const [db, colls] of this.dbs) {
      for (const coll of colls.values()) {
        const head = frameRecord(serialize({ o: 'cc', d: db, c: coll.name }));
        for (const index of coll.indexes.values()) {
          head.push(...frameRecord(serialize({ o: 'ci', d: db, c: coll.name, v: index.def })));
        }
        plan.push({ head, db, name: coll.name, coll, docs: [...coll.docs.values()] });
      }
    }
    const out: Buffer[] = [];
    let sinceYield = 0;
    for (const { head, db, name, coll, docs } of plan) {
      out.push(...head);
      for (const doc of docs) {
        if (coll.ttl.length > 0 && coll.isExpired(doc, now)) continue;
        out.push(...frameRecord(serialize({ o: 'p', d: db, c: name, v: doc })));
        if (++sinceYield >= sliceSize) {
          sinceYield = 0;
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      }
    }
    return out;
  }
}

/** Changes of one command: applied immediately, made durable together by `commit()`. */
export class WriteBatch {
  private readonly records: Uint8Array[] = [];
  /** Bytes of the journal this batch makes dead (older versions, removed documents), estimated. */
  private dead = 0;

  constructor(readonly store: Store) {}

  get empty(): boolean {
    return this.records.length === 0;
  }

  /** Whether this batch's changes are journaled (else memory only: nothing to encode). */
  get journaled(): boolean {
    return this.store.journal !== null;
  }

  /** Journals `rec` (encoded here); its size in bytes, 0 when nothing is journaled. */
  private record(rec: Document): number {
    if (!this.journaled) return 0;
    const bytes = serialize(rec);
    this.records.push(bytes);
    return bytes.length;
  }

  /** The collection, created (and journaled) when missing. */
  ensureCollection(db: string, name: string): Collection {
    const existing = this.store.collection(db, name);
    if (existing) return existing;
    validateNamespace(db, name);
    let colls = this.store.dbs.get(db);
    if (!colls) {
      colls = new Map();
      this.store.dbs.set(db, colls);
    }
    const coll = new Collection(db, name);
    colls.set(name, coll);
    this.record({ o: 'cc', d: db, c: name });
    return coll;
  }

  insert(coll: Collection, doc: Document): void {
    const bytes = takeEncoded(doc);
    this.purgeExpired(coll, doc);
    coll.insert(doc);
    if (this.journaled) this.records.push(putRecordOf(coll, doc, bytes));
  }

  replace(coll: Collection, oldDoc: Document, newDoc: Document): void {
    const bytes = takeEncoded(newDoc);
    this.purgeExpired(coll, newDoc);
    coll.replace(oldDoc, newDoc);
    if (!this.journaled) return;
    const rec = putRecordOf(coll, newDoc, bytes);
    this.records.push(rec);
    // The old version's record is dead now; the new one's size stands in for it (not encoded again).
    this.dead += RECORD_HEADER_SIZE + rec.length;
  }

  /** Deletes expired documents that `doc` would collide with (see Collection.expiredConflicts). */
  private purgeExpired(coll: Collection, doc: Document): void {
    if (coll.ttl.length === 0) return;
    for (const stale of coll.expiredConflicts(doc, Date.now())) this.remove(coll, stale);
  }

  remove(coll: Collection, doc: Document): void {
    coll.remove(doc);
    const size = this.record({ o: 'x', d: coll.db, c: coll.name, k: doc._id });
    // Dead: the document's record, and this one too (a rewrite leaves neither).
    if (size > 0) this.dead += this.recordSizeOf(coll, doc) + RECORD_HEADER_SIZE + size;
  }

  private recordSizeOf(coll: Collection, doc: Document): number {
    return RECORD_HEADER_SIZE + calculateObjectSize({ o: 'p', d: coll.db, c: coll.name, v: doc });
  }

  /** What dropping these collections leaves dead in the journal: every document's record. */
  private deadOf(colls: Iterable<Collection>): number {
    if (!this.journaled) return 0;
    let bytes = 0;
    for (const coll of colls) for (const doc of coll.docs.values()) bytes += this.recordSizeOf(coll, doc);
    return bytes;
  }

  createIndex(coll: Collection, def: IndexDefinition): void {
    coll.addIndex(def);
    this.record({ o: 'ci', d: coll.db, c: coll.name, v: def });
  }

  dropIndex(coll: Collection, name: string): void {
    coll.dropIndex(name);
    this.record({ o: 'di', d: coll.db, c: coll.name, n: name });
  }

  dropCollection(coll: Collection): void {
    this.dead += this.deadOf([coll]);
    const colls = this.store.dbs.get(coll.db);
    colls?.delete(coll.name);
    if (colls && colls.size === 0) this.store.dbs.delete(coll.db);
    this.record({ o: 'dc', d: coll.db, c: coll.name });
  }

  dropDatabase(db: string): void {
    this.dead += this.deadOf(this.store.dbs.get(db)?.values() ?? []);
    this.store.dbs.delete(db);
    this.record({ o: 'dd', d: db });
  }

  renameCollection(coll: Collection, to: string): void {
    validateNamespace(coll.db, to);
    const colls = this.store.dbs.get(coll.db)!;
    colls.delete(coll.name);
    const from = coll.name;
    coll.name = to;
    colls.set(to, coll);
    this.record({ o: 'rn', d: coll.db, c: from, to });
  }

  /** Resolves when every change of this batch is durable (at once in memory-only mode). */
  commit(): Promise<void> | undefined {
    if (!this.store.journal || this.records.length === 0) return undefined;
    return this.store.journal.append(this.records, this.dead);
  }
}

const BAD_DB_CHARS = /[/\\. "$*<>:|?\0]/;

/** MongoDB's naming rules, so that data written here is also valid on a real server. */
export function validateNamespace(db: string, coll?: string): void {
  if (db === '' || db.length > 63 || BAD_DB_CHARS.test(db))
    throw fail(ErrorCodes.InvalidNamespace, `Invalid database name: '${db}'`);
  if (coll === undefined) return;
  if (
    coll === '' ||
    coll.includes('\0') ||
    coll.includes('$') ||
    coll.startsWith('.') ||
    coll.startsWith('system.')
  ) {
    throw fail(ErrorCodes.InvalidNamespace, `Invalid collection name: '${coll}'`);
  }
  if (db.length + 1 + coll.length > 255)
    throw fail(ErrorCodes.InvalidNamespace, `Fully qualified namespace is too long: ${db}.${coll}`);
}

/**
 * Runs `fn` with a fresh batch and commits it even when `fn` throws: whatever `fn` already applied
 * in memory must reach the journal too, or a restart would disagree with what readers saw.
 */
export async function withBatch<T>(store: Store, fn: (batch: WriteBatch) => T): Promise<T> {
  const batch = store.batch();
  let result: T;
  try {
    result = fn(batch);
  } catch (err) {
    await batch.commit();
    throw err;
  }
  await batch.commit();
  return result;
}

/**
 * The `p` record of `doc` in `coll`: built around `bytes`, the document's encoding when it is
 * already known (../encoded-bytes.ts: as it arrived, or as its size check encoded it), else encoded.
 */
function putRecordOf(coll: Collection, doc: Document, bytes: Uint8Array | undefined): Uint8Array {
  return bytes
    ? putRecord(coll.db, coll.name, bytes)
    : serialize({ o: 'p', d: coll.db, c: coll.name, v: doc });
}

/** The encoded start of a `p` record of one collection (`{o, d, c}` without its end), by namespace. */
const putHeads = new Map<string, Buffer>();

/**
 * The record `{o: 'p', d: db, c: name, v: <the document encoded in docBytes>}`, built around the
 * document's bytes instead of encoding it: the same bytes `serialize` gives for that record.
 */
export function putRecord(db: string, name: string, docBytes: Uint8Array): Buffer {
  const key = `${db}\0${name}`;
  let head = putHeads.get(key);
  if (!head) {
    const whole = serialize({ o: 'p', d: db, c: name });
    // Without its terminating zero, followed by the `v` element's type (embedded document) and name.
    head = Buffer.concat([whole.subarray(0, whole.length - 1), Buffer.from([0x03, 0x76, 0x00])]);
    if (putHeads.size < 10_000) putHeads.set(key, head);
  }
  const out = Buffer.allocUnsafe(head.length + docBytes.length + 1);
  head.copy(out, 0);
  out.set(docBytes, head.length);
  out[out.length - 1] = 0;
  out.writeInt32LE(out.length, 0);
  return out;
}
