import type { Document } from 'bson';
import { ErrorCodes, fail } from '../errors';
import { firstBatch } from '../engine/cursors';
import { flatValuesAtPath } from '../engine/paths';
import { matcher } from '../engine/planner';
import { runPipeline } from '../engine/pipeline';
import { valueKey } from '../engine/value-key';
import {
  countDocuments,
  nonNegativeInt,
  parseProjection,
  parseSort,
  readDocuments,
} from '../engine/query-exec';
import { checkHint, collationOf, collectionName, cursorReply, optionalBool, optionalDoc } from './common';
import type { CommandHandler } from './types';

/** Options of `find` this server cannot honour; they are refused rather than ignored. */
const UNSUPPORTED_FIND_OPTIONS = [
  'min',
  'max',
  'returnKey',
  'showRecordId',
  'tailable',
  'awaitData',
  'oplogReplay',
];

function batchSizeOf(value: unknown, field = 'batchSize'): number | undefined {
  return nonNegativeInt(value, field);
}

export const readCommands: Record<string, CommandHandler> = {
  find: ({ db, cmd, ctx }) => {
    const name = collectionName(cmd, 'find');
    for (const opt of UNSUPPORTED_FIND_OPTIONS) {
      if (cmd[opt])
        throw fail(
          ErrorCodes.CommandNotSupported,
          `find option '${opt}' is not supported by the embedded server`,
        );
    }
    const coll = ctx.store.collection(db, name);
    checkHint(coll, cmd.hint);
    let limit = typeof cmd.limit === 'number' ? cmd.limit : undefined;
    let singleBatch = optionalBool(cmd, 'singleBatch');
    if (limit !== undefined && limit < 0) {
      // Legacy negative limit: one batch of |limit| documents.
      limit = -limit;
      singleBatch = true;
    }
    const source = readDocuments(coll, optionalDoc(cmd, 'filter'), {
      sort: parseSort(cmd.sort),
      projection: parseProjection(cmd.projection),
      skip: nonNegativeInt(cmd.skip, 'skip'),
      limit: nonNegativeInt(limit, 'limit'),
      collation: collationOf(cmd) as never,
      variables: optionalDoc(cmd, 'let'),
    });
    const ns = `${db}.${name}`;
    const batch = firstBatch(ctx.cursors, ns, source, {
      batchSize: batchSizeOf(cmd.batchSize),
      limit,
      singleBatch,
    });
    return cursorReply('firstBatch', batch.docs, batch.id, ns);
  },

  getMore: ({ db, cmd, ctx }) => {
    const id = cmd.getMore;
    if (typeof id !== 'number' && typeof id !== 'bigint')
      throw fail(ErrorCodes.TypeMismatch, 'getMore must be a cursor id (long)');
    const name = cmd.collection;
    if (typeof name !== 'string')
      throw fail(ErrorCodes.TypeMismatch, "BSON field 'getMore.collection' must be a string");
    const ns = `${db}.${name}`;
    const batch = ctx.cursors.more(Number(id), ns, batchSizeOf(cmd.batchSize) ?? 0);
    return cursorReply('nextBatch', batch.docs, batch.id, ns);
  },

  killCursors: ({ cmd, ctx }) => {
    collectionName(cmd, 'killCursors');
    const ids = Array.isArray(cmd.cursors) ? cmd.cursors : [];
    const killed: number[] = [];
    const notFound: number[] = [];
    for (const raw of ids) {
      const id = Number(raw);
      (ctx.cursors.kill(id) ? killed : notFound).push(id);
    }
    return { cursorsKilled: killed, cursorsNotFound: notFound, cursorsAlive: [], cursorsUnknown: [], ok: 1 };
  },

  count: ({ db, cmd, ctx }) => {
    const name = collectionName(cmd, 'count');
    const coll = ctx.store.collection(db, name);
    checkHint(coll, cmd.hint);
    const n = countDocuments(coll, optionalDoc(cmd, 'query'), {
      skip: nonNegativeInt(cmd.skip, 'skip'),
      limit: typeof cmd.limit === 'number' ? Math.abs(cmd.limit) : undefined,
      collation: collationOf(cmd) as never,
    });
    return { n, ok: 1 };
  },

  distinct: ({ db, cmd, ctx }) => {
    const name = collectionName(cmd, 'distinct');
    const key = cmd.key;
    if (typeof key !== 'string' || key === '')
      throw fail(ErrorCodes.TypeMismatch, "BSON field 'distinct.key' must be a non-empty string");
    const coll = ctx.store.collection(db, name);
    const seen = new Map<string, unknown>();
    for (const doc of matcher(coll, optionalDoc(cmd, 'query'), {
      collation: collationOf(cmd) as never,
    }).matches()) {
      for (const v of flatValuesAtPath(doc, key)) {
        const k = valueKey(v);
        if (!seen.has(k)) seen.set(k, v);
      }
    }
    return { values: [...seen.values()], ok: 1 };
  },

  aggregate: ({ db, cmd, ctx }) => {
    const target = cmd.aggregate;
    const collName = target === 1 ? undefined : collectionName(cmd, 'aggregate');
    if (cmd.explain)
      throw fail(ErrorCodes.CommandNotSupported, 'explain is not supported by the embedded server');
    const cursorOpt = optionalDoc(cmd, 'cursor');
    if (!cursorOpt) {
      throw fail(
        ErrorCodes.FailedToParse,
        "The 'cursor' option is required, except for aggregate with the explain argument",
      );
    }
    checkHint(collName === undefined ? undefined : ctx.store.collection(db, collName), cmd.hint);
    const results = runPipeline(ctx.store, db, collName, cmd.pipeline as Document[], {
      collation: collationOf(cmd) as never,
      variables: optionalDoc(cmd, 'let'),
    });
    const ns = `${db}.${collName ?? '$cmd.aggregate'}`;
    const batch = firstBatch(ctx.cursors, ns, results[Symbol.iterator](), {
      batchSize: batchSizeOf(cursorOpt.batchSize, 'cursor.batchSize'),
    });
    return cursorReply('firstBatch', batch.docs, batch.id, ns);
  },
};
