import type { Document } from 'bson';
import { ErrorCodes, fail, toCommandError } from '../errors';
import { findFirst, matcher } from '../engine/planner';
import { applyUpdate, parseUpdate, upsertSeed, validateDocument, withId } from '../engine/update';
import type { Collection } from '../engine/collection';
import { withBatch, type WriteBatch } from '../engine/store';
import { isPlainObject } from '../engine/value-key';
import { MAX_WRITE_BATCH_SIZE } from './handshake';
import { checkHint, collationOf, collectionName, optionalBool, optionalDoc, requiredArray } from './common';
import type { CommandHandler, CommandRequest } from './types';

interface WriteError {
  index: number;
  code: number;
  errmsg: string;
  [extra: string]: unknown;
}

function statements(cmd: Document, field: string): unknown[] {
  const list = requiredArray(cmd, field);
  if (list.length === 0 || list.length > MAX_WRITE_BATCH_SIZE) {
    throw fail(
      ErrorCodes.InvalidLength,
      `Write batch sizes must be between 1 and ${MAX_WRITE_BATCH_SIZE}. Got ${list.length} operations.`,
    );
  }
  return list;
}

/** Runs each statement; collects write errors; stops at the first one when ordered. */
function eachStatement(
  cmd: Document,
  list: unknown[],
  run: (stmt: unknown, index: number) => void,
): WriteError[] {
  const ordered = cmd.ordered === undefined ? true : optionalBool(cmd, 'ordered');
  const errors: WriteError[] = [];
  for (let i = 0; i < list.length; i++) {
    try {
      run(list[i], i);
    } catch (err) {
      const e = toCommandError(err);
      errors.push({ index: i, code: e.code, errmsg: e.message, ...e.extra });
      if (ordered) break;
    }
  }
  return errors;
}

function withErrors(reply: Document, errors: WriteError[]): Document {
  if (errors.length > 0) reply.writeErrors = errors;
  return reply;
}

/** Inserts the document an upsert builds from `filter` and `update`; returns its `_id`. */
export function upsertOne(
  batch: WriteBatch,
  coll: Collection,
  filter: Document | undefined,
  u: unknown,
  arrayFilters?: Document[],
): Document {
  const spec = parseUpdate(u);
  const seed = upsertSeed(filter);
  const base = spec.kind === 'replacement' ? (seed._id === undefined ? {} : { _id: seed._id }) : seed;
  const doc = withId(applyUpdate(base, spec, { arrayFilters }, true)!);
  validateDocument(doc, true);
  batch.insert(coll, doc);
  return doc;
}

function firstKey(doc: Document): string | undefined {
  for (const k in doc) return k;
  return undefined;
}

function letVars(cmd: Document, stmt?: Document): Document | undefined {
  const outer = optionalDoc(cmd, 'let');
  const inner = stmt && isPlainObject(stmt.c) ? stmt.c : undefined;
  return outer || inner ? { ...outer, ...inner } : undefined;
}

function updateStatements(
  batch: WriteBatch,
  db: string,
  name: string,
  cmd: Document,
  list: unknown[],
): Document {
  let coll = batch.store.collection(db, name);
  let n = 0;
  let nModified = 0;
  const upserted: Array<{ index: number; _id: unknown }> = [];
  const errors = eachStatement(cmd, list, (raw, index) => {
    if (!isPlainObject(raw)) throw fail(ErrorCodes.TypeMismatch, 'update statements must be objects');
    const q = optionalDoc(raw, 'q') ?? {};
    const spec = parseUpdate(raw.u);
    const multi = optionalBool(raw, 'multi');
    if (multi && spec.kind === 'replacement')
      throw fail(ErrorCodes.FailedToParse, 'multi update is not supported for replacement-style update');
    const arrayFilters = Array.isArray(raw.arrayFilters) ? (raw.arrayFilters as Document[]) : undefined;
    checkHint(coll, raw.hint);
    const m = matcher(coll, q, { collation: collationOf(raw) as never, variables: letVars(cmd, raw) });
    // Targets are collected before any change, so an update never sees its own writes.
    const targets = multi ? [...m.matches()] : [findFirst(m)].filter((d): d is Document => d !== undefined);
    for (const target of targets) {
      const next = applyUpdate(target, spec, {
        filter: q,
        arrayFilters,
        encode: batch.journaled,
      });
      n += 1;
      if (next) {
        batch.replace(coll!, target, next);
        nModified += 1;
      }
    }
    if (targets.length === 0 && optionalBool(raw, 'upsert')) {
      coll = batch.ensureCollection(db, name);
      const doc = upsertOne(batch, coll, q, raw.u, arrayFilters);
      upserted.push({ index, _id: doc._id });
      n += 1;
    }
  });
  const reply: Document = { n, nModified, ok: 1 };
  if (upserted.length > 0) reply.upserted = upserted;
  return withErrors(reply, errors);
}

function deleteStatements(
  batch: WriteBatch,
  db: string,
  name: string,
  cmd: Document,
  list: unknown[],
): Document {
  const coll = batch.store.collection(db, name);
  let n = 0;
  const errors = eachStatement(cmd, list, (raw) => {
    if (!isPlainObject(raw)) throw fail(ErrorCodes.TypeMismatch, 'delete statements must be objects');
    const limit = raw.limit ?? 0;
    if (limit !== 0 && limit !== 1)
      throw fail(
        ErrorCodes.FailedToParse,
        'The limit field in delete objects must be 0 or 1. Got ' + String(limit),
      );
    checkHint(coll, raw.hint);
    const m = matcher(coll, optionalDoc(raw, 'q') ?? {}, {
      collation: collationOf(raw) as never,
      variables: letVars(cmd),
    });
    const targets =
      limit === 1 ? [findFirst(m)].filter((d): d is Document => d !== undefined) : [...m.matches()];
    for (const doc of targets) {
      batch.remove(coll!, doc);
      n += 1;
    }
  });
  return withErrors({ n, ok: 1 }, errors);
}

export const writeCommands: Record<string, CommandHandler> = {
  insert: ({ db, cmd, ctx }: CommandRequest) => {
    const name = collectionName(cmd, 'insert');
    const docs = statements(cmd, 'documents');
    return withBatch(ctx.store, (batch) => {
      const coll = batch.ensureCollection(db, name);
      let n = 0;
      const errors = eachStatement(cmd, docs, (raw) => {
        if (!isPlainObject(raw)) throw fail(ErrorCodes.TypeMismatch, 'documents to insert must be objects');
        // mongod stores `_id` as the first field (the driver appends the one it generates).
        const doc = firstKey(raw) === '_id' ? raw : withId(raw);
        validateDocument(doc, false);
        batch.insert(coll, doc);
        n += 1;
      });
      return withErrors({ n, ok: 1 }, errors);
    });
  },
  update: ({ db, cmd, ctx }: CommandRequest) => {
    const name = collectionName(cmd, 'update');
    const list = statements(cmd, 'updates');
    return withBatch(ctx.store, (batch) => updateStatements(batch, db, name, cmd, list));
  },
  delete: ({ db, cmd, ctx }: CommandRequest) => {
    const name = collectionName(cmd, 'delete');
    const list = statements(cmd, 'deletes');
    return withBatch(ctx.store, (batch) => deleteStatements(batch, db, name, cmd, list));
  },
};
