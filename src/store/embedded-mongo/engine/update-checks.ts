import { Decimal128, Long, type Document } from 'bson';
import { ErrorCodes, fail } from '../errors';
import { isPlainObject, valueKey } from './value-key';

/**
 * Where mingo's update operators differ from MongoDB, this fills the gap before mingo runs:
 *
 * - `$addToSet` is rewritten into a `$push` of the values not already present (mingo's version
 *   also de-duplicates the existing array and can drop a new value when the array held duplicates);
 * - operators applied to a field of the wrong type fail like in MongoDB (mingo silently skips them):
 *   `$inc`/`$mul` on a non-number, array operators on a non-array, a path through a scalar.
 *
 * Paths with positional parts (`$`, `$[]`, `$[id]`) are left to mingo.
 */
export function prepareOperators(doc: Document, ops: Document): Document {
  for (const [op, fields] of Object.entries(ops)) {
    for (const path of Object.keys(fields as Document)) {
      if (isPositional(path)) continue;
      let current: unknown;
      try {
        current = resolve(doc, path);
      } catch (err) {
        // Removing operators treat a path through a scalar as "nothing there", like MongoDB.
        if (REMOVING_OPS.has(op)) continue;
        throw err;
      }
      if (current === undefined) continue;
      if (NUMERIC_OPS.has(op) && !isNumeric(current)) {
        throw fail(
          ErrorCodes.TypeMismatch,
          `Cannot apply ${op} to a value of non-numeric type. Field '${path}' is of type ${typeName(current)}`,
        );
      }
      if (ARRAY_OPS.has(op) && !Array.isArray(current)) {
        throw fail(
          ErrorCodes.BadValue,
          `Cannot apply ${op} to non-array field. Field named '${path}' has non-array type ${typeName(current)}`,
        );
      }
    }
  }
  if (!ops.$addToSet) return ops;
  const { $addToSet, ...rest } = ops;
  const push: Document = { ...(rest.$push as Document | undefined) };
  const keep: Document = {};
  for (const [path, spec] of Object.entries($addToSet as Document)) {
    if (isPositional(path)) {
      keep[path] = spec;
      continue;
    }
    if (path in push)
      throw fail(
        ErrorCodes.ConflictingUpdateOperators,
        `Updating the path '${path}' would create a conflict at '${path}'`,
      );
    const each = isPlainObject(spec) && '$each' in spec ? spec.$each : [spec];
    if (!Array.isArray(each))
      throw fail(ErrorCodes.TypeMismatch, 'The argument to $each in $addToSet must be an array');
    const current = resolve(doc, path) as unknown[] | undefined;
    const seen = new Set((current ?? []).map(valueKey));
    const toAdd: unknown[] = [];
    for (const v of each) {
      const k = valueKey(v);
      if (!seen.has(k)) {
        seen.add(k);
        toAdd.push(v);
      }
    }
    // Nothing new for an existing array: no change at all (MongoDB reports it unmodified).
    if (toAdd.length > 0 || current === undefined) push[path] = { $each: toAdd };
  }
  const out: Document = { ...rest };
  if (Object.keys(push).length > 0) out.$push = push;
  if (Object.keys(keep).length > 0) out.$addToSet = keep;
  return out;
}

const NUMERIC_OPS = new Set(['$inc', '$mul']);
const ARRAY_OPS = new Set(['$push', '$addToSet', '$pop', '$pull', '$pullAll']);
const REMOVING_OPS = new Set(['$unset', '$rename', '$pop', '$pull', '$pullAll']);

function isPositional(path: string): boolean {
  return path.split('.').some((p) => p.startsWith('$'));
}

function isNumeric(v: unknown): boolean {
  return typeof v === 'number' || v instanceof Long || v instanceof Decimal128;
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (isPlainObject(v)) return 'object';
  if (typeof v === 'object') return (v as object).constructor?.name ?? 'object';
  return typeof v;
}

/**
 * The value at a dotted path, or undefined when it does not exist yet (it will be created).
 * A path that would have to go through a scalar cannot be created: PathNotViable, like MongoDB.
 */
function resolve(doc: Document, path: string): unknown {
  const parts = path.split('.');
  let cur: unknown = doc;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (isPlainObject(cur)) {
      if (!Object.prototype.hasOwnProperty.call(cur, part)) return undefined;
      cur = cur[part];
    } else if (Array.isArray(cur) && /^\d+$/.test(part)) {
      cur = cur[Number(part)];
      if (cur === undefined) return undefined;
    } else {
      const parent = parts.slice(0, i).join('.');
      throw fail(
        ErrorCodes.PathNotViable,
        `Cannot create field '${part}' in element {${parent}: ${typeName(cur)}}`,
      );
    }
  }
  return cur;
}
