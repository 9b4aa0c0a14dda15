import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Envelope } from '../../schemas/envelope';
import {
  createActorSystem,
  defineActor,
  LayeredDedupeStore,
  type ActorSystem,
  type DedupeStore,
} from '../../src/kernel';
import { silentLogger } from '../../src/logging/logger';
import { CacheDedupeStore, MemoryCache, RedisCache, type CachePort } from '../../src/store/cache';
import type { AmqpTransport } from '../../src/transport/amqp/amqp.transport';
import { createAmqpTestCluster, type AmqpTestCluster } from '../support/amqp-cluster';
import { closeAmqpConnections } from '../support/amqp-connections';
import { deferred, sleep, waitFor } from '../support/async';
import { uniqueKind } from '../support/envelopes';
import { describeWithService, serviceUrl } from '../support/services';

/** The cache two nodes share: one MemoryCache object, or one Redis connection per node. */
interface SharedCache {
  name: string;
  skip?: string;
  open(): Promise<{ forNode(): Promise<CachePort>; close(): Promise<void> }>;
}

const caches: SharedCache[] = [
  {
    name: 'a memory cache shared in process',
    async open() {
      const cache = new MemoryCache();
      return { forNode: async () => cache, close: () => cache.close() };
    },
  },
  {
    name: 'Redis',
    skip: serviceUrl('redis') ? undefined : 'redis not reachable',
    async open() {
      const namespace = `test:kernel-dedupe:${randomUUID()}:`;
      const roots: RedisCache[] = [];
      return {
        async forNode() {
          const root = await RedisCache.connect(serviceUrl('redis')!, { logger: silentLogger });
          roots.push(root);
          return root.namespace(namespace);
        },
        async close() {
          const view = roots[0]?.namespace(namespace);
          for (let keys = (await view?.list('')) ?? []; keys.length > 0; keys = await view!.list('')) {
            await Promise.all(keys.map((k) => view!.delete(k)));
          }
          await Promise.all(roots.map((r) => r.close()));
        },
      };
    },
  },
];

/** Counts the claims a node's store sees: proof that a copy was delivered to that node. */
function counting(store: DedupeStore): DedupeStore & { claims: number } {
  const counted = Object.create(store) as DedupeStore & { claims: number };
  counted.claims = 0;
  counted.claim = (...args) => {
    counted.claims++;
    return store.claim(...args);
  };
  return counted;
}

