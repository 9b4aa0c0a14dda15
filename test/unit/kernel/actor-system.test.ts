import { lastValueFrom, take, toArray } from 'rxjs';
import { z } from 'zod';
import { errors } from '../../../schemas/errors';
import { createActorSystem, defineActor, MemoryDedupeStore, type DedupeStore } from '../../../src/kernel';
import { InProcessBus, InProcessTransport } from '../../../src/transport/in-process.transport';
import type { BroadcastFilter } from '../../../src/transport/transport';
import { capturingLogger, eventually, inProcessNodes, sleep } from './kernel-test-kit';

const echo = defineActor({
  kind: 'echo',
  messages: { 'echo.say': z.object({ text: z.string() }) },
  handlers: { 'echo.say': (ctx, { text }) => `${ctx.id}:${text}` },
});

describe('actor system life cycle', () => {
  it('refuses a node id that is not the transport one, a kind registered twice, a second start', async () => {
    const transport = new InProcessTransport('n1', new InProcessBus());
    expect(() => createActorSystem({ transport, nodeId: 'n2' })).toThrow(/differs/);
    const system = createActorSystem({ transport });
    await system.register(echo);
    await expect(system.register(echo)).rejects.toThrow(/already registered/);
    await system.start();
    await expect(system.start()).rejects.toThrow(/cannot start/);
    await system.stop(100);
    await expect(system.register(defineActor({ ...echo, kind: 'other' }))).rejects.toThrow(/stopping/);
  });

  it('rejects requests with UNAVAILABLE before start and after stop', async () => {
    const system = createActorSystem({ transport: new InProcessTransport('n1', new InProcessBus()) });
    await expect(system.ask('echo:1', 'echo.say', { text: 'x' })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
    await expect(system.tell('echo:1', 'echo.say', { text: 'x' })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
    await expect(lastValueFrom(system.stream('echo:1', 'echo.say', { text: 'x' }))).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
    await system.stop(); // never started: nothing to do
    expect(system.status().state).toBe('stopped');
  });

  it('registers a kind after start and reports its status', async () => {
    const system = createActorSystem({ transport: new InProcessTransport('n1', new InProcessBus()) });
    await system.start();
    await system.register(echo);
    await expect(system.ask('echo:a', 'echo.say', { text: 'hi' })).resolves.toBe('a:hi');
    expect(system.status()).toEqual({
      nodeId: 'n1',
      state: 'running',
      transport: { state: 'up', detail: 'in-process' },
      kinds: ['echo'],
      actors: 1,
      inFlight: 0,
      deferred: 0,
      pendingRequests: 0,
    });
    await system.stop(100);
  });

  it('logs and survives a passivate that throws', async () => {
    const actor = defineActor({
      kind: 'sticky',
      messages: { 'sticky.touch': z.object({}) },
      passivate: () => {
        throw new Error('flush failed');
      },
      handlers: { 'sticky.touch': () => 1 },
    });
    const { logger, lines } = capturingLogger();
    const nodes = inProcessNodes();
    const { system } = await nodes.node('n1', [actor], { logger, idleMs: 20 });
    await system.ask('sticky:1', 'sticky.touch', {});
    await eventually(() => system.status().actors === 0);
    expect(lines.some((l) => l.msg === 'kernel: passivate failed')).toBe(true);
    await nodes.stopAll();
  });
});

describe('actor system edge cases', () => {
  let nodes: ReturnType<typeof inProcessNodes>;
  beforeEach(() => {
    nodes = inProcessNodes();
  });
  afterEach(() => nodes.stopAll());

  it('skips a stream request cancelled while still queued behind another turn', async () => {
    const ran: string[] = [];
    let release!: () => void;
    const actor = defineActor({
      kind: 'queue',
      messages: { 'queue.block': z.object({}), 'queue.items': z.object({}) },
      handlers: {
        'queue.block': () => new Promise<void>((resolve) => (release = resolve)),
        'queue.items': (ctx) => {
          ran.push('items');
          ctx.next(1);
        },
      },
    });
    const { system } = await nodes.node('n1', [actor]);
    const blocked = system.ask('queue:1', 'queue.block', {});
    await eventually(() => release !== undefined);
    const sub = system.stream('queue:1', 'queue.items', {}).subscribe();
    await eventually(() => system.status().inFlight === 2);
    sub.unsubscribe();
    await sleep(20); // the cancel broadcast reaches the queued invocation
    release();
    await blocked;
    await eventually(() => system.status().inFlight === 0);
    expect(ran).toEqual([]);
  });

  it('answers a duplicate of a finished stream with CONFLICT instead of replaying it', async () => {
    let runs = 0;
    const actor = defineActor({
      kind: 'feed',
      messages: { 'feed.read': z.object({}) },
      handlers: {
        'feed.read': (ctx) => {
          runs++;
          ctx.next('a');
          ctx.next('b');
        },
      },
    });
    const { system } = await nodes.node('n1', [actor]);
    const first = await lastValueFrom(
      system.stream('feed:1', 'feed.read', {}, { id: 'feed-req-1' }).pipe(toArray()),
    );
    expect(first).toEqual(['a', 'b']);
    await expect(
      lastValueFrom(system.stream('feed:1', 'feed.read', {}, { id: 'feed-req-1' })),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect(runs).toBe(1);
  });

  it('does not remember a transient failure or a defect: a retry with the same id runs again', async () => {
    let calls = 0;
    const actor = defineActor({
      kind: 'retry',
      messages: { 'retry.do': z.object({}) },
      supervision: { maxAttempts: 1 },
      handlers: {
        'retry.do': () => {
          calls++;
          if (calls === 1) throw errors.unavailable('down');
          if (calls === 2) throw new Error('bug');
          return 'ok';
        },
      },
    });
    const { system } = await nodes.node('n1', [actor]);
    await expect(system.ask('retry:1', 'retry.do', {}, { id: 'r1' })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
    await expect(system.ask('retry:1', 'retry.do', {}, { id: 'r1' })).rejects.toMatchObject({
      code: 'INTERNAL_ERROR',
    });
    await expect(system.ask('retry:1', 'retry.do', {}, { id: 'r1' })).resolves.toBe('ok');
    await expect(system.ask('retry:1', 'retry.do', {}, { id: 'r1' })).resolves.toBe('ok');
    expect(calls).toBe(3);
  });

  it('still handles messages when the dedupe store is down', async () => {
    const broken: DedupeStore = {
      claim: () => Promise.reject(errors.unavailable('cache down')),
      complete: () => Promise.reject(errors.unavailable('cache down')),
      release: () => Promise.reject(errors.unavailable('cache down')),
      get: () => Promise.reject(errors.unavailable('cache down')),
    };
    const { logger, lines } = capturingLogger();
    const { system } = await nodes.node('n1', [echo], { dedupe: broken, logger });
    await expect(system.ask('echo:1', 'echo.say', { text: 'x' })).resolves.toBe('1:x');
    await eventually(() => lines.some((l) => l.msg === 'kernel: dedupe store failed'));
  });

  it('shares a dedupe store between nodes: a duplicate on another node waits for the first copy', async () => {
    const ranOn: string[] = [];
    const actor = defineActor({
      kind: 'once',
      messages: { 'once.do': z.object({}) },
      handlers: {
        'once.do': async (ctx) => {
          ranOn.push(ctx.system.nodeId);
          await sleep(60);
          return `ran on ${ctx.system.nodeId}`;
        },
      },
    });
    const dedupe = new MemoryDedupeStore();
    const { system: a } = await nodes.node('a', [actor], { dedupe });
    await nodes.node('b', [actor], { dedupe });
    // Round robin puts the two copies on different nodes: the second polls the shared store.
    const replies = await Promise.all(
      [1, 2].map(() => a.ask<string>('once:1', 'once.do', {}, { id: 'same' })),
    );
    expect(ranOn).toHaveLength(1);
    expect(replies).toEqual([`ran on ${ranOn[0]}`, `ran on ${ranOn[0]}`]);
    const later = await a.ask('once:1', 'once.do', {}, { id: 'same' });
    expect(later).toBe(replies[0]);
    expect(ranOn).toHaveLength(1);
  });

  it('emits stream items from a handler in order under load', async () => {
    const actor = defineActor({
      kind: 'burst',
      messages: { 'burst.go': z.object({ n: z.number() }) },
      handlers: {
        'burst.go': (ctx, { n }) => {
          for (let i = 0; i < n; i++) ctx.next(i);
        },
      },
    });
    const { system } = await nodes.node('n1', [actor]);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, k) =>
        lastValueFrom(system.stream<number>(`burst:${k}`, 'burst.go', { n: 200 }).pipe(take(200), toArray())),
      ),
    );
    for (const items of results) expect(items).toEqual(Array.from({ length: 200 }, (_, i) => i));
  });
});

describe('keyed broadcasts: which ones a node reads', () => {
  /** An in-process transport that hands the node's filter to the test (it does not use it itself). */
  function recordingFilter() {
    let filter: BroadcastFilter | undefined;
    const transport = Object.assign(new InProcessTransport('n1', new InProcessBus()), {
      filterBroadcasts: (wanted: BroadcastFilter) => void (filter = wanted),
    });
    return { transport, read: (type: string, keys: string[]) => filter!(type, keys) };
  }

  it('reads a keyed broadcast some listener of its type wants, or that one listener takes whole', async () => {
    const { transport, read } = recordingFilter();
    const system = createActorSystem({ transport });
    await system.start();
    expect(read('exec.events', ['exe_a'])).toBe(false); // no listener of the type at all

    const offMine = system.onBroadcast('exec.events', () => undefined, { wants: (k) => k === 'exe_mine' });
    expect(read('exec.events', ['exe_a', 'exe_b'])).toBe(false);
    expect(read('exec.events', ['exe_a', 'exe_mine'])).toBe(true);
    expect(read('other.events', ['exe_mine'])).toBe(false); // another type's listeners do not count

    // A listener without `wants` takes every broadcast of its type.
    const offAll = system.onBroadcast('exec.events', () => undefined);
    expect(read('exec.events', ['exe_a'])).toBe(true);
    offAll();
    expect(read('exec.events', ['exe_a'])).toBe(false);
    offMine();
    expect(read('exec.events', ['exe_mine'])).toBe(false);
    await system.stop(100);
  });
});
