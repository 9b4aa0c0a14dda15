import type { Document } from 'bson';

/** One scheduled expiry: the document version it was computed for, and when it expires. */
interface Expiry {
  at: number;
  idKey: string;
  doc: Document;
}

/**
 * When the documents of a collection with TTL indexes expire, in a binary min-heap on the time,
 * so that the TTL sweep (every second) visits only what has expired instead of scanning the whole
 * collection: route records alone reach hundreds of thousands of documents under load, and a full
 * scan blocked the server's event loop for tens of milliseconds every second, growing with the data.
 *
 * An entry names the document version it was computed for. Replacing a document schedules the new
 * version and leaves the old entry behind, stale: it is skipped when it reaches the top (the
 * document is gone or is another version). Stale entries are dropped in bulk when they outnumber
 * the documents (`rebuild`).
 */
export class ExpirySchedule {
  private heap: Expiry[] = [];

  get size(): number {
    return this.heap.length;
  }

  add(at: number, idKey: string, doc: Document): void {
    const heap = this.heap;
    heap.push({ at, idKey, doc });
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent].at <= heap[i].at) break;
      [heap[parent], heap[i]] = [heap[i], heap[parent]];
      i = parent;
    }
  }

  /**
   * Takes out every entry due at `now` and returns the documents they name that are still the
   * current version (`current(idKey) === doc`). The caller still checks each one against the
   * collection's TTL indexes.
   */
  takeDue(now: number, current: (idKey: string) => Document | undefined): Document[] {
    const out: Document[] = [];
    while (this.heap.length > 0 && this.heap[0].at <= now) {
      const top = this.pop();
      if (current(top.idKey) === top.doc) out.push(top.doc);
    }
    return out;
  }

  /** Replaces the whole schedule (after an index change, or to drop stale entries). */
  rebuild(entries: Iterable<Expiry>): void {
    this.heap = [];
    for (const e of entries) this.add(e.at, e.idKey, e.doc);
  }

  private pop(): Expiry {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < heap.length && heap[left].at < heap[smallest].at) smallest = left;
        if (right < heap.length && heap[right].at < heap[smallest].at) smallest = right;
        if (smallest === i) break;
        [heap[smallest], heap[i]] = [heap[i], heap[smallest]];
        i = smallest;
      }
    }
    return top;
  }
}
