import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { isAppError } from '../../../../schemas/errors';
import { AmqpTransport } from '../../../../src/transport/amqp/amqp.transport';
import { withAmqpChannel } from '../../../support/amqp-admin';
import { createAmqpTestCluster, type AmqpTestCluster } from '../../../support/amqp-cluster';
import { deferred, sleep, waitFor } from '../../../support/async';
import { commandEnvelope, uniqueKind } from '../../../support/envelopes';
import { describeWithService } from '../../../support/services';

type QueueRow = { name: string; type: string; durable: boolean; arguments: Array<[string, string, unknown]> };

async function listQueues(prefix: string): Promise<Map<string, QueueRow>> {
  const command = (process.env.RABBITMQCTL || 'rabbitmqctl').split(' ');
  const { stdout } = await promisify(execFile)(command[0], [
    ...command.slice(1),
    ...['list_queues', 'name', 'type', 'durable', 'arguments', '--formatter', 'json', '-q'],
  ]);
  const rows = JSON.parse(stdout) as QueueRow[];
  return new Map(rows.filter((r) => r.name.startsWith(`${prefix}.`)).map((r) => [r.name, r]));
}

const args = (row: QueueRow | undefined) =>
  Object.fromEntries((row?.arguments ?? []).map(([k, , v]) => [k, v]));

