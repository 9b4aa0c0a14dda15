import { MongoError, type Db, type Document, type IndexDescription } from 'mongodb';
import { AppError } from '../../../schemas/errors';
import type { Logger } from '../../logging/logger';
import { defaultIndexName, type CollectionDefinition } from './collection-definition';
import { isIndexConflictError, mapMongoError } from './mongo-errors';

/** What `ensureIndexes` did for one collection. */
export interface IndexReport {
  collection: string;
  /** Index names created by this call. */
  created: string[];
  /** Index names that already existed with the declared spec. */
  unchanged: string[];
}

/** A declared index that differs from the one in the database (never changed automatically). */
export interface IndexConflict {
  collection: string;
  index: string;
  reason: string;
}

const NAMESPACE_NOT_FOUND = 26;

/** The options that change what an index does; compared between declaration and database. */
function comparable(spec: IndexDescription | Document): string {
  const key = spec.key instanceof Map ? [...spec.key.entries()] : Object.entries(spec.key ?? {});
  return JSON.stringify({
    key: key.map(([field, dir]) => [field, String(dir)]),
    unique: Boolean(spec.unique),
    sparse: Boolean(spec.sparse),
    expireAfterSeconds: spec.expireAfterSeconds ?? null,
    partialFilterExpression: spec.partialFilterExpression ?? null,
  });
}

function keyOf(spec: IndexDescription | Document): string {
  return JSON.parse(comparable(spec)).key.join('|');
}

async function existingIndexes(db: Db, collection: string): Promise<Document[]> {
  try {
    return await db.collection(collection).listIndexes().toArray();
  } catch (err) {
    if (err instanceof MongoError && err.code === NAMESPACE_NOT_FOUND) return [];
    throw err;
  }
}

/**
 * Creates the declared indexes of every collection; idempotent (an index that exists with the same
 * spec is left alone). A declared index that exists with another spec, or whose key exists under
 * another name, is not touched: all such conflicts are collected and reported in one INTERNAL_ERROR
 * that names each collection and index, since fixing them needs a person (drop or rename).
 */
export async function ensureIndexes(
  db: Db,
  definitions: readonly CollectionDefinition[],
  logger: Logger,
): Promise<IndexReport[]> {
  const reports: IndexReport[] = [];
  const conflicts: IndexConflict[] = [];
  for (const def of definitions) {
    const report: IndexReport = { collection: def.name, created: [], unchanged: [] };
    try {
      const existing = await existingIndexes(db, def.name);
      const toCreate: IndexDescription[] = [];
      for (const declared of def.indexes) {
        const name = declared.name ?? defaultIndexName(declared.key);
        const sameName = existing.find((e) => e.name === name);
        const sameKey = existing.find((e) => e.name !== name && keyOf(e) === keyOf(declared));
        if (sameName && comparable(sameName) === comparable(declared)) report.unchanged.push(name);
        else if (sameName)
          conflicts.push({ collection: def.name, index: name, reason: 'exists with a different spec' });
        else if (sameKey) {
          conflicts.push({
            collection: def.name,
            index: name,
            reason: `same key exists as index ${sameKey.name}`,
          });
        } else toCreate.push({ ...declared, name });
      }
      if (toCreate.length > 0) {
        await db.collection(def.name).createIndexes(toCreate);
        report.created.push(...toCreate.map((i) => i.name as string));
        logger.info({ collection: def.name, indexes: report.created }, 'documents: indexes created');
      }
    } catch (err) {
      if (!isIndexConflictError(err)) throw mapMongoError(err, { collection: def.name, op: 'ensureIndexes' });
      // Raced with another process creating a different spec, or a conflict only the server saw.
      conflicts.push({ collection: def.name, index: '(createIndexes)', reason: (err as Error).message });
    }
    reports.push(report);
  }
  if (conflicts.length > 0) {
    const list = conflicts.map((c) => `${c.collection}.${c.index}: ${c.reason}`).join('; ');
    logger.error({ conflicts }, 'documents: declared indexes differ from the database');
    throw new AppError(
      'INTERNAL_ERROR',
      `index spec changed, drop or rename the index to apply the new spec: ${list}`,
      { conflicts },
    );
  }
  return reports;
}