describeWithService('amqp', 'the shared dedupe store across nodes on RabbitMQ', (amqpUrl) => {
  describe.each(caches)('over $name', (shared) => {
    const block = shared.skip ? describe.skip : describe;
    block('', () => {
      let cluster: AmqpTestCluster;
      let cacheSet: Awaited<ReturnType<SharedCache['open']>>;
      const systems: ActorSystem[] = [];
      const closers: Array<() => void> = [];

      beforeEach(async () => {
        cluster = createAmqpTestCluster(amqpUrl);
        cacheSet = await shared.open();
      });
      afterEach(async () => {
        await Promise.all(systems.splice(0).map((s) => s.stop(2000)));
        for (const close of closers.splice(0)) close();
        await cluster.cleanup();
        await cacheSet.close();
      });

      /** A worker node hosting `kind` (prefetch 1: a node busy with one message takes no other). */
      async function worker(
        name: string,
        kind: string,
        runs: string[],
        {
          gate,
          kindDedupe = 'shared',
          amounts,
        }: { gate?: Promise<void>; kindDedupe?: 'shared' | 'local'; amounts?: number[] } = {},
      ) {
        const sharedStore = new CacheDedupeStore(await cacheSet.forNode());
        closers.push(() => sharedStore.close());
        const dedupe = counting(new LayeredDedupeStore({ shared: sharedStore }));
        const transport = cluster.node(name, { prefetch: 1 });
        const system = createActorSystem({ transport, logger: silentLogger, dedupe });
        await system.register(
          defineActor({
            kind,
            dedupe: kindDedupe,
            messages: { 'payment.charge': z.object({ amount: z.number() }) },
            handlers: {
              'payment.charge': async (ctx, { amount }) => {
                runs.push(ctx.system.nodeId);
                amounts?.push(amount);
                await gate;
                return { charged: amount, by: ctx.system.nodeId };
              },
            },
          }),
        );
        await system.start();
        systems.push(system);
        return { system, dedupe, transport };
      }

      /** A bare requester: publishes envelopes as given and collects the replies. */
      async function client() {
        const transport: AmqpTransport = cluster.node('client');
        await transport.start();
        const replies: Envelope[] = [];
        transport.onReply((e) => replies.push(e));
        return { transport, replies };
      }

      function charge(kind: string, replyTo: string): Envelope {
        return {
          v: 1,
          id: `pay-${randomUUID()}`,
          type: 'payment.charge',
          to: `${kind}:acct-1`,
          replyTo,
          deadline: Date.now() + 15_000,
          attempt: 1,
          body: { amount: 5 },
        };
      }

      it('runs an envelope published twice once, though its copies land on two nodes; both get its reply', async () => {
        const kind = uniqueKind('pay');
        const runs: string[] = [];
        const gate = deferred();
        const a = await worker('a', kind, runs, { gate: gate.promise });
        const b = await worker('b', kind, runs, { gate: gate.promise });
        const { transport, replies } = await client();
        const envelope = charge(kind, transport.nodeId);

        await transport.send(envelope);
        await waitFor(() => runs.length === 1, 'the first copy in its turn');
        // The node running the first copy is full (prefetch 1): the broker hands the copy to the other.
        await transport.send(envelope);
        await waitFor(() => a.dedupe.claims + b.dedupe.claims === 2, 'the second copy delivered');
        expect([a.dedupe.claims, b.dedupe.claims]).toEqual([1, 1]);

        gate.resolve();
        await waitFor(() => replies.length === 2, 'two replies', 10_000);
        expect(runs).toHaveLength(1);
        expect(replies.map((r) => r.correlationId)).toEqual([envelope.id, envelope.id]);
        expect(replies[0].body).toEqual({ kind: 'reply', value: { charged: 5, by: runs[0] } });
        expect(replies[1].body).toEqual(replies[0].body);
      });

      it('runs a command handed back out of a batch once, when the batch comes back after its node lost it', async () => {
        // Kind dedupe 'local' (the default): a first delivery claims in memory only. A node with
        // one turn slot gets a batch of three, runs one (held at the gate) and hands two back; the
        // other node runs those, as redeliveries (shared claims). Then the first node loses its
        // connection, as a crash would: the batch, never acknowledged, comes back with all three.
        const kind = uniqueKind('pay');
        const runs: string[] = [];
        const gate = deferred();
        const amounts: number[] = [];
        const a = await worker('a', kind, runs, { gate: gate.promise, kindDedupe: 'local', amounts });
        const { transport, replies } = await client();
        const envelopes = [1, 2, 3].map((amount) => ({
          ...charge(kind, transport.nodeId),
          body: { amount },
        }));
        await Promise.all(envelopes.map((e) => transport.send(e))); // one turn: one batch
        await waitFor(() => runs.length === 1, 'the first node running one of them');
        const b = await worker('b', kind, runs, { kindDedupe: 'local', amounts });
        await waitFor(() => replies.length === 2, 'the two handed-back commands answered by b', 10_000);
        expect(runs.filter((n) => n === b.system.nodeId)).toHaveLength(2);

        // b leaves (its memory with it), so the batch can only come back to a, which never saw the
        // two commands b ran: only the shared record can tell a they are done.
        await b.system.stop(2000);
        expect(await closeAmqpConnections(`${a.transport.names.prefix}:a`)).toBeGreaterThan(0);
        gate.resolve();
        // Answers: b's two, the held command's (once or twice), and the two b had done, again.
        await waitFor(() => replies.length >= 5, 'the batch redelivered to a and answered', 15_000);
        await sleep(300);
        // The command the lost node held may run again (its turn never finished, as in a crash);
        // each handed-back one ran exactly once.
        const heldByA = amounts[0];
        for (const amount of [1, 2, 3].filter((n) => n !== heldByA)) {
          expect(amounts.filter((n) => n === amount)).toHaveLength(1);
        }
        expect(amounts.filter((n) => n === heldByA).length).toBeLessThanOrEqual(2);
      });

      it('answers a copy arriving after the first node finished and left, from the shared record', async () => {
        const kind = uniqueKind('pay');
        const runs: string[] = [];
        const a = await worker('a', kind, runs);
        const { transport, replies } = await client();
        const envelope = charge(kind, transport.nodeId);

        await transport.send(envelope);
        await waitFor(() => replies.length === 1, 'the first reply');
        await a.system.stop(2000);
        const b = await worker('b', kind, runs);
        await transport.send(envelope);
        await waitFor(() => replies.length === 2, 'the second reply', 10_000);

        expect(b.dedupe.claims).toBe(1);
        expect(runs).toEqual([a.system.nodeId]);
        expect(replies[1].body).toEqual(replies[0].body);
      });
    });
  });
});
