import type { Document } from 'bson';
import { isPlainObject, valueKey } from './value-key';

/** Operators the fast path applies. */
const FAST_OPERATORS = new Set(['$set', '$unset', '$inc', '$max', '$min']);

/**
 * What `$max`/`$min` compare on the fast path: numbers with numbers, dates with dates (BSON order
 * across types, NaN and the wrapped number types are left to mingo).
 */
function comparableKind(v: unknown): 'number' | 'date' | undefined {
  if (typeof v === 'number') return Number.isNaN(v) ? undefined : 'number';
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? undefined : 'date';
  return undefined;
}

/**
 * `$set`, `$unset`, `$inc`, `$max` and `$min` on plain field paths, the updates the service sends
 * on every state change and every counter flush, applied without mingo (whose update call sets up
 * its whole operator table each time: tens of microseconds when hot, up to a millisecond in the
 * cold code of a store that writes a few times a second) and without a deep copy: the new
 * document shares every untouched sub-document with the old one (stored documents are never
 * mutated, so sharing is safe).
 *
 * Returns the new document and whether it differs, or undefined when the update is outside this
 * subset (other operators, array or positional paths, overlapping paths, non-number `$inc`,
 * `$max`/`$min` other than number against number or date against date); the caller then uses
 * mingo. Never mutates `doc`.
 */
export function fastUpdate(doc: Document, ops: Document): { doc: Document; changed: boolean } | undefined {
  const steps: Array<{ op: string; parts: string[]; value: unknown }> = [];
  const seen: string[] = [];
  for (const [op, fields] of Object.entries(ops)) {
    if (!FAST_OPERATORS.has(op)) return undefined;
    if (!isPlainObject(fields)) return undefined;
    for (const [path, value] of Object.entries(fields)) {
      const parts = path.split('.');
      if (parts.some((p) => p === '' || p === '__proto__' || p.startsWith('$') || /^\d+$/.test(p)))
        return undefined;
      // Overlapping paths are a MongoDB error; let mingo report it.
      if (seen.some((s) => s === path || s.startsWith(path + '.') || path.startsWith(s + '.')))
        return undefined;
      seen.push(path);
      if (op === '$inc' && typeof value !== 'number') return undefined;
      if ((op === '$max' || op === '$min') && comparableKind(value) === undefined) return undefined;
      steps.push({ op, parts, value });
    }
  }
  // Check every step against the current document before copying anything.
  for (const { op, parts, value } of steps) {
    let cur: unknown = doc;
    for (let i = 0; i < parts.length; i++) {
      if (cur === undefined) break;
      if (!isPlainObject(cur)) return undefined; // arrays and scalars on the way: mingo decides
      cur = Object.prototype.hasOwnProperty.call(cur, parts[i]) ? cur[parts[i]] : undefined;
    }
    if (op === '$inc' && cur !== undefined && typeof cur !== 'number') return undefined;
    if (
      (op === '$max' || op === '$min') &&
      cur !== undefined &&
      comparableKind(cur) !== comparableKind(value)
    )
      return undefined;
  }
  const copied = new Set<object>();
  const root: Document = { ...doc };
  copied.add(root);
  let changed = false;
  for (const { op, parts, value } of steps) {
    let parent: Record<string, unknown> = root;
    let missing = false;
    for (let i = 0; i < parts.length - 1; i++) {
      const next = parent[parts[i]];
      if (next === undefined) {
        if (op === '$unset') {
          missing = true;
          break;
        }
        const created: Record<string, unknown> = {};
        copied.add(created);
        parent[parts[i]] = created;
        parent = created;
        continue;
      }
      let obj = next as Record<string, unknown>;
      if (!copied.has(obj)) {
        obj = { ...obj };
        copied.add(obj);
        parent[parts[i]] = obj;
      }
      parent = obj;
    }
    if (missing) continue;
    const leaf = parts[parts.length - 1];
    const has = Object.prototype.hasOwnProperty.call(parent, leaf);
    if (op === '$unset') {
      if (has) {
        delete parent[leaf];
        changed = true;
      }
    } else if (op === '$inc') {
      const before = has ? (parent[leaf] as number) : 0;
      const after = before + (value as number);
      if (!has || after !== before) changed = true;
      parent[leaf] = after;
    } else if (op === '$max' || op === '$min') {
      // Checked above: absent, or of the value's kind (number or date).
      const cur = parent[leaf] as number | Date | undefined;
      // A field holding `undefined` sorts below numbers in BSON order: mingo decides.
      if (has && cur === undefined) return undefined;
      const replace = !has || (op === '$max' ? Number(value) > Number(cur) : Number(value) < Number(cur));
      if (replace) {
        parent[leaf] = value;
        changed = true;
      }
    } else {
      if (!has || valueKey(parent[leaf]) !== valueKey(value)) changed = true;
      parent[leaf] = value;
    }
  }
  return { doc: root, changed };
}
