import { calculateObjectSize, type Document } from 'bson';
import { Query } from 'mingo';
import { ErrorCodes, fail } from '../errors';
import { ID_INDEX, type Collection } from '../engine/collection';
import { firstBatch } from '../engine/cursors';
import { MINGO_OPTIONS } from '../engine/mingo-options';
import { validateNamespace, withBatch } from '../engine/store';
import { collectionName, cursorReply, optionalBool, optionalDoc } from './common';
import type { CommandHandler } from './types';

/** `create` options that change behaviour this server does not have; refused rather than ignored. */
const UNSUPPORTED_CREATE_OPTIONS = [
  'capped',
  'validator',
  'timeseries',
  'viewOn',
  'pipeline',
  'clusteredIndex',
  'changeStreamPreAndPostImages',
  'expireAfterSeconds',
  'encryptedFields',
];

function dataSize(coll: Collection): number {
  let size = 0;
  for (const doc of coll.docs.values()) size += calculateObjectSize(doc);
  return size;
}

function requireAdmin(db: string, command: string): void {
  if (db !== 'admin')
    throw fail(ErrorCodes.Unauthorized, `${command} may only be run against the admin database.`);
}

function collectionInfo(coll: Collection, nameOnly: boolean): Document {
  if (nameOnly) return { name: coll.name, type: 'collection' };
  return { name: coll.name, type: 'collection', options: {}, info: { readOnly: false }, idIndex: ID_INDEX };
}

export const catalogCommands: Record<string, CommandHandler> = {
  listCollections: ({ db, cmd, ctx }) => {
    const filter = optionalDoc(cmd, 'filter');
    const nameOnly = optionalBool(cmd, 'nameOnly');
    let infos = ctx.store.collections(db).map((c) => collectionInfo(c, nameOnly));
    if (filter) {
      const q = new Query(filter, MINGO_OPTIONS);
      infos = infos.filter((i) => q.test(i));
    }
    const ns = `${db}.$cmd.listCollections`;
    const batchSize = optionalDoc(cmd, 'cursor')?.batchSize as number | undefined;
    const batch = firstBatch(ctx.cursors, ns, infos.values(), { batchSize });
    return cursorReply('firstBatch', batch.docs, batch.id, ns);
  },

  create: ({ db, cmd, ctx }) => {
    const name = collectionName(cmd, 'create');
    for (const opt of UNSUPPORTED_CREATE_OPTIONS) {
      if (cmd[opt] !== undefined && cmd[opt] !== false) {
        throw fail(
          ErrorCodes.CommandNotSupported,
          `create option '${opt}' is not supported by the embedded server`,
        );
      }
    }
    const collation = optionalDoc(cmd, 'collation');
    if (collation && collation.locale !== 'simple') {
      throw fail(
        ErrorCodes.CommandNotSupported,
        'collection collations are not supported by the embedded server',
      );
    }
    validateNamespace(db, name);
    if (ctx.store.collection(db, name))
      throw fail(ErrorCodes.NamespaceExists, `Collection ${db}.${name} already exists.`);
    return withBatch(ctx.store, (batch) => {
      batch.ensureCollection(db, name);
      return { ok: 1 };
    });
  },

  drop: ({ db, cmd, ctx }) => {
    const name = collectionName(cmd, 'drop');
    const coll = ctx.store.collection(db, name);
    // Like MongoDB 7.0, dropping a collection that does not exist succeeds.
    if (!coll) return { ok: 1 };
    const was = coll.definitions().length;
    return withBatch(ctx.store, (batch) => {
      batch.dropCollection(coll);
      return { nIndexesWas: was, ns: coll.ns, ok: 1 };
    });
  },

  dropDatabase: ({ db, ctx }) => {
    if (!ctx.store.dbs.has(db)) return { ok: 1 };
    return withBatch(ctx.store, (batch) => {
      batch.dropDatabase(db);
      return { dropped: db, ok: 1 };
    });
  },

  listDatabases: ({ db, cmd, ctx }) => {
    requireAdmin(db, 'listDatabases');
    const nameOnly = optionalBool(cmd, 'nameOnly');
    let databases: Document[] = [...ctx.store.dbs.keys()].map((name) => {
      if (nameOnly) return { name };
      const sizeOnDisk = ctx.store.collections(name).reduce((sum, c) => sum + dataSize(c), 0);
      return { name, sizeOnDisk, empty: sizeOnDisk === 0 };
    });
    const filter = optionalDoc(cmd, 'filter');
    if (filter) {
      const q = new Query(filter, MINGO_OPTIONS);
      databases = databases.filter((d) => q.test(d));
    }
    if (nameOnly) return { databases, ok: 1 };
    const totalSize = databases.reduce((sum, d) => sum + (d.sizeOnDisk as number), 0);
    return { databases, totalSize, totalSizeMb: Math.floor(totalSize / (1024 * 1024)), ok: 1 };
  },

  renameCollection: ({ db, cmd, ctx }) => {
    requireAdmin(db, 'renameCollection');
    const from = cmd.renameCollection;
    const to = cmd.to;
    if (typeof from !== 'string' || typeof to !== 'string')
      throw fail(ErrorCodes.TypeMismatch, 'renameCollection and to must be namespace strings');
    const [fromDb, ...fromRest] = from.split('.');
    const [toDb, ...toRest] = to.split('.');
    if (fromDb !== toDb)
      throw fail(
        ErrorCodes.CommandNotSupported,
        'renaming a collection across databases is not supported by the embedded server',
      );
    const coll = ctx.store.collection(fromDb, fromRest.join('.'));
    if (!coll) throw fail(ErrorCodes.NamespaceNotFound, 'Source collection ' + from + ' does not exist');
    const toName = toRest.join('.');
    validateNamespace(toDb, toName);
    const target = ctx.store.collection(toDb, toName);
    if (target && !optionalBool(cmd, 'dropTarget'))
      throw fail(ErrorCodes.NamespaceExists, 'target namespace exists');
    return withBatch(ctx.store, (batch) => {
      if (target) batch.dropCollection(target);
      batch.renameCollection(coll, toName);
      return { ok: 1 };
    });
  },

  dbStats: ({ db, ctx }) => {
    const colls = ctx.store.collections(db);
    const objects = colls.reduce((sum, c) => sum + c.docs.size, 0);
    const size = colls.reduce((sum, c) => sum + dataSize(c), 0);
    const indexes = colls.reduce((sum, c) => sum + c.definitions().length, 0);
    return {
      db,
      collections: colls.length,
      views: 0,
      objects,
      dataSize: size,
      storageSize: size,
      indexes,
      ok: 1,
    };
  },
};
