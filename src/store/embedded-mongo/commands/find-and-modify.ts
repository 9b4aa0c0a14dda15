import type { Document } from 'bson';
import { ErrorCodes, fail } from '../errors';
import { projectOne } from '../engine/projection';
import { findFirst, matcher } from '../engine/planner';
import { parseProjection, parseSort, readDocuments } from '../engine/query-exec';
import type { Collection } from '../engine/collection';
import { withBatch, type WriteBatch } from '../engine/store';
import { applyUpdate, parseUpdate, type UpdateSpec } from '../engine/update';
import { checkHint, collationOf, collectionName, optionalBool, optionalDoc } from './common';
import { upsertOne } from './write';
import type { CommandHandler, CommandRequest } from './types';

function project(doc: Document | undefined, fields: Document | undefined): Document | null {
  if (!doc) return null;
  if (!fields) return doc;
  return projectOne(doc, fields) ?? null;
}

/**
 * `findAndModify`: finds one document (the first in `sort` order), then removes or updates it, or
 * upserts. The find and the change happen in one synchronous step, so a conditional
 * findOneAndUpdate has exactly one winner however many clients race on it.
 */
function findAndModify(req: CommandRequest, command: string): Promise<Document> {
  const { db, cmd, ctx } = req;
  const name = collectionName(cmd, command);
  const query = optionalDoc(cmd, 'query') ?? {};
  const remove = optionalBool(cmd, 'remove');
  const returnNew = optionalBool(cmd, 'new');
  const upsert = optionalBool(cmd, 'upsert');
  const hasUpdate = cmd.update !== undefined && cmd.update !== null;
  if (remove && hasUpdate)
    throw fail(ErrorCodes.FailedToParse, 'Cannot specify both an update and remove=true');
  if (remove && upsert)
    throw fail(ErrorCodes.FailedToParse, 'Cannot specify both upsert=true and remove=true');
  if (remove && returnNew)
    throw fail(
      ErrorCodes.FailedToParse,
      "Cannot specify both new=true and remove=true; 'remove' always returns the deleted document",
    );
  if (!remove && !hasUpdate)
    throw fail(ErrorCodes.FailedToParse, 'Either an update or remove=true must be specified');
  const fields = parseProjection(cmd.fields);
  const sort = parseSort(cmd.sort);
  const arrayFilters = Array.isArray(cmd.arrayFilters) ? (cmd.arrayFilters as Document[]) : undefined;
  const spec = hasUpdate ? parseUpdate(cmd.update) : undefined;
  const opts = { collation: collationOf(cmd) as never, variables: optionalDoc(cmd, 'let') };

  const coll = ctx.store.collection(db, name);
  checkHint(coll, cmd.hint);
  return withBatch(ctx.store, (batch) => {
    const target = sort
      ? readDocuments(coll, query, { ...opts, sort, limit: 1 }).next().value
      : findFirst(matcher(coll, query, opts));
    return modify(batch, {
      db,
      name,
      coll,
      target,
      remove,
      returnNew,
      upsert,
      fields,
      spec,
      query,
      arrayFilters,
      update: cmd.update,
    });
  });
}

interface ModifyArgs {
  db: string;
  name: string;
  coll: Collection | undefined;
  target: Document | undefined;
  remove: boolean;
  returnNew: boolean;
  upsert: boolean;
  fields: Document | undefined;
  spec: UpdateSpec | undefined;
  query: Document;
  arrayFilters: Document[] | undefined;
  update: unknown;
}

function modify(batch: WriteBatch, a: ModifyArgs): Document {
  const { target, fields, returnNew } = a;
  let reply: Document;
  if (a.remove) {
    if (target) batch.remove(a.coll!, target);
    reply = { lastErrorObject: { n: target ? 1 : 0 }, value: project(target, fields), ok: 1 };
  } else if (target) {
    const next = applyUpdate(target, a.spec!, {
      filter: a.query,
      arrayFilters: a.arrayFilters,
      encode: batch.journaled,
    });
    if (next) batch.replace(a.coll!, target, next);
    reply = {
      lastErrorObject: { n: 1, updatedExisting: true },
      value: project(returnNew ? (next ?? target) : target, fields),
      ok: 1,
    };
  } else if (a.upsert) {
    const coll = batch.ensureCollection(a.db, a.name);
    const doc = upsertOne(batch, coll, a.query, a.update, a.arrayFilters);
    reply = {
      lastErrorObject: { n: 1, updatedExisting: false, upserted: doc._id },
      value: returnNew ? project(doc, fields) : null,
      ok: 1,
    };
  } else {
    reply = { lastErrorObject: { n: 0, updatedExisting: false }, value: null, ok: 1 };
  }
  return reply;
}

export const findAndModifyCommands: Record<string, CommandHandler> = {
  findAndModify: (req) => findAndModify(req, 'findAndModify'),
  findandmodify: (req) => findAndModify(req, 'findandmodify'),
};
