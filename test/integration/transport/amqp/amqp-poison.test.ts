import type { GetMessage } from 'amqplib';
import pino from 'pino';
import { z } from 'zod';
import { createActorSystem, defineActor } from '../../../../src/kernel';
import type { AmqpTestNodeOptions } from '../../../support/amqp-cluster';
import { withAmqpChannel } from '../../../support/amqp-admin';
import { createAmqpTestCluster, type AmqpTestCluster } from '../../../support/amqp-cluster';
import { sleep, waitFor } from '../../../support/async';
import { commandEnvelope, uniqueKind } from '../../../support/envelopes';
import { describeWithService } from '../../../support/services';

/** 5,000 nested arrays in 10 KB: JSON.parse takes it, a recursive JSON.stringify overflows the stack. */
const DEEP = '['.repeat(5000) + ']'.repeat(5000);

/** Reads (and removes) every message of a queue, with its headers. */
function drain(url: string, queue: string): Promise<GetMessage[]> {
  return withAmqpChannel(url, async (channel) => {
    const out: GetMessage[] = [];
    for (let m = await channel.get(queue, { noAck: true }); m; m = await channel.get(queue, { noAck: true }))
      out.push(m);
    return out;
  });
}

function publishRaw(url: string, queue: string, body: Buffer): Promise<void> {
  return withAmqpChannel(url, async (channel) => {
    channel.sendToQueue(queue, body);
    await channel.checkQueue(queue); // a round trip: the publish went out
  });
}

/**
 * Poison on an actor queue: whatever its shape, it is dead-lettered at first sight with its reason
 * in a header (the bytes as they came, never re-serialised), its neighbours in a batch run, and
 * the consumer's channel stays up.
 */
