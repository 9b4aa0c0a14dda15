import type { Document } from 'bson';
import { compare, resolve } from 'mingo/util';

/** Largest `skip + limit` the bounded sort serves; beyond it mingo sorts everything. */
export const TOP_SORTED_MAX = 1000;

interface Entry {
  doc: Document;
  /** Position in the input: ties keep it, as mingo's stable sort does. */
  i: number;
  values: unknown[];
}

/**
 * Sort values whose order the bounded sort reproduces exactly. mingo groups documents by the hash
 * of their value (a missing field with null), orders the groups with `compare` (or a native sort
 * when all are strings or all numbers) and keeps each group in input order; for these types,
 * equal hashes and `compare` ties coincide, so "ties in input order" is the same order. Arrays,
 * sub-documents, wrapped numbers (Long, Decimal128), NaN and -0 are left to mingo.
 */
function plain(v: unknown): boolean {
  switch (typeof v) {
    case 'undefined':
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return !Number.isNaN(v) && !Object.is(v, -0);
    case 'object':
      return v === null || (v instanceof Date && !Number.isNaN(v.getTime()));
    default:
      return false;
  }
}

/**
 * The first `k` documents of `docs` in `sort` order, the order mingo's `$sort` gives, keeping only
 * `k` of them: a listing of the latest 50 route records of an agent sorted its whole bucket
 * (thousands of documents) to keep 50. O(n log k). Undefined when a sort value is not `plain`
 * (the caller then sorts with mingo). Without collation only (mingo compares strings with a
 * collator then).
 */
export function topSorted(docs: readonly Document[], sort: Document, k: number): Document[] | undefined {
  const keys = Object.keys(sort);
  const directions = keys.map((key) => (sort[key] === -1 ? -1 : 1));
  const order = (a: Entry, b: Entry): number => {
    for (let j = 0; j < keys.length; j++) {
      const c = compare(a.values[j], b.values[j]);
      if (c !== 0) return c * directions[j];
    }
    return a.i - b.i;
  };
  // A max-heap of the best k so far: its top is the worst of them, the one a better entry evicts.
  const heap: Entry[] = [];
  const siftUp = (n: number) => {
    while (n > 0) {
      const parent = (n - 1) >> 1;
      if (order(heap[parent], heap[n]) >= 0) break;
      [heap[parent], heap[n]] = [heap[n], heap[parent]];
      n = parent;
    }
  };
  const siftDown = (n: number) => {
    for (;;) {
      const left = 2 * n + 1;
      const right = left + 1;
      let worst = n;
      if (left < heap.length && order(heap[left], heap[worst]) > 0) worst = left;
      if (right < heap.length && order(heap[right], heap[worst]) > 0) worst = right;
      if (worst === n) return;
      [heap[worst], heap[n]] = [heap[n], heap[worst]];
      n = worst;
    }
  };
  if (k <= 0) return [];
  for (let i = 0; i < docs.length; i++) {
    const doc = docs[i];
    const values: unknown[] = [];
    for (const key of keys) {
      const v = resolve(doc, key);
      if (!plain(v)) return undefined;
      values.push(v ?? null); // a missing field sorts as null, in null's group
    }
    const entry: Entry = { doc, i, values };
    if (heap.length < k) {
      heap.push(entry);
      siftUp(heap.length - 1);
    } else if (order(entry, heap[0]) < 0) {
      heap[0] = entry;
      siftDown(0);
    }
  }
  return heap.sort(order).map((e) => e.doc);
}
