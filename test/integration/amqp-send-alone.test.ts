import { queueMessageCount, withAmqpChannel } from '../support/amqp-admin';
import { createAmqpTestCluster, type AmqpTestCluster } from '../support/amqp-cluster';
import { waitFor } from '../support/async';
import { commandEnvelope, uniqueKind } from '../support/envelopes';
import { describeWithService } from '../support/services';

/**
 * The `alone` send hint (RequestOptions.alone; heavy tools like proc_execute): a command sent with
 * it is a message of its own even when other commands to the same kind leave in the same batch.
 */
describeWithService('amqp', 'AMQP transport: commands sent alone', (url) => {
  let cluster: AmqpTestCluster;

  beforeEach(() => {
    cluster = createAmqpTestCluster(url);
  });

  afterEach(async () => {
    await cluster.cleanup();
  });

  it('keeps an `alone` command out of the batch of its turn, after the commands sent before it', async () => {
    const node = cluster.node('alone');
    await node.start();
    const kind = uniqueKind('alone');
    await node.send(commandEnvelope(`${kind}:warm`, { id: 'warm' })); // declares the kind's queues
    const queue = node.names.commandQueue(kind);
    await waitFor(async () => (await queueMessageCount(url, queue)) === 1, 'the first command queued');

    await Promise.all([
      node.send(commandEnvelope(`${kind}:a`, { id: 'first-1' })),
      node.send(commandEnvelope(`${kind}:b`, { id: 'first-2' })),
      node.send(commandEnvelope(`${kind}:c`, { id: 'heavy' }), { alone: true }),
      node.send(commandEnvelope(`${kind}:d`, { id: 'after-1' })),
      node.send(commandEnvelope(`${kind}:e`, { id: 'after-2' })),
    ]);
    await waitFor(async () => (await queueMessageCount(url, queue)) === 4, 'three more messages');

    const bodies = await withAmqpChannel(url, async (channel) => {
      const out: unknown[] = [];
      for (let i = 0; i < 4; i++) {
        const m = await channel.get(queue, { noAck: true });
        if (m) out.push(JSON.parse(m.content.toString('utf8')));
      }
      return out;
    });
    const ids = bodies.map((b) =>
      Array.isArray(b) ? b.map((e: { id: string }) => e.id) : (b as { id: string }).id,
    );
    // The batch waiting when the heavy command came left first: one node's order to a kind holds.
    expect(ids).toEqual(['warm', ['first-1', 'first-2'], 'heavy', ['after-1', 'after-2']]);
  });
});
