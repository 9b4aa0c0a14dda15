import { serialize, type Document } from 'bson';
import { ErrorCodes, fail } from '../errors';

/** Options for serializing documents into replies: `undefined` fields (from mingo) are left out. */
const REPLY_BSON = { ignoreUndefined: true } as const;
/** A batch stops growing at this many bytes (mongod uses 16 MiB), always holding at least one document. */
const MAX_BATCH_BYTES = 16 * 1024 * 1024 - 16 * 1024;

/** An iterator with one document of look-ahead, so a batch knows whether it is the last one. */
export class DocStream {
  private head: Document | undefined;
  private done = false;

  constructor(private readonly source: Iterator<Document>) {}

  peek(): Document | undefined {
    if (this.head === undefined && !this.done) {
      const r = this.source.next();
      if (r.done) this.done = true;
      else this.head = r.value;
    }
    return this.head;
  }

  next(): Document | undefined {
    const doc = this.peek();
    this.head = undefined;
    return doc;
  }
}

/** One batch of serialized documents and whether the stream has more. */
export interface Batch {
  docs: Uint8Array[];
  more: boolean;
}

/** Takes up to `max` documents (0 = as many as fit in one reply). */
export function takeBatch(stream: DocStream, max: number): Batch {
  const docs: Uint8Array[] = [];
  let bytes = 0;
  while (max === 0 || docs.length < max) {
    const doc = stream.peek();
    if (doc === undefined) break;
    const bson = serialize(doc, REPLY_BSON);
    if (docs.length > 0 && bytes + bson.byteLength > MAX_BATCH_BYTES) break;
    stream.next();
    docs.push(bson);
    bytes += bson.byteLength;
  }
  return { docs, more: stream.peek() !== undefined };
}

interface OpenCursor {
  ns: string;
  stream: DocStream;
  /** Documents still allowed by the command's `limit` (Infinity when none). */
  remaining: number;
  lastUsed: number;
}

/** How long an unused cursor lives (mongod's default is 10 minutes). */
export const CURSOR_IDLE_MS = 10 * 60 * 1000;

/** Open cursors by id, for getMore and killCursors. */
export class CursorRegistry {
  private readonly cursors = new Map<number, OpenCursor>();
  // Ids start at a random point so that ids from a previous run are not mistaken for live ones.
  private nextId = 1 + Math.floor(Math.random() * 2 ** 40);

  /** Keeps a stream open; returns its id. */
  open(ns: string, stream: DocStream, remaining: number): number {
    const id = this.nextId++;
    this.cursors.set(id, { ns, stream, remaining, lastUsed: Date.now() });
    return id;
  }

  /** Next batch of cursor `id`; closes it when exhausted. Returns the id to report (0 = closed). */
  more(id: number, ns: string, batchSize: number): { docs: Uint8Array[]; id: number } {
    const cursor = this.cursors.get(id);
    if (!cursor) throw fail(ErrorCodes.CursorNotFound, `cursor id ${id} not found`);
    if (cursor.ns !== ns) {
      throw fail(
        ErrorCodes.Unauthorized,
        `Requested getMore on namespace '${ns}', but cursor belongs to a different namespace ${cursor.ns}`,
      );
    }
    const max = Math.min(batchSize || Infinity, cursor.remaining);
    const batch = takeBatch(cursor.stream, max === Infinity ? 0 : max);
    cursor.remaining -= batch.docs.length;
    cursor.lastUsed = Date.now();
    if (!batch.more || cursor.remaining <= 0) {
      this.cursors.delete(id);
      return { docs: batch.docs, id: 0 };
    }
    return { docs: batch.docs, id };
  }

  kill(id: number): boolean {
    return this.cursors.delete(id);
  }

  /** Drops cursors unused for `idleMs`. */
  sweep(idleMs = CURSOR_IDLE_MS): void {
    const limit = Date.now() - idleMs;
    for (const [id, c] of this.cursors) if (c.lastUsed < limit) this.cursors.delete(id);
  }

  get size(): number {
    return this.cursors.size;
  }
}

/** Answers the first batch of a cursor-returning command, opening a cursor when more remain. */
export function firstBatch(
  registry: CursorRegistry,
  ns: string,
  source: Iterator<Document>,
  opts: { batchSize?: number; limit?: number; singleBatch?: boolean },
): { docs: Uint8Array[]; id: number } {
  const stream = new DocStream(source);
  const limit = opts.limit && opts.limit > 0 ? opts.limit : Infinity;
  const batchSize = opts.batchSize ?? 101;
  if (batchSize === 0 && !opts.singleBatch) {
    return { docs: [], id: registry.open(ns, stream, limit) };
  }
  const max = Math.min(batchSize || Infinity, limit);
  const batch = takeBatch(stream, max === Infinity ? 0 : max);
  const remaining = limit - batch.docs.length;
  if (opts.singleBatch || !batch.more || remaining <= 0) return { docs: batch.docs, id: 0 };
  return { docs: batch.docs, id: registry.open(ns, stream, remaining) };
}
