import { z } from 'zod';
import { errors } from '../../../schemas/errors';
import { defineActor } from '../../../src/kernel';
import { transportFactories } from '../../support/transports';
import { codeOf, kernelCluster, sleep, unique, type KernelCluster } from './kernel-harness';

function counterActor(kind: string, calls: string[] = []) {
  return defineActor({
    kind,
    messages: {
      'counter.add': z.object({ n: z.number().int() }),
      'counter.get': z.object({}),
      'counter.fail': z.object({ code: z.enum(['NOT_FOUND', 'CONFLICT']) }),
    },
    activate: () => ({ total: 0 }),
    handlers: {
      'counter.add': (ctx, { n }) => {
        calls.push(`add:${n}`);
        ctx.state.total += n;
        return { total: ctx.state.total };
      },
      'counter.get': (ctx) => ctx.state.total,
      'counter.fail': (_ctx, { code }) => {
        throw code === 'NOT_FOUND'
          ? errors.notFound('No such thing', { thing: 'x' })
          : errors.conflict('Clash');
      },
    },
  });
}

describe.each(transportFactories())('kernel request/reply over $name', (factory) => {
  let cluster: KernelCluster;
  beforeEach(() => {
    cluster = kernelCluster(factory);
  });
  afterEach(() => cluster.close());

  it('replies to ask with the handler result, keeping state per actor', async () => {
    const kind = unique('counter');
    const { system } = await cluster.node('a', [counterActor(kind)]);
    await expect(system.ask(`${kind}:1`, 'counter.add', { n: 2 })).resolves.toEqual({ total: 2 });
    await expect(system.ask(`${kind}:1`, 'counter.add', { n: 3 })).resolves.toEqual({ total: 5 });
    await expect(system.ask(`${kind}:2`, 'counter.get', {})).resolves.toBe(0);
    await expect(system.ask(`${kind}:1`, 'counter.get', {})).resolves.toBe(5);
  });

  it('asks across nodes: the reply comes back to the requester', async () => {
    const kind = unique('counter');
    await cluster.node('host', [counterActor(kind)]);
    const { system: client } = await cluster.node('client');
    await expect(client.ask(`${kind}:1`, 'counter.add', { n: 7 })).resolves.toEqual({ total: 7 });
  });

  it('tell is fire and forget; the message is handled', async () => {
    const kind = unique('counter');
    const calls: string[] = [];
    const { system } = await cluster.node('a', [counterActor(kind, calls)]);
    await expect(system.tell(`${kind}:1`, 'counter.add', { n: 4 })).resolves.toBeUndefined();
    await expect(system.ask(`${kind}:1`, 'counter.get', {})).resolves.toBe(4);
    expect(calls).toEqual(['add:4']);
  });

  it('replies VALIDATION_ERROR for an unknown type or an invalid body, without running a handler, and dead-letters both', async () => {
    const kind = unique('counter');
    const calls: string[] = [];
    const { system } = await cluster.node('a', [counterActor(kind, calls)]);
    const unknownType = system.ask(`${kind}:1`, 'counter.nope', {});
    await expect(unknownType).rejects.toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
    const invalid = system.ask(`${kind}:1`, 'counter.add', { n: 'two' });
    await expect(invalid).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    const error = (await invalid.catch((e: unknown) => e)) as {
      details: { issues: Array<{ path: string }> };
    };
    expect(error.details.issues[0].path).toBe('n');
    expect(calls).toEqual([]);
    // Poison: no delivery would ever take them (over AMQP the reason is in a header of each).
    expect(await cluster.deadLetters(kind, 2)).toBe(2);
  });

  it('replies a domain error with its code and details; the actor goes on', async () => {
    const kind = unique('counter');
    const { system } = await cluster.node('a', [counterActor(kind)]);
    await system.ask(`${kind}:1`, 'counter.add', { n: 1 });
    await expect(system.ask(`${kind}:1`, 'counter.fail', { code: 'NOT_FOUND' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'No such thing',
      details: { thing: 'x' },
    });
    await expect(system.ask(`${kind}:1`, 'counter.get', {})).resolves.toBe(1);
  });

  it('rejects with DEADLINE_EXCEEDED when no reply comes in time, and forgets the request', async () => {
    const kind = unique('nobody'); // no node consumes this kind
    const { system } = await cluster.node('a');
    const started = Date.now();
    await expect(codeOf(system.ask(`${kind}:1`, 'x.y', {}, { timeoutMs: 150 }))).resolves.toBe(
      'DEADLINE_EXCEEDED',
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(system.status().pendingRequests).toBe(0);
  });

  it('drops a message already past its deadline without running it', async () => {
    const kind = unique('counter');
    const calls: string[] = [];
    const { system, transport } = await cluster.node('a', [counterActor(kind, calls)]);
    await transport.send({
      v: 1,
      id: unique('late'),
      type: 'counter.add',
      to: `${kind}:1`,
      deadline: Date.now() - 1,
      attempt: 1,
      body: { n: 100 },
    });
    await expect(system.ask(`${kind}:1`, 'counter.add', { n: 1 })).resolves.toEqual({ total: 1 });
    expect(calls).toEqual(['add:1']);
  });

  it('rejects at once with UNAVAILABLE when the transport is down', async () => {
    const kind = unique('counter');
    const { system, transport } = await cluster.node('a', [counterActor(kind)]);
    await transport.stop(0);
    const started = Date.now();
    await expect(codeOf(system.ask(`${kind}:1`, 'counter.get', {}, { timeoutMs: 5000 }))).resolves.toBe(
      'UNAVAILABLE',
    );
    await expect(codeOf(system.tell(`${kind}:1`, 'counter.get', {}))).resolves.toBe('UNAVAILABLE');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(system.status().pendingRequests).toBe(0);
  });

  it('rejects a malformed address or type before sending', async () => {
    const { system } = await cluster.node('a');
    await expect(codeOf(system.ask('no-colon', 'x.y', {}))).resolves.toBe('VALIDATION_ERROR');
    await expect(codeOf(system.ask('k:1', 'notype', {}))).resolves.toBe('VALIDATION_ERROR');
    await expect(codeOf(system.broadcast('notype', {}))).resolves.toBe('VALIDATION_ERROR');
  });

  it('serves many concurrent asks to many actors', async () => {
    const kind = unique('counter');
    const { system } = await cluster.node('a', [counterActor(kind)]);
    const replies = await Promise.all(
      Array.from({ length: 200 }, (_, i) => system.ask(`${kind}:${i % 20}`, 'counter.add', { n: 1 })),
    );
    expect(replies).toHaveLength(200);
    const totals = await Promise.all(
      Array.from({ length: 20 }, (_, i) => system.ask(`${kind}:${i}`, 'counter.get', {})),
    );
    expect(totals).toEqual(Array(20).fill(10));
    await sleep(0);
  });
});
