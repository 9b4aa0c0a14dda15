import type { Document } from 'bson';
import { ErrorCodes, fail } from '../errors';
import { firstBatch } from '../engine/cursors';
import {
  parseIndexDefinition,
  sameIndexOptions,
  sameKeyPattern,
  type IndexDefinition,
} from '../engine/index-spec';
import { withBatch } from '../engine/store';
import { valueKey } from '../engine/value-key';
import { collectionName, cursorReply, optionalDoc, requiredArray } from './common';
import type { CommandHandler } from './types';

function notFound(ns: string): Error {
  return fail(ErrorCodes.NamespaceNotFound, `ns does not exist: ${ns}`);
}

/** Which requested indexes are new; throws on a conflict with an existing one. */
function newIndexes(existing: IndexDefinition[], requested: IndexDefinition[]): IndexDefinition[] {
  const out: IndexDefinition[] = [];
  for (const def of requested) {
    const sameName = existing.find((e) => e.name === def.name) ?? out.find((e) => e.name === def.name);
    if (sameName) {
      if (!sameKeyPattern(sameName, def)) {
        throw fail(
          ErrorCodes.IndexKeySpecsConflict,
          `An existing index has the same name as the requested index but a different key: ${def.name}`,
        );
      }
      if (!sameIndexOptions(sameName, def)) {
        throw fail(
          ErrorCodes.IndexOptionsConflict,
          `An equivalent index already exists with the same name but different options: ${def.name}`,
        );
      }
      continue;
    }
    const sameKey = existing.find((e) => sameKeyPattern(e, def) && sameIndexOptions(e, def));
    if (sameKey) {
      throw fail(
        ErrorCodes.IndexOptionsConflict,
        `Index already exists with a different name: ${sameKey.name}`,
      );
    }
    out.push(def);
  }
  return out;
}

export const indexCommands: Record<string, CommandHandler> = {
  createIndexes: ({ db, cmd, ctx }) => {
    const name = collectionName(cmd, 'createIndexes');
    const requested = requiredArray(cmd, 'indexes').map(parseIndexDefinition);
    if (requested.length === 0) throw fail(ErrorCodes.BadValue, 'Must specify at least one index to create');
    return withBatch(ctx.store, (batch) => {
      const created = !ctx.store.collection(db, name);
      const coll = batch.ensureCollection(db, name);
      const before = coll.definitions().length;
      const toAdd = newIndexes(coll.definitions(), requested);
      const added: string[] = [];
      try {
        for (const def of toAdd) {
          batch.createIndex(coll, def);
          added.push(def.name);
        }
      } catch (err) {
        // All or nothing, as mongod builds the indexes of one command together.
        for (const n of added) batch.dropIndex(coll, n);
        throw err;
      }
      const reply: Document = {
        createdCollectionAutomatically: created,
        numIndexesBefore: before,
        numIndexesAfter: coll.definitions().length,
        ok: 1,
      };
      if (toAdd.length === 0) reply.note = 'all indexes already exist';
      return reply;
    });
  },

  listIndexes: ({ db, cmd, ctx }) => {
    const name = collectionName(cmd, 'listIndexes');
    const coll = ctx.store.collection(db, name);
    if (!coll) throw notFound(`${db}.${name}`);
    const ns = `${db}.${name}`;
    const batchSize = optionalDoc(cmd, 'cursor')?.batchSize as number | undefined;
    const batch = firstBatch(ctx.cursors, ns, coll.definitions().values(), { batchSize });
    return cursorReply('firstBatch', batch.docs, batch.id, ns);
  },

  dropIndexes: ({ db, cmd, ctx }) => {
    const name = collectionName(cmd, 'dropIndexes');
    const coll = ctx.store.collection(db, name);
    if (!coll) throw notFound(`${db}.${name}`);
    const spec = cmd.index;
    const was = coll.definitions().length;
    let names: string[];
    if (spec === '*') names = [...coll.indexes.keys()];
    else if (typeof spec === 'string') names = [spec];
    else if (Array.isArray(spec)) names = spec.map(String);
    else if (spec && typeof spec === 'object') {
      const key = valueKey(spec);
      const match = coll.definitions().find((d) => valueKey(d.key) === key);
      if (!match) throw fail(ErrorCodes.IndexNotFound, `can't find index with key: ${JSON.stringify(spec)}`);
      names = [match.name];
    } else
      throw fail(
        ErrorCodes.TypeMismatch,
        "BSON field 'dropIndexes.index' must be a string, an array or an object",
      );
    for (const n of names) {
      if (n === '_id_') throw fail(ErrorCodes.InvalidOptions, 'cannot drop _id index');
      if (!coll.indexes.has(n)) throw fail(ErrorCodes.IndexNotFound, `index not found with name [${n}]`);
    }
    return withBatch(ctx.store, (batch) => {
      for (const n of names) batch.dropIndex(coll, n);
      return { nIndexesWas: was, ok: 1 };
    });
  },
};
