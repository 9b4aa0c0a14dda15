import { z } from 'zod';
import { errors } from '../../../schemas/errors';
import { defineActor } from '../../../src/kernel';
import { InProcessTransport } from '../../../src/transport/in-process.transport';
import { capturingLogger, eventually, inProcessNodes, sleep } from './kernel-test-kit';

describe('kernel supervision on the in-process bus', () => {
  let nodes: ReturnType<typeof inProcessNodes>;
  beforeEach(() => {
    nodes = inProcessNodes();
  });
  afterEach(() => nodes.stopAll());

  it('restarts on defects, then dead-letters the message in bus.deadLetters(kind), logging each defect', async () => {
    let activations = 0;
    const actor = defineActor({
      kind: 'crashy',
      messages: { 'crashy.crash': z.object({ i: z.number() }), 'crashy.ping': z.object({}) },
      activate: () => ++activations,
      handlers: {
        'crashy.crash': () => {
          throw new RangeError('index out of range');
        },
        'crashy.ping': (ctx) => ctx.state,
      },
    });
    const { logger, lines } = capturingLogger();
    const { system } = await nodes.node('n1', [actor], { logger });
    for (let i = 0; i < 5; i++) {
      await expect(system.ask('crashy:1', 'crashy.crash', { i })).rejects.toMatchObject({
        code: 'INTERNAL_ERROR',
      });
    }
    expect(activations).toBe(5); // a restart re-activates
    await eventually(() => nodes.bus.deadLetters('crashy').length === 2);
    expect(nodes.bus.deadLetters('crashy').map((e) => (e.body as { i: number }).i)).toEqual([3, 4]);
    const defects = lines.filter((l) => l.level === 50 && String(l.msg).includes('defect'));
    expect(defects).toHaveLength(5);
    expect(defects[0]).toMatchObject({
      address: 'crashy:1',
      type: 'crashy.crash',
      err: { type: 'RangeError' },
    });
    expect(String(defects[4].msg)).toContain('dead-lettered');
    await expect(system.ask('crashy:1', 'crashy.ping', {})).resolves.toBe(6);
  });

  it('requeues a transient failure when stopping, so another node handles it (nothing dead-lettered)', async () => {
    const handledBy: string[] = [];
    const actor = defineActor({
      kind: 'store-bound',
      messages: { 'store.write': z.object({}) },
      supervision: { backoffBaseMs: 1000, backoffMaxMs: 1000 },
      handlers: {
        'store.write': (ctx) => {
          if (ctx.system.nodeId === 'a') throw errors.unavailable('store down on a');
          handledBy.push(ctx.system.nodeId);
          return 'written';
        },
      },
    });
    const { system: a } = await nodes.node('a', [actor]);
    const { system: client } = await nodes.node('client');
    const reply = client.ask('store-bound:1', 'store.write', {}, { timeoutMs: 5000 });
    await eventually(() => a.status().inFlight === 1);
    await sleep(20); // in its backoff now
    const stopping = a.stop(2000);
    await nodes.node('b', [actor]);
    await stopping;
    await expect(reply).resolves.toBe('written');
    expect(handledBy).toEqual(['b']);
    expect(nodes.bus.deadLetters('store-bound')).toHaveLength(0);
  });

  it('does not restart an actor whose handler throws because its caller cancelled', async () => {
    let activations = 0;
    const actor = defineActor({
      kind: 'watcher',
      messages: { 'watch.start': z.object({}) },
      activate: () => ++activations,
      handlers: {
        'watch.start': async (ctx) => {
          ctx.next('started');
          await new Promise((_, reject) =>
            ctx.signal.addEventListener('abort', () => reject(new Error('aborted'))),
          );
        },
      },
    });
    const { logger, lines } = capturingLogger();
    const { system } = await nodes.node('n1', [actor], { logger });
    await new Promise<void>((resolve) => {
      const sub = system.stream('watcher:1', 'watch.start', {}).subscribe(() => {
        sub.unsubscribe();
        resolve();
      });
    });
    await eventually(() => system.status().inFlight === 0);
    expect(lines.filter((l) => l.level === 50)).toEqual([]);
    expect(activations).toBe(1);
  });

  it('treats ctx.defer called twice as a defect', async () => {
    const actor = defineActor({
      kind: 'twice',
      messages: { 'twice.do': z.object({}) },
      handlers: {
        'twice.do': (ctx) => {
          ctx.defer(Promise.resolve(1));
          return ctx.defer(Promise.resolve(2));
        },
      },
    });
    const { system } = await nodes.node('n1', [actor]);
    await expect(system.ask('twice:1', 'twice.do', {})).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
  });

  it('dead-letters a malformed envelope and tells its sender why', async () => {
    const actor = defineActor({
      kind: 'strict',
      messages: { 'strict.do': z.object({}) },
      handlers: { 'strict.do': () => 1 },
    });
    await nodes.node('n1', [actor]);
    const probe = new InProcessTransport('probe', nodes.bus);
    await probe.start();
    const replies: unknown[] = [];
    probe.onReply((e) => replies.push(e.body));
    const malformed = {
      v: 2,
      id: 'm1',
      type: 'strict.do',
      to: 'strict:1',
      replyTo: 'probe',
      deadline: Date.now() + 1000,
      attempt: 1,
      body: {},
    };
    await probe.send(malformed as never);
    await eventually(() => nodes.bus.deadLetters('strict').length === 1);
    await eventually(() => replies.length === 1);
    expect(replies[0]).toMatchObject({ kind: 'error', error: { code: 'VALIDATION_ERROR' } });
    await probe.stop(0);
  });
});
