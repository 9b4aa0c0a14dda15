// `performance` is the global one, read at each call (test clocks replace the global).

/** An entry's place in a `TimeoutList`; pass it back to `remove`. */
export interface TimeoutHandle<T> {
  readonly item: T;
  /** `performance.now()` at which the entry times out. */
  readonly at: number;
  prev: TimeoutHandle<T> | undefined;
  next: TimeoutHandle<T> | undefined;
  list: TimeoutList<T> | undefined;
}

/**
 * Timeouts of one duration, for hot paths that arm one per message (pending requests, publisher
 * confirms). Entries with the same duration expire in the order they were added, so they sit in a
 * linked list and one timer, armed for the oldest, serves them all: adding and removing are O(1)
 * and allocate one small node, with no `Timeout` object or clock read in native code per entry.
 * The timer keeps the process alive while entries wait, like a `setTimeout` per entry would.
 */
export class TimeoutList<T> {
  private head: TimeoutHandle<T> | undefined;
  private tail: TimeoutHandle<T> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private count = 0;
  private readonly fire = () => this.expire();

  constructor(
    readonly durationMs: number,
    private readonly onTimeout: (item: T) => void,
    /** Called when the list becomes empty (its owner may drop it). */
    private readonly onEmpty?: (list: TimeoutList<T>) => void,
  ) {}

  get size(): number {
    return this.count;
  }

  add(item: T): TimeoutHandle<T> {
    const node: TimeoutHandle<T> = {
      item,
      at: performance.now() + this.durationMs,
      prev: this.tail,
      next: undefined,
      list: this,
    };
    if (this.tail) this.tail.next = node;
    else this.head = node;
    this.tail = node;
    this.count++;
    if (!this.timer) this.timer = setTimeout(this.fire, this.durationMs);
    return node;
  }

  /** Takes an entry out before its time (no-op when it already expired or was removed). */
  remove(node: TimeoutHandle<T>): void {
    if (node.list !== this) return;
    node.list = undefined;
    if (node.prev) node.prev.next = node.next;
    else this.head = node.next;
    if (node.next) node.next.prev = node.prev;
    else this.tail = node.prev;
    node.prev = node.next = undefined;
    this.count--;
    // The timer stays armed for the old head: when it fires it finds nothing due and re-arms.
    if (this.count === 0) this.idle();
  }

  /** Removes every entry without calling `onTimeout`. */
  clear(): void {
    for (let node = this.head; node; node = node.next) node.list = undefined;
    this.head = this.tail = undefined;
    this.count = 0;
    this.idle();
  }

  private expire(): void {
    this.timer = undefined;
    const now = performance.now();
    let node = this.head;
    while (node && node.at <= now) {
      const next = node.next;
      this.remove(node);
      this.onTimeout(node.item);
      node = next === undefined || next.list === this ? next : this.head;
    }
    if (this.head && !this.timer) this.timer = setTimeout(this.fire, Math.max(1, this.head.at - now));
  }

  private idle(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.onEmpty?.(this);
  }
}

/** `TimeoutList`s by duration, created on demand and dropped when empty. */
export class TimeoutLists<T> {
  private readonly lists = new Map<number, TimeoutList<T>>();
  private readonly dropIfEmpty = (list: TimeoutList<T>) => {
    if (list.size === 0 && this.lists.get(list.durationMs) === list) this.lists.delete(list.durationMs);
  };

  constructor(private readonly onTimeout: (item: T) => void) {}

  add(item: T, durationMs: number): TimeoutHandle<T> {
    let list = this.lists.get(durationMs);
    if (!list) {
      list = new TimeoutList(durationMs, this.onTimeout, this.dropIfEmpty);
      this.lists.set(durationMs, list);
    }
    return list.add(item);
  }

  remove(handle: TimeoutHandle<T> | undefined): void {
    if (handle) handle.list?.remove(handle);
  }

  clear(): void {
    for (const list of [...this.lists.values()]) list.clear();
  }
}
