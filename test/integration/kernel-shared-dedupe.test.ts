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
import type { AmqpTransport } from '../../src/transport/amqp.transport';
import { createAmqpTestCluster, type AmqpTestCluster } from '../support/amqp-cluster';
import { deferred, waitFor } from '../support/async';
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
      async function worker(name: string, kind: string, runs: string[], gate?: Promise<void>) {
        const sharedStore = new CacheDedupeStore(await cacheSet.forNode());
        closers.push(() => sharedStore.close());
        const dedupe = counting(new LayeredDedupeStore({ shared: sharedStore }));
        const transport = cluster.node(name, { prefetch: 1 });
        const system = createActorSystem({ transport, logger: silentLogger, dedupe });
        await system.register(
          defineActor({
            kind,
            dedupe: 'shared',
            messages: { 'payment.charge': z.object({ amount: z.number() }) },
            handlers: {
              'payment.charge': async (ctx, { amount }) => {
                runs.push(ctx.system.nodeId);
                await gate;
                return { charged: amount, by: ctx.system.nodeId };
              },
            },
          }),
        );
        await system.start();
        systems.push(system);
        return { system, dedupe };
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
        const a = await worker('a', kind, runs, gate.promise);
        const b = await worker('b', kind, runs, gate.promise);
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
