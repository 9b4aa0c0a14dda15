import { ErrorCodes, fail } from '../errors';
import { isPlainObject } from './value-key';

/**
 * Values reached by a dotted path, walking through arrays the way MongoDB does: `a.b` on
 * `{ a: [{ b: 1 }, { b: 2 }] }` reaches 1 and 2; a numeric step (`a.0`) indexes the array.
 * The last value is returned as is (an array stays an array); callers decide whether to expand it.
 * A missing path reaches nothing.
 */
export function valuesAtPath(doc: unknown, path: string): unknown[] {
  const out: unknown[] = [];
  walk(doc, path.split('.'), 0, out);
  return out;
}

function walk(value: unknown, parts: string[], i: number, out: unknown[]): void {
  if (i === parts.length) {
    out.push(value);
    return;
  }
  const part = parts[i];
  if (Array.isArray(value)) {
    if (/^\d+$/.test(part)) {
      const idx = Number(part);
      if (idx < value.length) walk(value[idx], parts, i + 1, out);
      return;
    }
    for (const el of value) if (isPlainObject(el)) walk(el, parts, i, out);
    return;
  }
  if (isPlainObject(value) && Object.prototype.hasOwnProperty.call(value, part)) {
    walk(value[part], parts, i + 1, out);
  }
}

/** The values of a path with terminal arrays expanded into their elements (distinct, multikey indexes). */
export function flatValuesAtPath(doc: unknown, path: string): unknown[] {
  const out: unknown[] = [];
  for (const v of valuesAtPath(doc, path)) {
    if (Array.isArray(v)) out.push(...v);
    else out.push(v);
  }
  return out;
}

/** Sets `path` (dotted) on a plain object, creating intermediate objects. Used to seed upserts. */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  if (parts.includes('__proto__'))
    throw fail(ErrorCodes.BadValue, `field path '${path}' is not allowed here`);
  let cur: Record<string, unknown> = target;
  for (let i = 0; i < parts.length - 1; i++) {
    const next = cur[parts[i]];
    if (!isPlainObject(next)) cur[parts[i]] = {};
    cur = cur[parts[i]] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]] = value;
}
