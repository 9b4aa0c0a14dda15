import type { AppError } from '../../../schemas/errors';
import { encodeBatch } from './amqp-codec';

/** Default cap of envelopes in one command message (config AMQP_BATCH_MAX; 1 = no batching). */
export const DEFAULT_BATCH_MAX = 32;
/** A batch is sent at once when it would grow past this many bytes of JSON. */
export const DEFAULT_BATCH_BYTES = 128 * 1024;

interface Waiting {
  readonly json: string;
  readonly resolve: () => void;
  readonly reject: (error: AppError) => void;
}

interface Batch {
  readonly kind: string;
  readonly items: Waiting[];
  bytes: number;
}

/**
 * Coalesces the commands a node sends to one actor kind within one turn of the event loop into
 * one AMQP message: a JSON array of envelopes (a lone command stays a plain envelope, the format
 * every node reads). Under load the front door handles many HTTP requests per turn of the loop
 * (tens, in bursts), each sending one command; as separate messages each cost the broker a
 * publish, a quorum-queue append (a Raft command), a confirm, a delivery and an ack. Grouped,
 * those are paid once per batch.
 *
 * The flush is a `setImmediate`: it runs in the loop's check phase, after the poll phase that
 * handled this turn's socket data, so every command of the turn is in. The publish of each batch
 * is confirmed once; every command of the batch resolves (or rejects) with that confirm, so
 * `send()` keeps its meaning: resolved = accepted by the broker. Order per kind is kept (batches
 * leave in the order they filled). What a batch means to the consumer (one settlement, split when
 * its commands end differently) is in amqp-consumer-batch.ts.
 */
export class CommandBatcher {
  private readonly waiting = new Map<string, Batch>();
  private scheduled = false;
  private readonly flushSoon = () => this.flush();

  /**
   * @param publish publishes one message to a kind's queue with a publisher confirm; rejects
   *   UNAVAILABLE (may also throw it) when it cannot
   * @param afterFlush called once after a flush published something (writes it now, see WriteWatch)
   */
  constructor(
    private readonly publish: (kind: string, body: Buffer) => Promise<void>,
    private readonly afterFlush: () => void,
    private readonly maxEnvelopes = DEFAULT_BATCH_MAX,
    private readonly maxBytes = DEFAULT_BATCH_BYTES,
  ) {}

  /** Queues one encoded command (JSON text) for `kind`; settles with its batch's confirm. */
  add(kind: string, json: string): Promise<void> {
    // Bytes, not characters: a body of non-ASCII text would otherwise pass the cap up to threefold.
    const bytes = Buffer.byteLength(json);
    return new Promise<void>((resolve, reject) => {
      let batch = this.waiting.get(kind);
      if (batch && (batch.items.length >= this.maxEnvelopes || batch.bytes + bytes > this.maxBytes)) {
        this.send(batch);
        batch = undefined;
      }
      if (!batch) {
        batch = { kind, items: [], bytes: 2 };
        this.waiting.set(kind, batch);
      }
      batch.items.push({ json, resolve, reject });
      batch.bytes += bytes + 1;
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.flushSoon);
      }
    });
  }

  /** Commands waiting for the next flush. */
  get size(): number {
    let n = 0;
    for (const batch of this.waiting.values()) n += batch.items.length;
    return n;
  }

  /**
   * Publishes what waits for `kind` now: a command that must travel alone goes after the ones sent
   * before it, so the order of one node's commands to a kind holds.
   */
  flushKind(kind: string): void {
    const batch = this.waiting.get(kind);
    if (batch) this.send(batch);
  }

  /** Publishes everything waiting now (also before the transport closes). */
  flush(): void {
    this.scheduled = false;
    if (this.waiting.size === 0) return;
    const batches = [...this.waiting.values()];
    for (const batch of batches) this.send(batch);
    this.afterFlush();
  }

  /** Rejects everything waiting (the connection is gone: none of it was published). */
  failAll(error: AppError): void {
    const batches = [...this.waiting.values()];
    this.waiting.clear();
    for (const batch of batches) for (const item of batch.items) item.reject(error);
  }

  private send(batch: Batch): void {
    if (this.waiting.get(batch.kind) === batch) this.waiting.delete(batch.kind);
    const { items } = batch;
    const text = encodeBatch(items.map((i) => i.json));
    let published: Promise<void>;
    try {
      published = this.publish(batch.kind, Buffer.from(text));
    } catch (err) {
      published = Promise.reject(err);
    }
    published.then(
      () => {
        for (const item of items) item.resolve();
      },
      (err: AppError) => {
        for (const item of items) item.reject(err);
      },
    );
  }
}