/** What only a broker can show: the declared topology, malformed input, credentials, leftovers. */
describeWithService('amqp', 'AMQP transport', (url) => {
  let cluster: AmqpTestCluster;

  beforeEach(() => {
    cluster = createAmqpTestCluster(url);
  });

  afterEach(async () => {
    await cluster.cleanup();
  });

  it('declares a quorum queue per kind with its delivery limit and DLQ, and expiring node queues', async () => {
    const node = cluster.node('topo', { deliveryLimit: 4 });
    await node.start();
    const kind = uniqueKind('topo');
    await node.consume(kind, async () => 'ack');
    const p = node.names.prefix;
    const queues = await listQueues(p);
    const command = queues.get(`${p}.actor.${kind}`);
    expect(command).toMatchObject({ type: 'quorum', durable: true });
    expect(args(command)).toEqual({
      'x-queue-type': 'quorum',
      'x-delivery-limit': 3, // the broker counts returns: 3 returns = 4 deliveries
      'x-dead-letter-exchange': `${p}.dlx`,
      'x-dead-letter-routing-key': kind,
    });
    expect(queues.get(`${p}.dlq.${kind}`)).toMatchObject({ type: 'quorum', durable: true });
    for (const own of [`${p}.reply.topo`, `${p}.broadcast.topo`]) {
      expect(queues.get(own)).toMatchObject({ type: 'classic', durable: false });
      expect(args(queues.get(own))).toEqual({ 'x-expires': 60000 });
    }
    await node.stop(100);
    const after = await listQueues(p);
    expect(after.has(`${p}.reply.topo`)).toBe(false); // a node that leaves removes its own queues
    expect(after.has(`${p}.broadcast.topo`)).toBe(false);
    expect(after.has(`${p}.actor.${kind}`)).toBe(true); // commands outlive any node
  });

  it('dead-letters a malformed message at once and goes on with the next', async () => {
    const node = cluster.node('strict');
    await node.start();
    const kind = uniqueKind('bad');
    const handled: string[] = [];
    await node.consume(kind, async (d) => {
      handled.push(d.envelope.id);
      return 'ack';
    });
    await withAmqpChannel(url, async (channel) => {
      channel.sendToQueue(node.names.commandQueue(kind), Buffer.from('{not json'));
      channel.sendToQueue(node.names.commandQueue(kind), Buffer.from(JSON.stringify({ v: 2, id: 'x' })));
      await channel.checkQueue(node.names.commandQueue(kind)); // a round trip: the publishes went out
    });
    await node.send(commandEnvelope(`${kind}:a`, { id: 'good-one' }));
    await waitFor(async () => (await node.deadLetterCount(kind)) === 2, 'two dead letters');
    expect(handled).toEqual(['good-one']);
    const raw = (await node.peekDeadLetters(kind)).map((d) => d.raw);
    expect(raw.sort()).toEqual(['{"v":2,"id":"x"}', '{not json']);
  });

  it('coalesces the replies sent to one node in one turn into one message, read back in order', async () => {
    const sender = cluster.node('sender');
    const receiver = cluster.node('receiver');
    await sender.start();
    await receiver.start();
    const got: string[] = [];
    receiver.onReply((e) => got.push(e.correlationId ?? ''));
    const reply = (n: number) =>
      commandEnvelope('requester:x', {
        type: 'kernel.reply',
        correlationId: `c${n}`,
        body: { kind: 'reply' },
      });
    // A queue nobody consumes shows what went on the wire.
    const observed = sender.names.replyQueue('observer');
    await withAmqpChannel(url, (channel) =>
      channel.assertQueue(observed, { durable: false, arguments: { 'x-expires': 60000 } }),
    );
    try {
      await Promise.all([1, 2, 3].map((n) => sender.reply('observer', reply(n))));
      await Promise.all([4, 5, 6, 7].map((n) => sender.reply('receiver', reply(n))));
      await waitFor(() => got.length === 4, 'four replies at the receiver');
      expect(got).toEqual(['c4', 'c5', 'c6', 'c7']);
      const wire = await withAmqpChannel(url, async (channel) => {
        const first = await channel.get(observed, { noAck: true });
        const second = await channel.get(observed, { noAck: true });
        return { first: first ? (JSON.parse(first.content.toString()) as unknown) : null, second };
      });
      expect(
        Array.isArray(wire.first) && wire.first.map((e: { correlationId: string }) => e.correlationId),
      ).toEqual(['c1', 'c2', 'c3']);
      expect(wire.second).toBe(false);
    } finally {
      await withAmqpChannel(url, (channel) => channel.deleteQueue(observed));
    }
  });

  it('gives an unsettled command back when stop() runs out of grace, so another node gets it', async () => {
    const quitter = cluster.node('quitter');
    const heir = cluster.node('heir');
    await quitter.start();
    await heir.start();
    const kind = uniqueKind('grace');
    const started = deferred();
    await quitter.consume(kind, async () => {
      started.resolve();
      return new Promise(() => undefined);
    });
    await quitter.send(commandEnvelope(`${kind}:a`, { id: 'unfinished' }));
    await started.promise;
    await quitter.stop(100);
    const inherited = deferred<{ id: string; redelivered: boolean }>();
    await heir.consume(kind, async (d) => {
      inherited.resolve({ id: d.envelope.id, redelivered: d.redelivered });
      return 'ack';
    });
    expect(await inherited.promise).toEqual({ id: 'unfinished', redelivered: true });
  });

  it('refuses a consumer whose delivery limit contradicts the existing queue, and stays up', async () => {
    const kind = uniqueKind('clash');
    const first = cluster.node('first');
    await first.start();
    await first.consume(kind, async () => 'ack');
    // Same prefix, other limit: the broker refuses the re-declaration.
    const second = new AmqpTransport({ url, nodeId: 'second', prefix: first.names.prefix, deliveryLimit: 9 });
    try {
      await second.start();
      const err = await second.consume(kind, async () => 'ack').catch((e: unknown) => e);
      expect(isAppError(err) && err.code).toBe('UNAVAILABLE');
      expect(String((err as Error).message)).toMatch(/PRECONDITION_FAILED/);
      await sleep(100);
      expect(second.status().state).toBe('up');
      await expect(second.broadcast(commandEnvelope('all:x'))).resolves.toBeUndefined();
    } finally {
      await second.stop(0);
    }
  });

  it('never shows credentials, and start() rejects UNAVAILABLE when the broker cannot be reached', async () => {
    const node = cluster.node('creds');
    await node.start();
    expect(JSON.stringify(node.status())).not.toMatch(/guest:guest|:guest@/);
    const unreachable = new AmqpTransport({
      url: 'amqp://someone:s3cret-pass@127.0.0.1:1/vh',
      nodeId: 'nowhere',
      startTimeoutMs: 300,
      reconnect: { initialDelayMs: 20, maxDelayMs: 50 },
    });
    const t0 = Date.now();
    const err = await unreachable.start().catch((e: unknown) => e);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(isAppError(err) && err.code).toBe('UNAVAILABLE');
    expect(String((err as Error).message)).not.toContain('s3cret-pass');
    expect(unreachable.status().state).toBe('down');
    expect(JSON.stringify(unreachable.status())).not.toContain('s3cret-pass');
    expect(unreachable.status().detail).toContain('amqp://127.0.0.1:1/vh');
  });
});
