import type { GetMessage } from 'amqplib';
import type { Envelope } from '../../../../schemas/envelope';
import { isAppError } from '../../../../schemas/errors';
import type { AmqpTransport } from '../../../../src/transport/amqp/amqp.transport';
import type { CommandHandler, Disposition } from '../../../../src/transport/transport';
import { queueMessageCount, withAmqpChannel } from '../../../support/amqp-admin';
import { createAmqpTestCluster, type AmqpTestCluster } from '../../../support/amqp-cluster';
import { sleep, waitFor } from '../../../support/async';
import { commandEnvelope, uniqueKind } from '../../../support/envelopes';
import { describeWithService } from '../../../support/services';
import { startTcpProxyTo } from '../../../support/tcp-proxy';

/** One delivery as a handler saw it. */
interface Seen {
  id: string;
  deliveryCount: number;
  redelivered: boolean;
}

/** A handler that records every delivery in `seen`, then settles it as `decide` says. */
function recordingHandler(
  seen: Seen[],
  decide: (id: string, deliveryCount: number) => Disposition,
): CommandHandler {
  return async ({ envelope, deliveryCount, redelivered }) => {
    seen.push({ id: envelope.id, deliveryCount, redelivered });
    return decide(envelope.id, deliveryCount);
  };
}

/** Starts sends synchronously, one after the other: they all fall in one turn of the event loop. */
function sendInOneTurn(node: AmqpTransport, envelopes: Envelope[]): Promise<void[]> {
  return Promise.all(envelopes.map((e) => node.send(e)));
}

function envelopesTo(kind: string, ids: string[]): Envelope[] {
  return ids.map((id) => commandEnvelope(`${kind}:a`, { id }));
}

/** Reads (and removes) every message of a queue, with its headers. */
async function drain(url: string, queue: string): Promise<GetMessage[]> {
  return withAmqpChannel(url, async (channel) => {
    const out: GetMessage[] = [];
    for (;;) {
      const m = await channel.get(queue, { noAck: true });
      if (!m) return out;
      out.push(m);
    }
  });
}

/** The bodies of the ready messages of a queue, left in place (closing the channel returns them). */
async function peekBodies(url: string, queue: string, max: number): Promise<unknown[]> {
  return withAmqpChannel(url, async (channel) => {
    const out: unknown[] = [];
    for (let i = 0; i < max; i++) {
      const m = await channel.get(queue, { noAck: false });
      if (!m) break;
      out.push(JSON.parse(m.content.toString('utf8')));
    }
    return out;
  });
}

/** Waits for `promise` at most `ms`; 'still waiting' after that (the timer never outlives the test). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | 'still waiting'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'still waiting'>((resolve) => {
    timer = setTimeout(() => resolve('still waiting'), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Command batches over a real broker: what travels, how a batch is settled, split and spread. */
