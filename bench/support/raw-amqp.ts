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
