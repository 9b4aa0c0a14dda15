import path from 'node:path';
import type { Envelope } from '../../../../schemas/envelope';
import { isAppError } from '../../../../schemas/errors';
import type { AmqpTransport } from '../../../../src/transport/amqp/amqp.transport';
import { closeAmqpConnections } from '../../../support/amqp-connections';
import { createAmqpTestCluster, type AmqpTestCluster } from '../../../support/amqp-cluster';
import { sleep, waitFor } from '../../../support/async';
import { killAllChildren, startChild } from '../../../support/child-process';
import { commandEnvelope, uniqueKind } from '../../../support/envelopes';
import { describeWithService } from '../../../support/services';
import { startTcpProxyTo } from '../../../support/tcp-proxy';

const WORKER = path.join(__dirname, '../../../support/children/amqp-worker.child.ts');

interface ChildEvent {
  event: 'ready' | 'started' | 'completed';
  id?: string;
  deliveryCount?: number;
}

/** A worker that replies to every command and acknowledges it. */
async function echoWorker(worker: AmqpTransport, kind: string): Promise<void> {
  await worker.consume(kind, async ({ envelope }) => {
    await worker.reply(envelope.replyTo!, {
      ...envelope,
      id: `${envelope.id}.r`,
      correlationId: envelope.id,
    });
    return 'ack';
  });
}

/** Sends a command to `kind` and waits for its reply on `requester`. */
function roundTrip(requester: AmqpTransport, kind: string, timeoutMs = 5000): Promise<Envelope> {
  const request = commandEnvelope(`${kind}:a`, { replyTo: requester.nodeId });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no reply')), timeoutMs);
    requester.onReply((e) => {
      if (e.correlationId !== request.id) return;
      clearTimeout(timer);
      resolve(e);
    });
    requester.send(request).catch(reject);
  });
}

/** Sends and returns how it failed and how long it took to fail. */
async function timedFailure(send: () => Promise<void>): Promise<{ code?: string; ms: number }> {
  const t0 = Date.now();
  try {
    await send();
    return { ms: Date.now() - t0 };
  } catch (err) {
    return { code: isAppError(err) ? err.code : String(err), ms: Date.now() - t0 };
  }
}

