import { Long, ObjectId, type Document } from 'bson';
import { valuesAtPath } from './paths';
import { isPlainObject, valueKey } from './value-key';

/**
 * A compiled predicate for the filters the service sends all the time (`{ _id, version }`,
 * `{ tenant, state: { $in: [...] } }`, ...), without building a mingo Query, which costs tens of
 * microseconds per construction. Only a small, exactly specified subset is handled here:
 *
 * - field paths without `$` and without numeric steps, at the top level or inside `$and`;
 * - literal strings, finite numbers, booleans, ObjectIds and Dates;
 * - `$eq`, `$ne`, `$in`, `$nin`, `$gt`, `$gte`, `$lt`, `$lte`, `$exists` with such literals.
 *
 * Semantics follow MongoDB: a field that is an array matches when any element does; `$ne`/`$nin`
 * also match a missing field; comparisons only compare within a type bracket (numbers with numbers,
 * strings with strings, dates with dates, ObjectIds with ObjectIds, booleans with booleans).
 * Anything else returns undefined and the caller uses mingo.
 */
export type Predicate = (doc: Document) => boolean;

type Literal = string | number | boolean | ObjectId | Date;

function isLiteral(v: unknown): v is Literal {
  return (
    typeof v === 'string' ||
    (typeof v === 'number' && !Number.isNaN(v)) ||
    typeof v === 'boolean' ||
    v instanceof ObjectId ||
    v instanceof Date
  );
}

/** Bracket of a value for comparisons, and a comparable form. */
function bracket(v: unknown): [string, number | string] | undefined {
  if (typeof v === 'number') return Number.isNaN(v) ? undefined : ['n', v];
  if (typeof v === 'string') return ['s', v];
  if (v instanceof Date) return ['d', v.getTime()];
  if (v instanceof ObjectId) return ['o', v.toHexString()];
  if (typeof v === 'boolean') return ['b', v ? 1 : 0];
  if (v instanceof Long) return ['n', v.toNumber()];
  return undefined;
}

function anyValue(doc: Document, path: string, test: (v: unknown) => boolean): boolean {
  for (const v of valuesAtPath(doc, path)) {
    if (test(v)) return true;
    if (Array.isArray(v)) for (const el of v) if (test(el)) return true;
  }
  return false;
}

function equality(path: string, lits: Literal[]): Predicate {
  const keys = new Set(lits.map(valueKey));
  const test = (v: unknown): boolean => {
    // Documents and arrays never equal a scalar literal (array elements are tried separately).
    if (
      v !== null &&
      typeof v === 'object' &&
      !(v instanceof ObjectId) &&
      !(v instanceof Date) &&
      !(v instanceof Long)
    )
      return false;
    return keys.has(valueKey(v));
  };
  return (doc) => anyValue(doc, path, test);
}

function comparison(path: string, op: string, lit: Literal): Predicate {
  const [kind, target] = bracket(lit)!;
  const ok = (c: number): boolean =>
    op === '$gt' ? c > 0 : op === '$gte' ? c >= 0 : op === '$lt' ? c < 0 : c <= 0;
  const test = (v: unknown): boolean => {
    const b = bracket(v);
    if (!b || b[0] !== kind) return false;
    return ok(b[1] < target ? -1 : b[1] > target ? 1 : 0);
  };
  return (doc) => anyValue(doc, path, test);
}

function fieldPredicate(path: string, cond: unknown): Predicate | undefined {
  if (path === '' || path.startsWith('$') || path.split('.').some((p) => p === '' || /^\d+$/.test(p)))
    return undefined;
  if (isLiteral(cond)) return equality(path, [cond]);
  if (!isPlainObject(cond)) return undefined;
  const ops = Object.keys(cond);
  if (ops.length === 0) return undefined;
  const parts: Predicate[] = [];
  for (const op of ops) {
    const arg = cond[op];
    switch (op) {
      case '$eq':
      case '$ne': {
        if (!isLiteral(arg)) return undefined;
        const eq = equality(path, [arg]);
        parts.push(op === '$eq' ? eq : (doc) => !eq(doc));
        break;
      }
      case '$in':
      case '$nin': {
        if (!Array.isArray(arg) || arg.length === 0 || !arg.every(isLiteral)) return undefined;
        const eq = equality(path, arg);
        parts.push(op === '$in' ? eq : (doc) => !eq(doc));
        break;
      }
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        if (!isLiteral(arg)) return undefined;
        parts.push(comparison(path, op, arg));
        break;
      case '$exists': {
        if (typeof arg !== 'boolean' && typeof arg !== 'number') return undefined;
        const want = Boolean(arg);
        parts.push((doc) => valuesAtPath(doc, path).length > 0 === want);
        break;
      }
      default:
        return undefined;
    }
  }
  return parts.length === 1 ? parts[0] : (doc) => parts.every((p) => p(doc));
}

/** The fast predicate of `filter`, or undefined when mingo has to evaluate it. */
export function compileFastFilter(filter: Document): Predicate | undefined {
  const parts: Predicate[] = [];
  for (const [key, cond] of Object.entries(filter)) {
    if (key === '$and') {
      if (!Array.isArray(cond) || cond.length === 0) return undefined;
      for (const sub of cond) {
        if (!isPlainObject(sub)) return undefined;
        const p = compileFastFilter(sub);
        if (!p) return undefined;
        parts.push(p);
      }
      continue;
    }
    const p = fieldPredicate(key, cond);
    if (!p) return undefined;
    parts.push(p);
  }
  if (parts.length === 0) return () => true;
  return parts.length === 1 ? parts[0] : (doc) => parts.every((p) => p(doc));
}
