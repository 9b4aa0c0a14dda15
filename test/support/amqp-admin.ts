import * as amqp from 'amqplib';
import type { Channel } from 'amqplib';
import { AmqpNames } from '../../src/transport/amqp/amqp-topology';

/**
 * Runs `fn` with a short-lived AMQP channel of its own, for tests that inspect or clean the broker.
 * Errors such as a missing queue close only this channel.
 */
export async function withAmqpChannel<T>(url: string, fn: (channel: Channel) => Promise<T>): Promise<T> {
  const connection = await amqp.connect(url, {
    noDelay: true,
    clientProperties: { connection_name: 'test-admin' },
  });
  connection.on('error', () => undefined);
  try {
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    return await fn(channel);
  } finally {
    await connection.close().catch(() => undefined);
  }
}

/** Messages ready in a queue; 0 when the queue does not exist. */
export function queueMessageCount(url: string, queue: string): Promise<number> {
  return withAmqpChannel(url, async (channel) => {
    try {
      return (await channel.checkQueue(queue)).messageCount;
    } catch (err) {
      if ((err as { code?: number }).code === 404) return 0;
      throw err;
    }
  });
}

/** Deletes queues and exchanges (missing ones are fine). One channel per name: an error closes a channel. */
export async function deleteAmqpTopology(
  url: string,
  names: { queues: string[]; exchanges: string[] },
): Promise<void> {
  if (names.queues.length === 0 && names.exchanges.length === 0) return;
  const connection = await amqp.connect(url, { clientProperties: { connection_name: 'test-cleanup' } });
  connection.on('error', () => undefined);
  try {
    const run = async (op: (channel: Channel) => Promise<unknown>) => {
      const channel = await connection.createChannel();
      channel.on('error', () => undefined);
      await op(channel).catch(() => undefined);
      await channel.close().catch(() => undefined);
    };
    await Promise.all(names.queues.map((q) => run((c) => c.deleteQueue(q))));
    await Promise.all(names.exchanges.map((e) => run((c) => c.deleteExchange(e))));
  } finally {
    await connection.close().catch(() => undefined);
  }
}

/**
 * Deletes what the nodes of one test cluster declared under `prefix`: the command and dead-letter
 * queues of `kinds`, each node's reply and broadcast inbox, and the shared exchanges.
 */
export async function deleteClusterTopology(
  url: string,
  prefix: string,
  cluster: { kinds: readonly string[]; nodeIds: readonly string[] },
): Promise<void> {
  const names = new AmqpNames(prefix);
  await deleteAmqpTopology(url, {
    queues: [
      ...cluster.kinds.flatMap((k) => [names.commandQueue(k), names.deadLetterQueue(k)]),
      ...cluster.nodeIds.flatMap((n) => [names.replyQueue(n), names.broadcastQueue(n)]),
    ],
    exchanges: [names.deadLetterExchange, names.broadcastExchange],
  });
}
