import type { Envelope } from '../../../schemas/envelope';
import { isAppError } from '../../../schemas/errors';
import { deferred, sleep, waitFor } from '../../support/async';
import { commandEnvelope, uniqueKind } from '../../support/envelopes';
import { transportFactories, type TransportCluster } from '../../support/transports';

/** Node-addressed traffic (replies, broadcasts) and the node lifecycle (stop). */
describe.each(transportFactories().map((f) => [f.name, f] as const))(
  'transport %s: nodes',
  (_name, factory) => {
    let cluster: TransportCluster;

    beforeEach(() => {
      cluster = factory.createCluster();
    });

    afterEach(async () => {
      await cluster.cleanup();
    });

    it('delivers a reply to the node it is addressed to, and only to it', async () => {
      const [a, b, c] = ['a', 'b', 'c'].map((id) => cluster.node(id));
      for (const n of [a, b, c]) await n.start();
      const got: Record<string, Envelope[]> = { a: [], b: [], c: [] };
      a.onReply((e) => got.a.push(e));
      b.onReply((e) => got.b.push(e));
      c.onReply((e) => got.c.push(e));
      const reply = commandEnvelope('requester:b', {
        type: 'test.replied',
        correlationId: 'req-1',
        body: { kind: 'reply', value: 42 },
      });
      await a.reply('b', reply);
      await waitFor(() => got.b.length === 1, 'the reply at b');
      await sleep(50);
      expect(got.b[0]).toEqual(reply);
      expect(got.a).toHaveLength(0);
      expect(got.c).toHaveLength(0);
    });

    it('drops a reply to a node that does not exist without failing', async () => {
      const a = cluster.node('a');
      await a.start();
      await expect(a.reply('nobody-here', commandEnvelope('x:y'))).resolves.toBeUndefined();
    });

    it('delivers a broadcast to every node, the sender included', async () => {
      const nodes = ['a', 'b', 'c'].map((id) => cluster.node(id));
      for (const n of nodes) await n.start();
      const got = new Map<string, Envelope[]>(nodes.map((n) => [n.nodeId, []]));
      for (const n of nodes) n.onBroadcast((e) => got.get(n.nodeId)!.push(e));
      const event = commandEnvelope('broadcast:all', { type: 'cache.invalidated', body: { key: 'k1' } });
      await nodes[0].broadcast(event);
      await waitFor(
        () => [...got.values()].every((list) => list.length === 1),
        'the broadcast on every node',
      );
      for (const list of got.values()) expect(list[0]).toEqual(event);
    });

    it('stop() lets the turns in flight finish and settle before it resolves', async () => {
      const node = cluster.node('stopper');
      const other = cluster.node('other');
      await node.start();
      await other.start();
      const kind = uniqueKind();
      const started = deferred();
      let finished = false;
      await node.consume(kind, async () => {
        started.resolve();
        await sleep(300);
        finished = true;
        return 'ack';
      });
      await node.send(commandEnvelope(`${kind}:a`));
      await started.promise;
      await node.stop(5000);
      expect(finished).toBe(true);
      // It was acknowledged before the connection closed: nobody gets it again.
      let again = 0;
      await other.consume(kind, async () => {
        again++;
        return 'ack';
      });
      await sleep(200);
      expect(again).toBe(0);
    });

    it('stop() waits no longer than its grace period for a stuck turn', async () => {
      const node = cluster.node('stuck');
      await node.start();
      const kind = uniqueKind();
      const started = deferred();
      await node.consume(kind, async () => {
        started.resolve();
        return new Promise(() => undefined); // never settles
      });
      await node.send(commandEnvelope(`${kind}:a`));
      await started.promise;
      const t0 = Date.now();
      await node.stop(200);
      expect(Date.now() - t0).toBeLessThan(2000);
    });

    it('rejects a send after stop() with UNAVAILABLE', async () => {
      const node = cluster.node('gone');
      await node.start();
      await node.stop(100);
      const err = await node.send(commandEnvelope(`${uniqueKind()}:a`)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isAppError(err) && err.code).toBe('UNAVAILABLE');
      expect(node.status().state).toBe('down');
    });

    it('reports up once started', async () => {
      const node = cluster.node('st');
      expect(node.status().state).toBe('down');
      await node.start();
      expect(node.status().state).toBe('up');
    });
  },
);
