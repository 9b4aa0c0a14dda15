import type { Envelope } from '../../../schemas/envelope';
import type { Delivery, Disposition } from '../../../src/transport/transport';
import { deferred, sleep, waitFor } from '../../support/async';
import { commandEnvelope, uniqueKind } from '../../support/envelopes';
import { transportFactories, type TransportCluster } from '../../support/transports';

/** Commands: one queue per kind, shared by its consumers, settled only when the turn is over. */
describe.each(transportFactories().map((f) => [f.name, f] as const))(
  'transport %s: commands',
  (_name, factory) => {
    let cluster: TransportCluster;

    beforeEach(() => {
      cluster = factory.createCluster();
    });

    afterEach(async () => {
      await cluster.cleanup();
    });

    it('delivers a sent command to a consumer of its kind, intact, as a first delivery', async () => {
      const node = cluster.node('n1');
      await node.start();
      const kind = uniqueKind();
      const received = deferred<Delivery>();
      await node.consume(kind, async (d) => {
        received.resolve(d);
        return 'ack';
      });
      const sent = commandEnvelope(`${kind}:a1`, {
        body: { text: 'héllo', n: [1, 2] },
        replyTo: 'n1',
        from: 'test:x',
      });
      await node.send(sent);
      const delivery = await received.promise;
      expect(delivery.envelope).toEqual(sent);
      expect(delivery.redelivered).toBe(false);
      expect(delivery.deliveryCount).toBe(1);
    });

    it('keeps commands sent before any consumer and delivers them when one arrives', async () => {
      const sender = cluster.node('sender');
      const worker = cluster.node('worker');
      await sender.start();
      await worker.start();
      const kind = uniqueKind();
      await sender.send(commandEnvelope(`${kind}:a`, { id: 'early-1' }));
      await sender.send(commandEnvelope(`${kind}:a`, { id: 'early-2' }));
      const ids: string[] = [];
      await worker.consume(kind, async (d) => {
        ids.push(d.envelope.id);
        return 'ack';
      });
      await waitFor(() => ids.length === 2, 'both early commands');
      expect(ids.sort()).toEqual(['early-1', 'early-2']);
    });

    it('shares the commands of one kind between two consumers, each handled once', async () => {
      // 20 commands sent in one turn of the loop leave the AMQP sender as one batch message; the
      // consumer that receives it takes on `prefetch` of them and hands the rest back (see
      // amqp-consumer-batch.ts), so a burst spreads like single messages do.
      const a = cluster.node('a', { prefetch: 4 });
      const b = cluster.node('b', { prefetch: 4 });
      await a.start();
      await b.start();
      const kind = uniqueKind();
      const seen: Record<string, string[]> = { a: [], b: [] };
      const handler = (who: 'a' | 'b') => async (d: Delivery) => {
        seen[who].push(d.envelope.id);
        await sleep(5);
        return 'ack' as const;
      };
      await a.consume(kind, handler('a'));
      await b.consume(kind, handler('b'));
      const ids = Array.from({ length: 20 }, (_, i) => `m${i}`);
      await Promise.all(ids.map((id) => a.send(commandEnvelope(`${kind}:x${id}`, { id }))));
      await waitFor(() => seen.a.length + seen.b.length === 20, 'all 20 handled');
      await sleep(50); // nothing more arrives: each command was handled exactly once
      expect([...seen.a, ...seen.b].sort()).toEqual([...ids].sort());
      expect(seen.a.length).toBeGreaterThan(0);
      expect(seen.b.length).toBeGreaterThan(0);
    });

    it('acknowledges only after the handler: a slow consumer holds at most `prefetch` commands', async () => {
      const node = cluster.node('slow', { prefetch: 2 });
      await node.start();
      const kind = uniqueKind();
      const release = deferred();
      let running = 0;
      let maxRunning = 0;
      const done: string[] = [];
      await node.consume(kind, async (d) => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        await release.promise;
        running--;
        done.push(d.envelope.id);
        return 'ack';
      });
      for (let i = 0; i < 6; i++) await node.send(commandEnvelope(`${kind}:a`, { id: `p${i}` }));
      await waitFor(() => running === 2, 'two turns running');
      await sleep(100); // had the first two been acknowledged on receipt, more would arrive now
      expect(running).toBe(2);
      expect(done).toHaveLength(0);
      release.resolve();
      await waitFor(() => done.length === 6, 'all six handled');
      expect(maxRunning).toBe(2);
    });

    it('redelivers a requeued command with a growing delivery count, then dead-letters it at the limit', async () => {
      const node = cluster.node('rq', { deliveryLimit: 3 });
      await node.start();
      const kind = uniqueKind();
      const deliveries: Array<{ count: number; redelivered: boolean }> = [];
      await node.consume(kind, async (d) => {
        deliveries.push({ count: d.deliveryCount, redelivered: d.redelivered });
        return 'requeue';
      });
      await node.send(commandEnvelope(`${kind}:a`));
      await waitFor(async () => (await cluster.deadLetterCount(kind)) === 1, 'the dead letter');
      await sleep(100); // and it does not come back
      expect(deliveries).toEqual([
        { count: 1, redelivered: false },
        { count: 2, redelivered: true },
        { count: 3, redelivered: true },
      ]);
    });

    it('treats a handler that throws as a requeue', async () => {
      const node = cluster.node('thrower', { deliveryLimit: 2 });
      await node.start();
      const kind = uniqueKind();
      const counts: number[] = [];
      await node.consume(kind, async (d) => {
        counts.push(d.deliveryCount);
        throw new Error('boom');
      });
      await node.send(commandEnvelope(`${kind}:a`));
      await waitFor(async () => (await cluster.deadLetterCount(kind)) === 1, 'the dead letter');
      expect(counts).toEqual([1, 2]);
    });

    it('dead-letters at once when the handler says so', async () => {
      const node = cluster.node('dl');
      await node.start();
      const kind = uniqueKind();
      const got: Envelope[] = [];
      await node.consume(kind, async (d) => {
        got.push(d.envelope);
        return 'dead-letter' as Disposition;
      });
      await node.send(commandEnvelope(`${kind}:a`));
      await waitFor(async () => (await cluster.deadLetterCount(kind)) === 1, 'the dead letter');
      await sleep(50);
      expect(got).toHaveLength(1);
    });
  },
);
