import { z } from 'zod';
import type { Envelope } from '../../../../schemas/envelope';
import { createActorSystem, defineActor, type ActorSystem } from '../../../../src/kernel';
import { silentLogger } from '../../../../src/logging/logger';
import { createAmqpTestCluster, type AmqpTestCluster } from '../../../support/amqp-cluster';
import { waitFor } from '../../../support/async';
import { commandEnvelope, uniqueKind } from '../../../support/envelopes';
import { describeWithService } from '../../../support/services';
import { startTcpProxyTo, type TcpProxy } from '../../../support/tcp-proxy';

/**
 * Replies across a reconnection. A worker that comes back from a cut consumes the commands that
 * waited for it; its replies must reach their requesters from the very first delivery, and a
 * reply made while the link is down must go out once it is back, never be dropped after the
 * command was acknowledged (the caller would wait for its deadline although the work was done).
 */
describeWithService('amqp', 'replies across a reconnection', (url) => {
  let cluster: AmqpTestCluster;
  let proxy: TcpProxy;
  const systems: ActorSystem[] = [];

  beforeEach(async () => {
    cluster = createAmqpTestCluster(url);
    proxy = await startTcpProxyTo(url, 5672);
  });

  afterEach(async () => {
    await Promise.all(systems.splice(0).map((s) => s.stop(2000)));
    await proxy.close();
    await cluster.cleanup();
  });

  /** A node behind the proxy (its link is the one cut), reconnecting quickly. */
  const behindProxy = (nodeId: string) =>
    cluster.node(nodeId, { url: proxy.url(url), reconnect: { initialDelayMs: 50, maxDelayMs: 200 } });

  it('answers every command that waited for a worker during a cut, each run once (the kernel acknowledges after its reply)', async () => {
    const kind = uniqueKind('work');
    const runs: string[] = [];
    const worker = createActorSystem({ transport: behindProxy('worker'), logger: silentLogger });
    await worker.register(
      defineActor({
        kind,
        messages: { 'work.do': z.object({ n: z.number() }) },
        handlers: {
          'work.do': async (_ctx, { n }) => {
            runs.push(`#${n}`);
            return { done: n };
          },
        },
      }),
    );
    // More kinds after the first: the setup of a new connection starts their consumers one after
    // the other, each a few round trips to the broker, while the first one's commands already run.
    for (const extra of ['a', 'b', 'c']) {
      await worker.register(defineActor({ kind: uniqueKind(extra), messages: {}, handlers: {} }));
    }
    await worker.start();
    systems.push(worker);
    const api = createActorSystem({ transport: cluster.node('api'), logger: silentLogger });
    await api.start();
    systems.push(api);
    expect(await api.ask(`${kind}:x`, 'work.do', { n: 0 })).toEqual({ done: 0 });

    await proxy.cut();
    await waitFor(() => worker.status().transport.state !== 'up', 'the worker seeing the cut');
    // The api's link is intact: these are published and wait in the queue for the worker.
    const asks = Array.from({ length: 20 }, (_, i) =>
      api.ask(`${kind}:x`, 'work.do', { n: i + 1 }, { timeoutMs: 10_000 }),
    );
    await waitFor(() => api.status().pendingRequests === 20, 'the twenty commands published');
    await proxy.restore();

    const outcomes = await Promise.allSettled(asks);
    const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [String(o.reason)] : []));
    expect(failures).toEqual([]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : undefined))).toEqual(
      Array.from({ length: 20 }, (_, i) => ({ done: i + 1 })),
    );
    expect(runs.slice(1).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `#${i + 1}`).sort());
  }, 30_000);

  it('keeps a reply made while the link is down and sends it once the link is back', async () => {
    const sender = behindProxy('sender');
    const requester = cluster.node('requester');
    await sender.start();
    await requester.start();
    const received: Envelope[] = [];
    requester.onReply((e) => received.push(e));
    const first = commandEnvelope('requester:a', { type: 'kernel.reply', correlationId: 'c-1' });
    await sender.reply('requester', first);
    await waitFor(() => received.length === 1, 'the reply on a live link');

    await proxy.cut();
    await waitFor(() => sender.status().state !== 'up', 'the sender seeing the cut');
    const held = commandEnvelope('requester:a', { type: 'kernel.reply', correlationId: 'c-2' });
    // The turn that made it is over (its command acknowledged, or about to be): the reply is kept.
    await expect(sender.reply('requester', held)).resolves.toBeUndefined();
    await proxy.restore();

    await waitFor(() => received.length === 2, 'the kept reply, after the reconnection', 10_000);
    expect(received.map((e) => e.correlationId)).toEqual(['c-1', 'c-2']);
    expect(received[1]).toEqual(held);
  }, 30_000);

  it('drops a kept reply whose deadline passed before the link came back', async () => {
    const sender = behindProxy('sender');
    const requester = cluster.node('requester');
    await sender.start();
    await requester.start();
    const received: Envelope[] = [];
    requester.onReply((e) => received.push(e));

    await proxy.cut();
    await waitFor(() => sender.status().state !== 'up', 'the sender seeing the cut');
    const late = commandEnvelope('requester:a', { correlationId: 'late', deadline: Date.now() + 50 });
    const wanted = commandEnvelope('requester:a', { correlationId: 'wanted' });
    await sender.reply('requester', late);
    await sender.reply('requester', wanted);
    await new Promise((resolve) => setTimeout(resolve, 100)); // the first one's requester gave up
    await proxy.restore();

    await waitFor(() => received.length >= 1, 'the reply still wanted', 10_000);
    await waitFor(() => sender.status().state === 'up', 'the sender up again');
    // A reply sent now goes after the kept ones: once it is in, nothing else is coming.
    await sender.reply('requester', commandEnvelope('requester:a', { correlationId: 'after' }));
    await waitFor(() => received.some((e) => e.correlationId === 'after'), 'a reply after the reconnection');
    expect(received.map((e) => e.correlationId)).toEqual(['wanted', 'after']);
  }, 30_000);
});
