import { closeSync, copyFileSync, existsSync, fstatSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { deserialize, type Document } from 'bson';
import type { Logger } from '../../../logging/logger';
import type { IndexDefinition } from '../engine/index-spec';
import { Store } from '../engine/store';
import { valueKey } from '../engine/value-key';
import { WIRE_BSON_OPTIONS } from '../wire/protocol';
import { writeFileDurably } from './durable-file';
import { DataDirLock } from './dir-lock';
import { Journal, type JournalOptions } from './journal';
import { JOURNAL_MAGIC, readRecords } from './record-codec';

export const JOURNAL_FILE = 'journal.wal';
/** Copy of the journal kept when recovery had to ignore a torn or corrupt tail. */
export const TORN_BACKUP_FILE = 'journal.wal.torn';

/** A store backed by a data directory, and how to let go of it. */
export interface PersistentStore {
  store: Store;
  close(): Promise<void>;
}

/**
 * Opens a data directory: takes its lock, replays the journal (stopping at a torn tail), writes a
 * compacted snapshot of the recovered state atomically, then opens it for appending.
 */
export async function openPersistentStore(
  dir: string,
  logger: Logger,
  options: JournalOptions = {},
): Promise<PersistentStore> {
  mkdirSync(dir, { recursive: true });
  const lock = await DataDirLock.acquire(dir);
  if (lock.tookOver) {
    logger.warn(
      { previousOwner: lock.tookOver.pid, state: lock.tookOver.state },
      'embedded-mongo data directory lock taken over from a process that no longer holds it',
    );
  }
  try {
    const store = new Store();
    const file = path.join(dir, JOURNAL_FILE);
    const started = Date.now();
    if (existsSync(file)) {
      const fd = openSync(file, 'r');
      try {
        let skipped = 0;
        const outcome = readRecords(fd, fstatSync(fd).size, (payload) => {
          if (!applyRecord(store, deserialize(payload, WIRE_BSON_OPTIONS), logger)) skipped += 1;
        });
        if (outcome.ignoredBytes > 0) {
          copyFileSync(file, path.join(dir, TORN_BACKUP_FILE));
          logger.warn(
            { ignoredBytes: outcome.ignoredBytes, validBytes: outcome.validBytes, backup: TORN_BACKUP_FILE },
            'embedded-mongo journal ends with a torn or corrupt record; it was never acknowledged and is ignored',
          );
        }
        logger.info(
          { records: outcome.records, skipped, ms: Date.now() - started },
          'embedded-mongo journal replayed',
        );
      } finally {
        closeSync(fd);
      }
    }
    await writeFileDurably(file, [JOURNAL_MAGIC, ...(await store.snapshotRecordsInSlices())]);
    store.journal = await Journal.open(file, () => store.snapshotRecordsInSlices(), logger, options);
    return {
      store,
      close: async () => {
        try {
          // The closed journal stays attached: a late write is refused rather than acknowledged
          // without being durable.
          await store.journal?.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (err) {
    lock.release();
    throw err;
  }
}

/** Applies one journal record; returns false (after logging) when it cannot be applied. */
export function applyRecord(store: Store, rec: Document, logger: Logger): boolean {
  const batch = store.batch(); // no journal yet: changes apply in memory only
  try {
    const db = String(rec.d);
    const name = String(rec.c);
    switch (rec.o) {
      case 'cc':
        batch.ensureCollection(db, name);
        return true;
      case 'p': {
        const coll = batch.ensureCollection(db, name);
        const doc = rec.v as Document;
        const existing = coll.docs.get(valueKey(doc._id));
        if (existing) batch.replace(coll, existing, doc);
        else batch.insert(coll, doc);
        return true;
      }
      case 'x': {
        const coll = store.collection(db, name);
        const doc = coll?.docs.get(valueKey(rec.k));
        if (coll && doc) batch.remove(coll, doc);
        return true;
      }
      case 'ci': {
        const coll = batch.ensureCollection(db, name);
        const def = rec.v as IndexDefinition;
        if (!coll.indexes.has(def.name)) batch.createIndex(coll, def);
        return true;
      }
      case 'di': {
        const coll = store.collection(db, name);
        if (coll) batch.dropIndex(coll, String(rec.n));
        return true;
      }
      case 'dc': {
        const coll = store.collection(db, name);
        if (coll) batch.dropCollection(coll);
        return true;
      }
      case 'dd':
        batch.dropDatabase(db);
        return true;
      case 'rn': {
        const coll = store.collection(db, name);
        if (coll) batch.renameCollection(coll, String(rec.to));
        return true;
      }
      default:
        logger.error({ op: rec.o }, 'embedded-mongo journal record of unknown kind skipped');
        return false;
    }
  } catch (err) {
    logger.error(
      { err, op: rec.o, db: rec.d, coll: rec.c },
      'embedded-mongo journal record could not be applied; skipped',
    );
    return false;
  }
}
