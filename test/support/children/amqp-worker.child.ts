/**
 * A worker node in a child process, for fault tests: it consumes one actor kind over the AMQP
 * transport and reports over IPC. Started with test/support/child-process.ts.
 *
 * Environment: AMQP_URL, AMQP_PREFIX, CONNECTION_NAME, NODE_ID, KIND, PREFETCH (default 1), DELIVERY_LIMIT (5),
 * WORK = 'hang' (a turn never ends: the test kills the process mid-turn) | 'ack' (ends at once).
 *
 * Messages: `{ event: 'ready' }` once consuming; `{ event: 'started', id, deliveryCount }` when a
 * turn starts; `{ event: 'completed', id }` when it ends.
 */
import { AmqpTransport } from '../../../src/transport/amqp/amqp.transport';

const env = process.env;

function report(message: Record<string, unknown>): void {
  process.send?.(message);
}

async function main(): Promise<void> {
  const transport = new AmqpTransport({
    url: env.AMQP_URL!,
    prefix: env.AMQP_PREFIX!,
    nodeId: env.NODE_ID!,
    prefetch: Number(env.PREFETCH || 1),
    deliveryLimit: Number(env.DELIVERY_LIMIT || 5),
    connectionName: env.CONNECTION_NAME,
  });
  await transport.start();
  await transport.consume(env.KIND!, async ({ envelope, deliveryCount }) => {
    report({ event: 'started', id: envelope.id, deliveryCount });
    if (env.WORK === 'hang') await new Promise(() => undefined);
    report({ event: 'completed', id: envelope.id });
    return 'ack';
  });
  report({ event: 'ready' });
  // The parent ends this process (gracefully by disconnecting, or with kill -9).
  process.on('disconnect', () => {
    void transport.stop(1000).then(() => process.exit(0));
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