describeWithService('amqp', 'poison on an actor queue', (url) => {
  let cluster: AmqpTestCluster;

  beforeEach(() => {
    cluster = createAmqpTestCluster(url);
  });

  afterEach(async () => {
    await cluster.cleanup();
  });

  /** A node consuming `kind` that records the ids it handles and keeps its log lines. */
  async function consumer(kind: string, options: AmqpTestNodeOptions = {}) {
    const lines: Array<{ msg?: string }> = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const node = cluster.node('strict', { logger, ...options });
    await node.start();
    const handled: string[] = [];
    await node.consume(kind, async ({ envelope }) => {
      handled.push(envelope.id);
      return 'ack';
    });
    /** Lines saying a channel or the connection went down. */
    const trouble = () =>
      lines.map((l) => l.msg ?? '').filter((m) => /channel closed|channel error|connection lost/.test(m));
    return { node, handled, trouble };
  }

  it('dead-letters a deeply nested element of a batch once, with its reason, and runs its neighbours', async () => {
    const kind = uniqueKind('deep');
    const { node, handled, trouble } = await consumer(kind);
    const good = ['g1', 'g2', 'g3'].map((id) => JSON.stringify(commandEnvelope(`${kind}:a`, { id })));
    const batch = `[${good[0]},${good[1]},${DEEP},${good[2]}]`;
    await publishRaw(url, node.names.commandQueue(kind), Buffer.from(batch));

    await waitFor(() => handled.length === 3, 'the three valid commands run');
    await waitFor(async () => (await node.deadLetterCount(kind)) === 1, 'the dead letter');
    // The consumer goes on: a command sent now runs too.
    await node.send(commandEnvelope(`${kind}:a`, { id: 'after' }));
    await waitFor(() => handled.length === 4, 'a command after the poison');
    await sleep(200);
    await node.stop(1000);

    expect(handled).toEqual(['g1', 'g2', 'g3', 'after']);
    const dead = await drain(url, node.names.deadLetterQueue(kind));
    expect(dead).toHaveLength(1);
    expect(dead[0].content.toString('utf8')).toBe(DEEP);
    expect(dead[0].properties.headers).toMatchObject({
      'x-ars-dead-letter-reason': 'malformed',
      'x-ars-dead-letter-detail': expect.stringMatching(/^invalid envelope/),
      'x-ars-prior-deliveries': 1,
    });
    expect(trouble()).toEqual([]);
    expect((await drain(url, node.names.commandQueue(kind))).length).toBe(0);
  });

  const validButLong = JSON.stringify(
    commandEnvelope('k:a', { id: 'long', body: { text: 'x'.repeat(8192) } }),
  );
  const shapes: Array<[string, Buffer, RegExp, AmqpTestNodeOptions]> = [
    ['a deeply nested array alone', Buffer.from(DEEP), /no valid envelope/, {}],
    [
      'invalid UTF-8',
      Buffer.concat([Buffer.from('{"v":1,"id":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]),
      /^invalid UTF-8$/,
      {},
    ],
    [
      'another envelope version',
      Buffer.from(JSON.stringify({ ...commandEnvelope('k:a'), v: 2 })),
      /^invalid envelope: v:/,
      {},
    ],
    ['not JSON', Buffer.from('{not json'), /^not JSON$/, {}],
    ['larger than the limit', Buffer.from(validButLong), /^too large: \d+ bytes/, { maxMessageBytes: 4096 }],
  ];

  it.each(shapes)(
    'dead-letters %s at first sight, as it came, with its reason',
    async (_what, body, detail, options) => {
      const kind = uniqueKind('poison');
      const { node, handled, trouble } = await consumer(kind, options);
      await publishRaw(url, node.names.commandQueue(kind), body);
      await waitFor(async () => (await node.deadLetterCount(kind)) === 1, 'the dead letter');
      await node.send(commandEnvelope(`${kind}:a`, { id: 'after' }));
      await waitFor(() => handled.length === 1, 'a command after the poison');
      await node.stop(1000);

      expect(handled).toEqual(['after']);
      const dead = await drain(url, node.names.deadLetterQueue(kind));
      expect(dead).toHaveLength(1);
      expect(dead[0].content.equals(body)).toBe(true);
      expect(dead[0].properties.headers).toMatchObject({
        'x-ars-dead-letter-reason': 'malformed',
        'x-ars-dead-letter-detail': expect.stringMatching(detail),
        'x-ars-prior-deliveries': 1,
      });
      expect(dead[0].properties.headers?.['x-death']).toBeUndefined(); // not a broker dead letter
      expect(trouble()).toEqual([]);
    },
  );

  it('dead-letters a command whose body its schema rejects, and answers its caller VALIDATION_ERROR', async () => {
    const kind = uniqueKind('schema');
    const runs: number[] = [];
    const transport = cluster.node('worker');
    const worker = createActorSystem({ transport });
    await worker.register(
      defineActor({
        kind,
        messages: { 'work.do': z.object({ n: z.number() }) },
        handlers: {
          'work.do': (_ctx, { n }) => {
            runs.push(n);
            return n;
          },
        },
      }),
    );
    await worker.start();
    const api = createActorSystem({ transport: cluster.node('api') });
    await api.start();
    try {
      await expect(api.ask(`${kind}:a`, 'work.do', { n: 'two' })).rejects.toMatchObject({
        code: 'VALIDATION_ERROR',
      });
      await expect(api.ask(`${kind}:a`, 'work.nope', {})).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
      await expect(api.ask(`${kind}:a`, 'work.do', { n: 3 })).resolves.toBe(3);
      await waitFor(async () => (await cluster.deadLetterCount(kind)) === 2, 'two dead letters');
    } finally {
      await api.stop(1000);
      await worker.stop(1000);
    }
    expect(runs).toEqual([3]);
    const dead = await drain(url, transport.names.deadLetterQueue(kind));
    expect(dead.map((m) => JSON.parse(m.content.toString('utf8')).type)).toEqual(['work.do', 'work.nope']);
    expect(dead.map((m) => m.properties.headers?.['x-ars-dead-letter-reason'])).toEqual([
      'rejected',
      'rejected',
    ]);
    expect(dead[0].properties.headers?.['x-ars-dead-letter-detail']).toMatch(
      /^invalid body for "work.do": n: /,
    );
    expect(dead[1].properties.headers?.['x-ars-dead-letter-detail']).toMatch(
      /^unknown message type "work.nope"/,
    );
  });
});