describeWithService('amqp', 'AMQP command batches', (url) => {
  let cluster: AmqpTestCluster;

  beforeEach(() => {
    cluster = createAmqpTestCluster(url);
  });

  afterEach(async () => {
    await cluster.cleanup();
  });

  it('sends the commands of one turn as one message, each handled exactly once', async () => {
    const node = cluster.node('batcher');
    await node.start();
    const kind = uniqueKind('one-turn');
    const envelopes = envelopesTo(
      kind,
      Array.from({ length: 10 }, (_, i) => `cmd-${i}`),
    );
    await sendInOneTurn(node, envelopes);
    const queue = node.names.commandQueue(kind);
    expect(await queueMessageCount(url, queue)).toBe(1);
    expect(await peekBodies(url, queue, 2)).toEqual([envelopes]);

    const handled: string[] = [];
    await node.consume(kind, async ({ envelope }) => {
      handled.push(envelope.id);
      return 'ack';
    });
    await waitFor(() => handled.length === 10, 'ten commands handled');
    await sleep(200);
    expect(handled).toEqual(envelopes.map((e) => e.id));
    await node.stop(1000); // acks are sent before the connection closes; anything unacked comes back
    expect(await queueMessageCount(url, queue)).toBe(0);
  });

  it('sends every command alone with batchMax 1', async () => {
    const node = cluster.node('unbatched', { batchMax: 1 });
    await node.start();
    const kind = uniqueKind('alone');
    const envelopes = envelopesTo(
      kind,
      Array.from({ length: 10 }, (_, i) => `cmd-${i}`),
    );
    await sendInOneTurn(node, envelopes);
    const queue = node.names.commandQueue(kind);
    expect(await queueMessageCount(url, queue)).toBe(10);
    expect(await peekBodies(url, queue, 11)).toEqual(envelopes);
  });

  it('dead-letters only the command that asked for it; the others of its batch are acknowledged', async () => {
    const node = cluster.node('mixed');
    await node.start();
    const kind = uniqueKind('mixed');
    const envelopes = envelopesTo(kind, ['keep-1', 'reject', 'keep-2']);
    const seen: Seen[] = [];
    await node.consume(
      kind,
      recordingHandler(seen, (id) => (id === 'reject' ? 'dead-letter' : 'ack')),
    );
    await sendInOneTurn(node, envelopes);
    await waitFor(async () => (await node.deadLetterCount(kind)) === 1, 'one dead letter');
    await sleep(200); // nothing comes back
    expect(seen).toEqual(envelopes.map((e) => ({ id: e.id, deliveryCount: 1, redelivered: false })));
    await node.stop(1000);
    expect(await queueMessageCount(url, node.names.commandQueue(kind))).toBe(0);
    const dead = await drain(url, node.names.deadLetterQueue(kind));
    expect(dead).toHaveLength(1);
    expect(JSON.parse(dead[0].content.toString('utf8'))).toEqual(envelopes[1]);
    expect(dead[0].properties.headers).toMatchObject({
      'x-ars-dead-letter-reason': 'rejected',
      'x-ars-prior-deliveries': 1,
    });
  });

  it('requeues alone the command that asked for it, counting the delivery it had in the batch', async () => {
    const node = cluster.node('requeue-once');
    await node.start();
    const kind = uniqueKind('again');
    const envelopes = envelopesTo(kind, ['first', 'again', 'last']);
    const seen: Seen[] = [];
    await node.consume(
      kind,
      recordingHandler(seen, (id, deliveryCount) =>
        id === 'again' && deliveryCount === 1 ? 'requeue' : 'ack',
      ),
    );
    await sendInOneTurn(node, envelopes);
    await waitFor(() => seen.length === 4, 'four deliveries');
    await sleep(200);
    expect(seen.map(({ id, deliveryCount }) => ({ id, deliveryCount }))).toEqual([
      { id: 'first', deliveryCount: 1 },
      { id: 'again', deliveryCount: 1 },
      { id: 'last', deliveryCount: 1 },
      { id: 'again', deliveryCount: 2 },
    ]);
    await node.stop(1000);
    expect(await queueMessageCount(url, node.names.commandQueue(kind))).toBe(0);
    expect(await cluster.deadLetterCount(kind)).toBe(0);
  });

  it('dead-letters a command of a batch that always asks for requeue after deliveryLimit deliveries', async () => {
    const node = cluster.node('requeue-always', { deliveryLimit: 3 });
    await node.start();
    const kind = uniqueKind('loop');
    const envelopes = envelopesTo(kind, ['ok-1', 'loop', 'ok-2']);
    const seen: Seen[] = [];
    await node.consume(
      kind,
      recordingHandler(seen, (id) => (id === 'loop' ? 'requeue' : 'ack')),
    );
    await sendInOneTurn(node, envelopes);
    await waitFor(async () => (await node.deadLetterCount(kind)) === 1, 'the looping command dead-lettered');
    await sleep(200);
    const counts = (id: string) => seen.filter((s) => s.id === id).map((s) => s.deliveryCount);
    expect(counts('loop')).toEqual([1, 2, 3]);
    expect(counts('ok-1')).toEqual([1]);
    expect(counts('ok-2')).toEqual([1]);
    await node.stop(1000);
    expect(await queueMessageCount(url, node.names.commandQueue(kind))).toBe(0);
    const dead = await drain(url, node.names.deadLetterQueue(kind));
    expect(dead).toHaveLength(1);
    expect(JSON.parse(dead[0].content.toString('utf8'))).toEqual(envelopes[1]);
    // Its last delivery was as a single message (split out of the batch at the first): the consumer
    // nacked it, so the broker dead-lettered it, with its own x-death and no reason of ours.
    const headers = dead[0].properties.headers ?? {};
    expect(headers['x-ars-dead-letter-reason']).toBeUndefined();
    expect(headers['x-first-death-reason']).toBe('rejected');
    expect(headers['x-first-death-queue']).toBe(node.names.commandQueue(kind));
  });

  // A command split out of a batch and requeued comes back as a new message (the broker's
  // `redelivered` is false) with deliveryCount 2: it must still read as redelivered, as in the
  // batch path and the in-process transport.
  it('reports a command requeued out of a batch as redelivered', async () => {
    const node = cluster.node('redelivered');
    await node.start();
    const kind = uniqueKind('redelivered');
    const seen: Seen[] = [];
    await node.consume(
      kind,
      recordingHandler(seen, (id, deliveryCount) =>
        id === 'again' && deliveryCount === 1 ? 'requeue' : 'ack',
      ),
    );
    await sendInOneTurn(node, envelopesTo(kind, ['again', 'other']));
    await waitFor(() => seen.length === 3, 'three deliveries');
    expect(seen[2]).toEqual({ id: 'again', deliveryCount: 2, redelivered: true });
  });

  it('dead-letters every command of a batch requeued whole up to the limit, each alone, reason delivery-limit', async () => {
    const node = cluster.node('requeue-all', { deliveryLimit: 3 });
    await node.start();
    const kind = uniqueKind('all-loop');
    const envelopes = envelopesTo(kind, ['loop-1', 'loop-2']);
    const seen: Seen[] = [];
    await node.consume(
      kind,
      recordingHandler(seen, () => 'requeue'),
    );
    await sendInOneTurn(node, envelopes);
    await waitFor(async () => (await node.deadLetterCount(kind)) === 2, 'both commands dead-lettered');
    await sleep(200);
    expect(seen).toEqual(
      [1, 2, 3].flatMap((deliveryCount) =>
        ['loop-1', 'loop-2'].map((id) => ({ id, deliveryCount, redelivered: deliveryCount > 1 })),
      ),
    );
    await node.stop(1000);
    expect(await queueMessageCount(url, node.names.commandQueue(kind))).toBe(0);
    const dead = await drain(url, node.names.deadLetterQueue(kind));
    expect(dead.map((m) => JSON.parse(m.content.toString('utf8')) as unknown)).toEqual(envelopes);
    for (const m of dead) {
      expect(m.properties.headers).toMatchObject({
        'x-ars-dead-letter-reason': 'delivery-limit',
        'x-ars-prior-deliveries': 3,
      });
    }
  });

  it('hands the commands of a batch beyond its free turns back to the queue, where any node takes them', async () => {
    const prefetch = 2;
    const first = cluster.node('first', { prefetch });
    const second = cluster.node('second', { prefetch });
    await Promise.all([first.start(), second.start()]);
    const kind = uniqueKind('spread');
    const handledBy = new Map<string, string[]>();
    const maxRunning = new Map<string, number>();
    const seen: Seen[] = [];
    const slowHandler = (node: string): CommandHandler => {
      let running = 0;
      handledBy.set(node, []);
      maxRunning.set(node, 0);
      return async ({ envelope, deliveryCount, redelivered }) => {
        running++;
        maxRunning.set(node, Math.max(maxRunning.get(node)!, running));
        seen.push({ id: envelope.id, deliveryCount, redelivered });
        handledBy.get(node)!.push(envelope.id);
        await sleep(100);
        running--;
        return 'ack';
      };
    };
    await first.consume(kind, slowHandler('first'));
    const envelopes = envelopesTo(
      kind,
      Array.from({ length: 8 }, (_, i) => `cmd-${i}`),
    );
    await sendInOneTurn(first, envelopes);
    await second.consume(kind, slowHandler('second'));
    await waitFor(() => seen.length === 8, 'eight commands handled');
    await sleep(300); // nothing more comes
    // Each exactly once, whichever node ran it.
    expect(seen.map((s) => s.id).sort()).toEqual(envelopes.map((e) => e.id).sort());
    expect(seen.every((s) => s.deliveryCount === 1)).toBe(true); // a hand-back is not a delivery
    // ...but it reads as redelivered (its batch, still held, could come back with it), so the
    // kernel claims it in the shared dedupe store; the commands run from the batch itself do not.
    const handedBack = seen.filter((s) => s.redelivered);
    expect(handedBack.length).toBeGreaterThan(0);
    expect(handedBack.length).toBeLessThan(8);
    for (const [, max] of maxRunning) expect(max).toBeLessThanOrEqual(2 * prefetch);
    expect(handledBy.get('second')!.length).toBeGreaterThan(0);
    await Promise.all([first.stop(1000), second.stop(1000)]);
    expect(await queueMessageCount(url, first.names.commandQueue(kind))).toBe(0);
  });

  it('dead-letters a malformed element of a batch, reason malformed, and runs the valid one', async () => {
    const node = cluster.node('strict');
    await node.start();
    const kind = uniqueKind('malformed');
    const handled: string[] = [];
    await node.consume(kind, async ({ envelope }) => {
      handled.push(envelope.id);
      return 'ack';
    });
    const valid = commandEnvelope(`${kind}:a`, { id: 'valid' });
    await withAmqpChannel(url, async (channel) => {
      channel.sendToQueue(node.names.commandQueue(kind), Buffer.from(JSON.stringify([valid, { v: 2 }])));
      await channel.checkQueue(node.names.commandQueue(kind)); // a round trip: the publish went out
    });
    await waitFor(async () => (await node.deadLetterCount(kind)) === 1, 'one dead letter');
    await waitFor(() => handled.length === 1, 'the valid command handled');
    await sleep(200);
    expect(handled).toEqual(['valid']);
    await node.stop(1000);
    expect(await queueMessageCount(url, node.names.commandQueue(kind))).toBe(0);
    const dead = await drain(url, node.names.deadLetterQueue(kind));
    expect(dead.map((m) => m.content.toString('utf8'))).toEqual(['{"v":2}']);
    expect(dead[0].properties.headers).toMatchObject({
      'x-ars-dead-letter-reason': 'malformed',
      'x-ars-prior-deliveries': 1,
    });
  });

  it('peekDeadLetters reads a dead-lettered batch as one dead letter per command', async () => {
    const node = cluster.node('peeker');
    await node.start();
    const kind = uniqueKind('dead-batch');
    await node.consume(kind, async () => 'ack'); // declares the kind's queues
    const [e1, e2] = [
      commandEnvelope(`${kind}:a`, { id: 'one' }),
      commandEnvelope(`${kind}:b`, { id: 'two' }),
    ];
    const dlq = node.names.deadLetterQueue(kind);
    await withAmqpChannel(url, async (channel) => {
      channel.sendToQueue(dlq, Buffer.from(JSON.stringify([e1, e2, { bad: true }])));
      channel.sendToQueue(dlq, Buffer.from(JSON.stringify(e2)));
      await channel.checkQueue(dlq);
    });
    await waitFor(async () => (await node.deadLetterCount(kind)) === 2, 'two messages in the DLQ');
    expect(await node.peekDeadLetters(kind)).toEqual([
      { envelope: e1, raw: JSON.stringify(e1) },
      { envelope: e2, raw: JSON.stringify(e2) },
      { raw: '{"bad":true}' },
      { envelope: e2, raw: JSON.stringify(e2) },
    ]);
    // Peeking leaves them in place.
    await waitFor(async () => (await node.deadLetterCount(kind)) === 2, 'the messages back after the peek');
  });

  it('rejects the sends of a batch UNAVAILABLE when the connection drops before its confirm', async () => {
    const proxy = await startTcpProxyTo(url, 5672);
    try {
      const node = cluster.node('dropped', {
        url: proxy.url(url),
        reconnect: { initialDelayMs: 50, maxDelayMs: 300 },
      });
      await node.start();
      const kind = uniqueKind('drop');
      await node.send(commandEnvelope(`${kind}:a`, { id: 'declares-the-kind' }));
      const sends = envelopesTo(kind, ['a', 'b', 'c']).map((e) => node.send(e));
      void proxy.cut(); // in the same turn: the batch is published on a connection already reset
      const t0 = Date.now();
      const results = await within(Promise.allSettled(sends), 3000);
      expect(Date.now() - t0).toBeLessThan(2000); // not the confirm timeout (10 s)
      if (results === 'still waiting') throw new Error('the sends of the batch never settled');
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
      const reasons = (results as PromiseRejectedResult[]).map((r) => r.reason as unknown);
      expect(isAppError(reasons[0]) && reasons[0].code).toBe('UNAVAILABLE');
      expect(reasons[1]).toBe(reasons[0]); // one confirm per batch: one error for all its sends
      expect(reasons[2]).toBe(reasons[0]);
    } finally {
      await proxy.close();
    }
  });

  it('settles the sends of a batch, never hangs, when the node stops right after them', async () => {
    const node = cluster.node('stopping');
    await node.start();
    const kind = uniqueKind('stop');
    const declaring = commandEnvelope(`${kind}:a`, { id: 'declares-the-kind' });
    await node.send(declaring);
    const batch = envelopesTo(kind, ['a', 'b', 'c']);
    const sends = batch.map((e) => node.send(e));
    const stopped = node.stop(0);
    const results = await within(Promise.allSettled(sends), 3000);
    await stopped;
    if (results === 'still waiting') throw new Error('the sends of the batch never settled');
    // stop() flushes the waiting batch before closing: it reaches the queue, as one message. Its
    // senders learn it (or UNAVAILABLE, if the confirm loses the race with the close).
    const statuses = new Set(results.map((r) => r.status));
    expect(statuses.size).toBe(1);
    if (statuses.has('rejected')) {
      const reason = (results[0] as PromiseRejectedResult).reason as unknown;
      expect(isAppError(reason) && reason.code).toBe('UNAVAILABLE');
    }
    const queue = node.names.commandQueue(kind);
    await waitFor(async () => (await queueMessageCount(url, queue)) === 2, 'two messages in the queue');
    expect(await peekBodies(url, queue, 3)).toEqual([declaring, batch]);
  });

  // RequestOptions.alone (heavy tools such as proc_execute): a message of its own.
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

    const ids = (await drain(url, queue)).map((m) => {
      const body = JSON.parse(m.content.toString('utf8')) as { id: string } | Array<{ id: string }>;
      return Array.isArray(body) ? body.map((e) => e.id) : body.id;
    });
    // The batch waiting when the heavy command came left first: one node's order to a kind holds.
    expect(ids).toEqual(['warm', ['first-1', 'first-2'], 'heavy', ['after-1', 'after-2']]);
  });
});
