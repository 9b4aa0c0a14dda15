import type { Document } from 'bson';
import { find } from 'mingo';
import { cloneDocument } from './clone';
import { MINGO_OPTIONS } from './mingo-options';
import { setField } from './value-key';

/** Turns a stored document into what a projection asks for. */
export type Projector = (doc: Document) => Document;

/**
 * A projector for plain inclusion or exclusion of top-level fields (`{ a: 1, b: 1 }`,
 * `{ secret: 0 }`, `{ _id: 0, a: 1 }`), keeping the document's field order like MongoDB.
 * Undefined for anything else (dotted paths, operators, positional `$`, mixed modes): mingo.
 */
export function compileFastProjection(spec: Document): Projector | undefined {
  const include = new Set<string>();
  const exclude = new Set<string>();
  let idWanted = true;
  for (const [key, v] of Object.entries(spec)) {
    if (key === '' || key.includes('.') || key.startsWith('$')) return undefined;
    let on: boolean;
    if (typeof v === 'boolean') on = v;
    else if (typeof v === 'number' && !Number.isNaN(v)) on = v !== 0;
    else return undefined;
    if (key === '_id') idWanted = on;
    else (on ? include : exclude).add(key);
  }
  if (include.size > 0 && exclude.size > 0) return undefined;
  if (include.size > 0 || (exclude.size === 0 && spec._id !== undefined && idWanted)) {
    return (doc) => {
      const out: Document = {};
      for (const k of Object.keys(doc)) if (k === '_id' ? idWanted : include.has(k)) setField(out, k, doc[k]);
      return out;
    };
  }
  return (doc) => {
    const out: Document = {};
    for (const k of Object.keys(doc)) if (k === '_id' ? idWanted : !exclude.has(k)) setField(out, k, doc[k]);
    return out;
  };
}

/** Projects one document (findAndModify's `fields`). */
export function projectOne(doc: Document, spec: Document): Document | undefined {
  const fast = compileFastProjection(spec);
  if (fast) return fast(doc);
  // Mingo projects nested paths in place: it gets a copy, the stored document stays as it is.
  return find([cloneDocument(doc)], {}, spec, MINGO_OPTIONS).next() as Document | undefined;
}
