import { calculateObjectSize, ObjectId, serialize, type Document } from 'bson';
import { aggregate, update as mingoUpdate } from 'mingo';
import { rememberEncoded } from '../encoded-bytes';
import { ErrorCodes, fail } from '../errors';
import { cloneDocument } from './clone';
import { MINGO_OPTIONS } from './mingo-options';
import { fastUpdate } from './fast-update';
import { setPath } from './paths';
import { prepareOperators } from './update-checks';
import { isPlainObject, valueKey } from './value-key';

/** Largest document MongoDB stores. */
export const MAX_BSON_SIZE = 16 * 1024 * 1024;

/** A parsed `u` of an update statement. */
export type UpdateSpec =
  | { kind: 'operators'; ops: Document; setOnInsert: Document | undefined }
  | { kind: 'replacement'; doc: Document }
  | { kind: 'pipeline'; stages: Document[] };

const PIPELINE_UPDATE_STAGES = new Set([
  '$addFields',
  '$set',
  '$project',
  '$unset',
  '$replaceRoot',
  '$replaceWith',
]);

export function parseUpdate(u: unknown): UpdateSpec {
  if (Array.isArray(u)) {
    for (const stage of u) {
      const name = isPlainObject(stage) ? Object.keys(stage)[0] : undefined;
      if (!name || Object.keys(stage as Document).length !== 1 || !PIPELINE_UPDATE_STAGES.has(name)) {
        throw fail(
          ErrorCodes.InvalidPipelineOperator,
          `Invalid update pipeline stage: ${JSON.stringify(name ?? stage)}`,
        );
      }
    }
    return { kind: 'pipeline', stages: u as Document[] };
  }
  if (!isPlainObject(u))
    throw fail(ErrorCodes.FailedToParse, 'Update argument must be either an object or an array');
  const keys = Object.keys(u);
  const operators = keys.filter((k) => k.startsWith('$'));
  if (operators.length === 0) {
    return { kind: 'replacement', doc: u };
  }
  if (operators.length !== keys.length) {
    const bad = keys.find((k) => !k.startsWith('$'));
    throw fail(
      ErrorCodes.FailedToParse,
      `Unknown modifier: ${bad}. Expected a valid update modifier or pipeline-style update specified as an array`,
    );
  }
  const { $setOnInsert, ...ops } = u;
  for (const [op, arg] of Object.entries(u)) {
    if (!isPlainObject(arg))
      throw fail(
        ErrorCodes.FailedToParse,
        `Modifiers operate on fields but we found type ${typeof arg} instead for ${op}`,
      );
  }
  return { kind: 'operators', ops, setOnInsert: $setOnInsert as Document | undefined };
}

/** What an update statement needs besides the document. */
export interface ApplyContext {
  /** The statement's filter, for the positional `$` operator. */
  filter?: Document;
  arrayFilters?: Document[];
  /**
   * The caller journals the new version: its size check encodes it and keeps the bytes for the
   * journal record (../encoded-bytes.ts), one walk of the document instead of two.
   */
  encode?: boolean;
}

/**
 * Applies `spec` to a copy of `doc`. Returns the new document, or undefined when nothing changed
 * (MongoDB does not count such a document as modified). Never mutates `doc`.
 */
