import * as amqp from 'amqplib';

/** RabbitMQ's direct reply-to pseudo-queue: replies without a reply queue. */
export const DIRECT_REPLY_TO = 'amq.rabbitmq.reply-to';

/**
 * A plain amqplib connection for the raw references of the benchmarks: `noDelay` (no Nagle delay
 * on the small frames of a round trip), named for `rabbitmqctl list_connections`, errors ignored
 * (the benchmark sees a dead connection as failed requests).
 */
export async function connectRaw(url: string, connectionName: string): Promise<amqp.ChannelModel> {
  const connection = await amqp.connect(url, {
    noDelay: true,
    clientProperties: { connection_name: connectionName },
  });
  connection.on('error', () => undefined);
  return connection;
}

/** Request/reply over raw amqplib, any number of requests in flight. */
export interface RawRequester {
  /** Publishes `body` to the queue and resolves with the reply's content, or undefined on timeout. */
  request(body: Buffer): Promise<Buffer | undefined>;
}

/**
 * Consumes `replyTo` (no-ack: direct reply-to requires it; a reply queue, declared by the caller,
 * uses it too for the same cost model) and matches replies to requests by correlation id (a
 * counter). A request not answered within `timeoutMs` resolves undefined; a late reply is dropped.
 */
export async function rawRequester(
  channel: amqp.Channel,
  queue: string,
  timeoutMs: number,
  replyTo: string = DIRECT_REPLY_TO,
): Promise<RawRequester> {
  const waiting = new Map<string, (content: Buffer) => void>();
  await channel.consume(
    replyTo,
    (msg) => {
      const id = msg?.properties.correlationId as string | undefined;
      const resolve = id === undefined ? undefined : waiting.get(id);
      if (!msg || !resolve) return;
      waiting.delete(id!);
      resolve(msg.content);
    },
    { noAck: true },
  );
  let next = 0;
  return {
    request: (body) =>
      new Promise((resolve) => {
        const correlationId = String(next++);
        const timer = setTimeout(() => {
          waiting.delete(correlationId);
          resolve(undefined);
        }, timeoutMs);
        waiting.set(correlationId, (content) => {
          clearTimeout(timer);
          resolve(content);
        });
        channel.publish('', queue, body, { replyTo, correlationId });
      }),
  };
}