describeWithService('amqp', 'AMQP transport under faults', (url) => {
  let cluster: AmqpTestCluster;

  beforeEach(() => {
    cluster = createAmqpTestCluster(url);
  });

  afterEach(async () => {
    await killAllChildren();
    await cluster.cleanup();
  });

  it('loses no command when a consumer process is killed with -9 in the middle of its turns', async () => {
    const kind = uniqueKind('crash');
    const child = startChild(WORKER, cluster.childEnv('doomed', kind, { PREFETCH: '3', WORK: 'hang' }));
    await child.waitForMessage<ChildEvent>((m) => m.event === 'ready', 'the child consuming');
    const sender = cluster.node('sender');
    await sender.start();
    const ids = Array.from({ length: 6 }, (_, i) => `cmd-${i}`);
    for (const id of ids) await sender.send(commandEnvelope(`${kind}:a`, { id }));
    const startedInChild = () => (child.messages as ChildEvent[]).filter((m) => m.event === 'started');
    await waitFor(() => startedInChild().length === 3, 'three turns started in the child (its prefetch)');

    const survivor = cluster.node('survivor');
    await survivor.start();
    const completed: Array<{ id: string; redelivered: boolean; deliveryCount: number }> = [];
    await survivor.consume(kind, async ({ envelope, redelivered, deliveryCount }) => {
      completed.push({ id: envelope.id, redelivered, deliveryCount });
      return 'ack';
    });
    await waitFor(() => completed.length === 3, 'the three commands the child never took');
    await child.kill('SIGKILL');
    await waitFor(() => completed.length === 6, 'the child’s three commands, redelivered');
    await sleep(200);

    expect(completed.map((c) => c.id).sort()).toEqual(ids);
    const takenByChild = new Set(startedInChild().map((m) => m.id));
    for (const c of completed) {
      expect(c.redelivered).toBe(takenByChild.has(c.id));
      expect(c.deliveryCount).toBe(takenByChild.has(c.id) ? 2 : 1);
    }
    expect((child.messages as ChildEvent[]).some((m) => m.event === 'completed')).toBe(false);
  });

  it('dead-letters a command whose consumer crashes at every delivery, once the limit is reached', async () => {
    const kind = uniqueKind('poison');
    const env = cluster.childEnv('crasher', kind, { WORK: 'hang', DELIVERY_LIMIT: '2' });
    const sender = cluster.node('sender', { deliveryLimit: 2 });
    await sender.start();
    await sender.send(commandEnvelope(`${kind}:a`, { id: 'poison-1' }));
    for (const expectedCount of [1, 2]) {
      const child = startChild(WORKER, env);
      const started = await child.waitForMessage<ChildEvent>((m) => m.event === 'started', 'the turn');
      expect(started.deliveryCount).toBe(expectedCount);
      await child.kill('SIGKILL');
    }
    await waitFor(async () => (await cluster.deadLetterCount(kind)) === 1, 'the dead letter');
    const dead = await sender.peekDeadLetters(kind);
    expect(dead.map((d) => d.envelope?.id)).toEqual(['poison-1']);
  });

  it('survives the broker closing its connections: fails fast meanwhile, then resumes by itself', async () => {
    const kind = uniqueKind('forced');
    // A slower first retry keeps the outage visible long enough to observe it.
    const reconnect = { initialDelayMs: 600, maxDelayMs: 1000 };
    const worker = cluster.node('worker', { reconnect });
    const requester = cluster.node('requester', { reconnect });
    await worker.start();
    await requester.start();
    await echoWorker(worker, kind);
    await roundTrip(requester, kind);

    // Watch for the outage and send the moment it is seen, whenever rabbitmqctl returns.
    const duringOutage = new Promise<{ code?: string; ms: number; state: string }>((resolve) => {
      const poll = setInterval(() => {
        const state = requester.status().state;
        if (state === 'up') return;
        clearInterval(poll);
        void timedFailure(() => requester.send(commandEnvelope(`${kind}:b`))).then((r) =>
          resolve({ ...r, state }),
        );
      }, 2);
    });
    expect(await closeAmqpConnections(`${cluster.prefix}:`)).toBe(2);
    const failure = await duringOutage;
    expect(failure.code).toBe('UNAVAILABLE');
    expect(failure.ms).toBeLessThan(1000);
    expect(['connecting', 'down']).toContain(failure.state);

    await waitFor(
      () => worker.status().state === 'up' && requester.status().state === 'up',
      'reconnection',
      10000,
    );
    // The consumer and the reply queue are back: a full round trip works again.
    const reply = await roundTrip(requester, kind);
    expect(reply.to).toBe(`${kind}:a`);
  });

  it('fails fast while the broker is unreachable and resumes when it is back', async () => {
    const proxy = await startTcpProxyTo(url, 5672);
    try {
      const kind = uniqueKind('outage');
      const node = cluster.node('behind-proxy', {
        url: proxy.url(url),
        reconnect: { initialDelayMs: 50, maxDelayMs: 300 },
      });
      await node.start();
      await echoWorker(node, kind);
      await roundTrip(node, kind);

      await proxy.cut();
      await waitFor(() => node.status().state !== 'up', 'the loss being noticed');
      await sleep(500); // several reconnection attempts fail meanwhile
      for (let i = 0; i < 5; i++) {
        const failure = await timedFailure(() => node.send(commandEnvelope(`${kind}:a`)));
        expect(failure).toEqual({ code: 'UNAVAILABLE', ms: expect.any(Number) });
        expect(failure.ms).toBeLessThan(1000);
      }
      expect((await timedFailure(() => node.broadcast(commandEnvelope('all:x')))).code).toBe('UNAVAILABLE');
      const status = node.status();
      expect(['connecting', 'down']).toContain(status.state);
      expect(status.detail).not.toMatch(/guest:guest|:guest@/);

      await proxy.restore();
      await waitFor(() => node.status().state === 'up', 'reconnection', 10000);
      await roundTrip(node, kind);
    } finally {
      await proxy.close();
    }
  });

  it('dead-letters a command that is requeued at every delivery instead of looping', async () => {
    const kind = uniqueKind('loop');
    const node = cluster.node('looper', { deliveryLimit: 3 });
    await node.start();
    const counts: number[] = [];
    await node.consume(kind, async ({ deliveryCount }) => {
      counts.push(deliveryCount);
      return 'requeue';
    });
    await node.send(commandEnvelope(`${kind}:a`, { id: 'always-fails' }));
    await waitFor(async () => (await node.deadLetterCount(kind)) === 1, 'the dead letter');
    await sleep(300);
    expect(counts).toEqual([1, 2, 3]);
    expect((await node.peekDeadLetters(kind)).map((d) => d.envelope?.id)).toEqual(['always-fails']);
  });
});
