import { z } from 'zod';
import { defineActor } from '../../../src/kernel';
import { transportFactories } from '../../support/transports';
import { eventually, kernelCluster, sleep, unique, type KernelCluster } from './kernel-harness';

describe.each(transportFactories())('kernel mailbox and activation over $name', (factory) => {
  let cluster: KernelCluster;
  beforeEach(() => {
    cluster = kernelCluster(factory);
  });
  afterEach(() => cluster.close());

  it('handles the messages of one actor one at a time, in arrival order', async () => {
    const kind = unique('log');
    let running = 0;
    let maxRunning = 0;
    const actor = defineActor({
      kind,
      messages: { 'log.append': z.object({ i: z.number() }), 'log.read': z.object({}) },
      activate: () => ({ items: [] as number[] }),
      handlers: {
        'log.append': async (ctx, { i }) => {
          running++;
          maxRunning = Math.max(maxRunning, running);
          // Later messages finish faster: any overlap would reorder the log.
          await sleep(i % 3 === 0 ? 4 : 0);
          ctx.state.items.push(i);
          running--;
        },
        'log.read': (ctx) => ctx.state.items,
      },
    });
    const { system } = await cluster.node('a', [actor]);
    for (let i = 0; i < 30; i++) await system.tell(`${kind}:1`, 'log.append', { i });
    const items = await system.ask<number[]>(`${kind}:1`, 'log.read', {});
    expect(items).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(maxRunning).toBe(1);
  });

  it('runs different actors concurrently', async () => {
    const kind = unique('slow');
    const actor = defineActor({
      kind,
      messages: { 'slow.work': z.object({}) },
      handlers: { 'slow.work': () => sleep(200).then(() => 'done') },
    });
    const { system } = await cluster.node('a', [actor]);
    const started = Date.now();
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) => system.ask(`${kind}:${i}`, 'slow.work', {})),
    );
    expect(replies).toEqual(Array(10).fill('done'));
    expect(Date.now() - started).toBeLessThan(1500); // 10 x 200 ms if they were serialised
  });

  it('activates on the first message and passivates after idleMs, then re-activates on demand', async () => {
    const kind = unique('doc');
    const events: string[] = [];
    const actor = defineActor({
      kind,
      messages: { 'doc.touch': z.object({}) },
      activate: (ctx) => {
        events.push(`activate:${ctx.id}`);
        return { loads: events.filter((e) => e.startsWith('activate')).length };
      },
      passivate: (ctx, state) => {
        events.push(`passivate:${ctx.id}:${state.loads}`);
      },
      handlers: { 'doc.touch': (ctx) => ctx.state.loads },
    });
    const { system } = await cluster.node('a', [actor], { idleMs: 80 });
    expect(events).toEqual([]);
    await expect(system.ask(`${kind}:x`, 'doc.touch', {})).resolves.toBe(1);
    await expect(system.ask(`${kind}:x`, 'doc.touch', {})).resolves.toBe(1);
    expect(events).toEqual(['activate:x']);
    expect(system.status().actors).toBe(1);
    await eventually(() => events.length === 2);
    expect(events).toEqual(['activate:x', 'passivate:x:1']);
    expect(system.status().actors).toBe(0);
    await expect(system.ask(`${kind}:x`, 'doc.touch', {})).resolves.toBe(2);
    expect(events[2]).toBe('activate:x');
  });

  it('keeps a busy actor active', async () => {
    const kind = unique('busy');
    const passivated: string[] = [];
    const actor = defineActor({
      kind,
      messages: { 'busy.ping': z.object({}) },
      passivate: (ctx) => {
        passivated.push(ctx.id);
      },
      handlers: { 'busy.ping': () => 'pong' },
    });
    // Asked every 40 ms for longer than its idle time: it must never be passivated. The idle time
    // leaves room for a loaded machine (a 40 ms sleep there can take several hundred).
    const idleMs = 1500;
    const { system } = await cluster.node('a', [actor], { idleMs });
    const started = Date.now();
    while (Date.now() - started < idleMs * 2) {
      await system.ask(`${kind}:1`, 'busy.ping', {});
      await sleep(40);
    }
    expect(passivated).toEqual([]);
  });

  it('passivates every actor on stop', async () => {
    const kind = unique('doc');
    const passivated: string[] = [];
    const actor = defineActor({
      kind,
      messages: { 'doc.touch': z.object({}) },
      activate: () => ({}),
      passivate: (ctx) => {
        passivated.push(ctx.id);
      },
      handlers: { 'doc.touch': () => null },
    });
    const { system } = await cluster.node('a', [actor]);
    await Promise.all(['a', 'b', 'c'].map((id) => system.ask(`${kind}:${id}`, 'doc.touch', {})));
    await system.stop(2000);
    expect(passivated.sort()).toEqual(['a', 'b', 'c']);
    expect(system.status().state).toBe('stopped');
  });

  it('lets a handler message itself and other actors', async () => {
    const kind = unique('relay');
    const actor = defineActor({
      kind,
      messages: {
        'relay.start': z.object({ to: z.string() }),
        'relay.receive': z.object({ from: z.string() }),
        'relay.inbox': z.object({}),
      },
      activate: () => ({ inbox: [] as string[] }),
      handlers: {
        'relay.start': async (ctx, { to }) => {
          await ctx.self.tell('relay.receive', { from: 'self' });
          return ctx.system.ask(`${kind}:${to}`, 'relay.receive', { from: ctx.id });
        },
        'relay.receive': (ctx, { from }) => {
          ctx.state.inbox.push(from);
          return ctx.state.inbox.length;
        },
        'relay.inbox': (ctx) => ctx.state.inbox,
      },
    });
    const { system } = await cluster.node('a', [actor]);
    await expect(system.ask(`${kind}:a`, 'relay.start', { to: 'b' })).resolves.toBe(1);
    await expect(system.ask(`${kind}:b`, 'relay.inbox', {})).resolves.toEqual(['a']);
    await expect(system.ask(`${kind}:a`, 'relay.inbox', {})).resolves.toEqual(['self']);
  });
});
