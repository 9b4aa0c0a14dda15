import type { Subscriber } from 'rxjs';
import type { ReplyBody } from '../../schemas/envelope';
import { AppError, errors, withMayHaveRun } from '../../schemas/errors';
import { TimeoutLists, type TimeoutHandle } from '../transport/timeout-list';

/**
 * A request in the table was handed to the transport: a 503/504 that ends it (its deadline, the
 * system stopping, a handler's own failure) leaves open whether the work ran, unless the error
 * already says (a send refused before publishing says `false`).
 */
function ranSomewhere(error: AppError): AppError {
  return withMayHaveRun(error, true);
}

/** A request of this node waiting for its reply (or stream items), keyed by envelope id. */
export interface PendingEntry {
  readonly id: string;
  /** Its deadline in the table's timeout lists. */
  timeout?: TimeoutHandle<PendingEntry>;
  /** Other requests of this node with the same envelope id (a retried idempotent request). */
  siblings?: PendingEntry[];
  /** Takes one reply body; true when the request is over. */
  onBody(body: ReplyBody): boolean;
  /** Ends the request with an error (deadline, transport down, system stopped). */
  fail(error: AppError): void;
}

/** An `ask`: one `reply` or `error` (or, from a streaming handler, the items collected until `complete`). */
export class PendingAsk implements PendingEntry {
  timeout?: TimeoutHandle<PendingEntry>;
  siblings?: PendingEntry[];
  private items?: unknown[];

  constructor(
    readonly id: string,
    private readonly resolve: (value: never) => void,
    private readonly reject: (error: AppError) => void,
  ) {}

  onBody(body: ReplyBody): boolean {
    switch (body.kind) {
      case 'reply':
        this.resolve(body.value as never);
        return true;
      case 'error':
        this.reject(ranSomewhere(AppError.fromBody(body.error)));
        return true;
      case 'next':
        (this.items ??= [])[body.seq] = body.value;
        return false;
      case 'complete':
        this.resolve((this.items ?? []) as never);
        return true;
    }
  }

  fail(error: AppError): void {
    this.reject(ranSomewhere(error));
  }
}

/**
 * A `stream`: emits items in `seq` order (buffering early ones, dropping repeats), completes once
 * every item before the `complete` seq was emitted. A plain `reply` is a one-item stream.
 */
export class PendingStream implements PendingEntry {
  timeout?: TimeoutHandle<PendingEntry>;
  siblings?: PendingEntry[];
  /** Completed, errored or failed: the unsubscribe that follows must not cancel anything. */
  done = false;
  private expected = 0;
  private end = -1;
  private early?: Map<number, unknown>;

  constructor(
    readonly id: string,
    private readonly subscriber: Subscriber<unknown>,
  ) {}

  onBody(body: ReplyBody): boolean {
    switch (body.kind) {
      case 'reply':
        this.done = true;
        if (body.value !== undefined) this.subscriber.next(body.value);
        this.subscriber.complete();
        return true;
      case 'error':
        this.fail(AppError.fromBody(body.error));
        return true;
      case 'next':
        if (body.seq === this.expected) {
          this.expected++;
          this.subscriber.next(body.value);
          this.drainEarly();
        } else if (body.seq > this.expected) {
          (this.early ??= new Map()).set(body.seq, body.value);
        }
        return this.completeIfDone();
      case 'complete':
        this.end = body.seq;
        return this.completeIfDone();
    }
  }

  fail(error: AppError): void {
    this.done = true;
    this.subscriber.error(ranSomewhere(error));
  }

  private drainEarly(): void {
    const early = this.early;
    if (!early) return;
    while (early.has(this.expected)) {
      const value = early.get(this.expected);
      early.delete(this.expected++);
      this.subscriber.next(value);
    }
  }

  private completeIfDone(): boolean {
    if (this.end < 0 || this.expected < this.end) return false;
    this.done = true;
    this.subscriber.complete();
    return true;
  }
}

/**
 * The pending-request table of a node: entries by envelope id, each with its deadline. Deadlines
 * share one timer per timeout duration (see TimeoutList) rather than a timer per request.
 */
export class PendingTable {
  private readonly entries = new Map<string, PendingEntry>();
  private readonly timeouts = new TimeoutLists<PendingEntry>((entry) => this.fail(entry, errors.deadline()));

  get size(): number {
    return this.entries.size;
  }

  add(entry: PendingEntry, timeoutMs: number): void {
    entry.timeout = this.timeouts.add(entry, timeoutMs);
    const head = this.entries.get(entry.id);
    if (head) (head.siblings ??= []).push(entry);
    else this.entries.set(entry.id, entry);
  }

  /** Hands a reply body to the requests waiting on `id`; false when none waits (late or foreign). */
  dispatch(id: string, body: ReplyBody): boolean {
    const head = this.entries.get(id);
    if (!head) return false;
    if (!head.siblings) {
      if (head.onBody(body)) this.remove(head);
      return true;
    }
    for (const entry of [head, ...head.siblings]) {
      if (entry.onBody(body)) this.remove(entry);
    }
    return true;
  }

  /** Takes an entry out without settling it (a stream unsubscribed). */
  remove(entry: PendingEntry): void {
    this.timeouts.remove(entry.timeout);
    entry.timeout = undefined;
    const head = this.entries.get(entry.id);
    if (head === entry) {
      const next = entry.siblings?.shift();
      if (next) {
        next.siblings = entry.siblings;
        this.entries.set(entry.id, next);
      } else {
        this.entries.delete(entry.id);
      }
      entry.siblings = undefined;
    } else if (head?.siblings) {
      const i = head.siblings.indexOf(entry);
      if (i >= 0) head.siblings.splice(i, 1);
    }
  }

  fail(entry: PendingEntry, error: AppError): void {
    this.remove(entry);
    entry.fail(error);
  }

  failAll(error: AppError): void {
    for (const head of [...this.entries.values()]) {
      for (const entry of [head, ...(head.siblings ?? [])]) this.fail(entry, error);
    }
  }
}
