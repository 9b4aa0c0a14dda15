/** One scheduled expiry: a document (its canonical `_id` key) and when it expires. */
export interface Expiry {
  at: number;
  idKey: string;
}

/**
 * When the documents of a collection with TTL indexes expire, in a binary min-heap on the time,
 * so that the TTL sweep (every second) visits only what has expired instead of scanning the whole
 * collection: route records alone reach hundreds of thousands of documents under load, and a full
 * scan blocked the server's event loop for tens of milliseconds every second, growing with the data.
 *
 * Entries are only hints: replacing a document schedules its new version and leaves the old entry
 * behind, and removing one leaves its entry too. The collection checks each due document as it is
 * now (gone, or not expired yet: skipped; its current version has an entry of its own). Entries
 * hold no document, so stale ones cost a few bytes; they are dropped in bulk when they outnumber
 * the documents (`rebuild`).
 */
export class ExpirySchedule {
  private heap: Expiry[] = [];

  get size(): number {
    return this.heap.length;
  }

  add(at: number, idKey: string): void {
    const heap = this.heap;
    heap.push({ at, idKey });
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent].at <= heap[i].at) break;
      [heap[parent], heap[i]] = [heap[i], heap[parent]];
      i = parent;
    }
  }

  /** Takes out every entry due at `now`; returns their keys, each once. */
  takeDue(now: number): Set<string> {
    const due = new Set<string>();
    while (this.heap.length > 0 && this.heap[0].at <= now) due.add(this.pop().idKey);
    return due;
  }

  /** Replaces the whole schedule (after an index change, or to drop stale entries). */
  rebuild(entries: Iterable<Expiry>): void {
    this.heap = [];
    for (const e of entries) this.add(e.at, e.idKey);
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