export function applyUpdate(
  doc: Document,
  spec: UpdateSpec,
  ctx: ApplyContext,
  inserting = false,
): Document | undefined {
  let next: Document;
  let changed: boolean;
  let fast: ReturnType<typeof fastUpdate>;
  if (spec.kind === 'replacement') {
    if (spec.doc._id !== undefined && doc._id !== undefined && valueKey(spec.doc._id) !== valueKey(doc._id)) {
      throw immutableId(spec.doc._id);
    }
    next = { _id: doc._id, ...spec.doc };
    changed = valueKey(next) !== valueKey(doc);
  } else if (spec.kind === 'pipeline') {
    const [out] = aggregate([cloneDocument(doc)], spec.stages, { ...MINGO_OPTIONS });
    if (!isPlainObject(out)) throw fail(ErrorCodes.BadValue, 'update pipeline did not produce a document');
    next = out;
    if (next._id === undefined) next = { _id: doc._id, ...next };
    else if (doc._id !== undefined && valueKey(next._id) !== valueKey(doc._id)) throw immutableId(next._id);
    changed = valueKey(next) !== valueKey(doc);
  } else if (!inserting && !ctx.arrayFilters?.length && (fast = fastUpdate(doc, spec.ops))) {
    next = fast.doc;
    changed = fast.changed;
    if (valueKey(next._id) !== valueKey(doc._id)) throw immutableId(next._id);
  } else {
    next = cloneDocument(doc);
    // mingo needs the filter only to resolve the positional `$`; skip recompiling it otherwise.
    const condition = !inserting && usesPositional(spec.ops) ? ctx.filter : undefined;
    const ops = prepareOperators(next, spec.ops);
    const paths =
      Object.keys(ops).length > 0
        ? mingoUpdate(next, ops, ctx.arrayFilters, condition, { queryOptions: MINGO_OPTIONS })
        : [];
    changed = paths.length > 0;
    if (inserting && spec.setOnInsert && Object.keys(spec.setOnInsert).length > 0) {
      const onInsert = prepareOperators(next, { $set: spec.setOnInsert });
      changed =
        mingoUpdate(next, onInsert, ctx.arrayFilters, undefined, { queryOptions: MINGO_OPTIONS }).length >
          0 || changed;
    }
    if (!(inserting && doc._id === undefined) && valueKey(next._id) !== valueKey(doc._id))
      throw immutableId(next._id);
  }
  if (inserting) return next; // the caller adds `_id` and validates
  if (!changed) return undefined;
  validateDocument(next, true, ctx.encode);
  return next;
}

function usesPositional(ops: Document): boolean {
  for (const fields of Object.values(ops)) {
    for (const path of Object.keys(fields as Document)) if (/(^|\.)\$(\.|$)/.test(path)) return true;
  }
  return false;
}

function immutableId(id: unknown): Error {
  return fail(
    ErrorCodes.ImmutableField,
    `After applying the update, the (immutable) field '_id' was found to have been altered to _id: ${String(id)}`,
  );
}

/** The document an upsert starts from: the equality fields of the filter (and of its `$and`). */
export function upsertSeed(filter: Document | undefined): Document {
  const seed: Document = {};
  const visit = (f: Document): void => {
    for (const [k, v] of Object.entries(f)) {
      if (k === '$and' && Array.isArray(v)) {
        for (const sub of v) if (isPlainObject(sub)) visit(sub);
        continue;
      }
      if (k.startsWith('$')) continue;
      if (isPlainObject(v)) {
        const keys = Object.keys(v);
        if (keys.length > 0 && keys.every((x) => x.startsWith('$'))) {
          if (keys.length === 1 && keys[0] === '$eq') setPath(seed, k, v.$eq);
          continue;
        }
      }
      if (v instanceof RegExp) continue;
      setPath(seed, k, v);
    }
  };
  if (filter) visit(filter);
  return seed;
}

/** Puts `_id` first, generating an ObjectId when the document has none (as mongod does). */
export function withId(doc: Document): Document {
  const { _id, ...rest } = doc;
  return { _id: _id === undefined ? new ObjectId() : _id, ...rest };
}

/**
 * Rejects what MongoDB would not store. `checkSize` for documents built here (updates); with
 * `encode`, the size is that of the document's encoding, kept for its journal record.
 */
export function validateDocument(doc: Document, checkSize: boolean, encode = false): void {
  const id = doc._id;
  if (Array.isArray(id)) throw fail(ErrorCodes.BadValue, "can't use an array for _id");
  if (id instanceof RegExp) throw fail(ErrorCodes.BadValue, "can't use a regex for _id");
  if (id === undefined) throw fail(ErrorCodes.BadValue, 'document has no _id');
  for (const k of Object.keys(doc)) {
    if (k.startsWith('$'))
      throw fail(ErrorCodes.BadValue, `Document can't have $ prefixed field names at the top level: ${k}`);
  }
  if (!checkSize) return;
  let size: number;
  if (encode) {
    // A document larger than the encoder's 17 MiB buffer comes back cut to it: still over the limit.
    const bytes = serialize(doc);
    size = bytes.length;
    if (size <= MAX_BSON_SIZE) rememberEncoded(doc, bytes);
  } else size = calculateObjectSize(doc);
  if (size > MAX_BSON_SIZE) {
    throw fail(ErrorCodes.BSONObjectTooLarge, 'Resulting document after update is larger than 16777216');
  }
}
