import * as amqp from 'amqplib';

/** Queue and exchange names a benchmark's AMQP nodes reported declaring. */
export interface DeclaredAmqpNames {
  queues: Set<string>;
  exchanges: Set<string>;
}

/**
 * Deletes the queues and exchanges a benchmark run declared, so that nothing of it stays on the
 * broker. One channel per name: deleting a name that is already gone closes its channel, not the
 * others'. Errors are ignored (a name may be gone already).
 */
export async function deleteDeclaredAmqpNames(
  url: string,
  names: DeclaredAmqpNames,
  connectionName: string,
): Promise<void> {
  if (names.queues.size === 0 && names.exchanges.size === 0) return;
  const connection = await amqp.connect(url, { clientProperties: { connection_name: connectionName } });
  connection.on('error', () => undefined);
  try {
    const one = async (op: (channel: amqp.Channel) => Promise<unknown>) => {
      const channel = await connection.createChannel();
      channel.on('error', () => undefined);
      await op(channel).catch(() => undefined);
      await channel.close().catch(() => undefined);
    };
    await Promise.all([...names.queues].map((q) => one((c) => c.deleteQueue(q))));
    await Promise.all([...names.exchanges].map((e) => one((c) => c.deleteExchange(e))));
  } finally {
    await connection.close().catch(() => undefined);
  }
}
