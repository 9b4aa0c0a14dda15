import { encodeBatch } from './amqp-codec';

/**
 * Coalesces the replies (and stream items) a node sends to one requester node within one turn of
 * the event loop into one AMQP message: a JSON array of envelopes instead of one message per
 * envelope. Replies are best effort and go to a no-ack queue, so grouping them changes no
 * guarantee; it saves the broker a publish, a routing, an enqueue and a delivery per reply, and the
 * requester the parsing of their frames. Under load a worker ends several turns per batch of
 * socket data, so several replies to the same api node leave together.
 *
 * The flush is a `setImmediate`: it runs in the loop's check phase, once every callback of the poll
 * phase has run, so the replies of turns ended by several chunks of socket data (a batch of
 * commands, then the cache's answers arriving in pieces) leave together; `afterFlush` then writes
 * them at the end of that tick (WriteWatch.writeSoon), together with the acknowledgements they
 * released. It used to be a `process.nextTick` per chunk: with two workers sharing the load, each
 * saw smaller chunks and paid a socket write per chunk. A lone reply goes out as a plain envelope,
 * the format every node reads; the receiving side reads both (`decodeEnvelopes`).
 */
export class ReplyBatcher {
  /** Encoded envelopes waiting per destination queue, in the order they were sent. */
  private readonly waiting = new Map<string, string[]>();
  private readonly bytes = new Map<string, number>();
  private scheduled = false;
  private readonly flushSoon = () => this.flush();

  /**
   * @param publish sends one message to a queue; it throws when the channel is gone
   * @param onError given each batch that could not be published (its encoded envelopes, in order),
   *   so the transport can keep them for the next link
   * @param maxBytes a queue's batch is sent at once when it would grow past this many bytes
   * @param afterFlush called once after a flush that published something
   */
  constructor(
    private readonly publish: (queue: string, content: Buffer) => void,
    private readonly onError: (err: unknown, queue: string, jsons: string[]) => void,
    private readonly maxBytes = 128 * 1024,
    private readonly afterFlush: () => void = () => undefined,
  ) {}

  /** Queues one encoded envelope (JSON text) for `queue`. */
  add(queue: string, json: string): void {
    let list = this.waiting.get(queue);
    const size = (this.bytes.get(queue) ?? 0) + json.length;
    if (list && size > this.maxBytes) {
      this.send(queue, list);
      list = undefined;
    }
    if (!list) {
      list = [];
      this.waiting.set(queue, list);
      this.bytes.set(queue, json.length);
    } else {
      this.bytes.set(queue, size);
    }
    list.push(json);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flushSoon);
    }
  }

  /** Sends everything waiting now (also used before the transport closes). */
  flush(): void {
    this.scheduled = false;
    if (this.waiting.size === 0) return;
    const batches = [...this.waiting];
    this.waiting.clear();
    this.bytes.clear();
    for (const [queue, list] of batches) this.send(queue, list);
    this.afterFlush();
  }

  private send(queue: string, list: string[]): void {
    this.waiting.delete(queue);
    this.bytes.delete(queue);
    const text = encodeBatch(list);
    try {
      this.publish(queue, Buffer.from(text));
    } catch (err) {
      this.onError(err, queue, list);
    }
  }
}
