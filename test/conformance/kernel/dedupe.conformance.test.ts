import { z } from 'zod';
import { errors } from '../../../schemas/errors';
import { defineActor } from '../../../src/kernel';
import { transportFactories } from '../../support/transports';
import { eventually, kernelCluster, sleep, unique, type KernelCluster } from './kernel-harness';

function paymentActor(kind: string, runs: string[], gate?: { wait?: Promise<void> }) {
  return defineActor({
    kind,
    messages: {
      'payment.charge': z.object({ amount: z.number() }),
      'payment.refuse': z.object({}),
      'payment.slow': z.object({}),
      'payment.record': z.object({ note: z.string() }),
    },
    activate: () => ({ balance: 0 }),
    handlers: {
      'payment.charge': async (ctx, { amount }) => {
        runs.push(ctx.envelope.id);
        await sleep(20);
        ctx.state.balance += amount;
        return { balance: ctx.state.balance, by: ctx.envelope.id };
      },
      'payment.refuse': (ctx) => {
        runs.push(ctx.envelope.id);
        throw errors.forbidden('Card refused');
      },
      'payment.slow': (ctx) => {
        runs.push(ctx.envelope.id);
        return ctx.defer(gate!.wait!.then(() => ctx.envelope.id));
      },
      'payment.record': (ctx, { note }) => {
        runs.push(note);
      },
    },
  });
}

describe.each(transportFactories())('kernel dedupe over $name', (factory) => {
  let cluster: KernelCluster;
  beforeEach(() => {
    cluster = kernelCluster(factory);
  });
  afterEach(() => cluster.close());

  it('runs a message once when its id comes twice in a row; both callers get the same reply', async () => {
    const kind = unique('payment');
    const runs: string[] = [];
    const { system } = await cluster.node('a', [paymentActor(kind, runs)]);
    const id = unique('req');
    const first = await system.ask(`${kind}:1`, 'payment.charge', { amount: 5 }, { id });
    const again = await system.ask(`${kind}:1`, 'payment.charge', { amount: 5 }, { id });
    expect(again).toEqual(first);
    expect(first).toEqual({ balance: 5, by: id });
    expect(runs).toEqual([id]);
  });

  it('makes a duplicate that arrives during the first turn wait for it (same node and another node)', async () => {
    const kind = unique('payment');
    const runs: string[] = [];
    const { system: host } = await cluster.node('host', [paymentActor(kind, runs)]);
    const { system: other } = await cluster.node('other');
    const id = unique('req');
    const replies = await Promise.all([
      host.ask(`${kind}:1`, 'payment.charge', { amount: 7 }, { id }),
      host.ask(`${kind}:1`, 'payment.charge', { amount: 7 }, { id }),
      other.ask(`${kind}:1`, 'payment.charge', { amount: 7 }, { id }),
    ]);
    expect(replies).toEqual([
      { balance: 7, by: id },
      { balance: 7, by: id },
      { balance: 7, by: id },
    ]);
    expect(runs).toEqual([id]);
  });

  it('re-sends a remembered domain error without running the handler', async () => {
    const kind = unique('payment');
    const runs: string[] = [];
    const { system } = await cluster.node('a', [paymentActor(kind, runs)]);
    const id = unique('req');
    await expect(system.ask(`${kind}:1`, 'payment.refuse', {}, { id })).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    await expect(system.ask(`${kind}:1`, 'payment.refuse', {}, { id })).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
      message: 'Card refused',
    });
    expect(runs).toEqual([id]);
  });

  it('waits for deferred work of the first copy without blocking the actor', async () => {
    const kind = unique('payment');
    const runs: string[] = [];
    let open!: () => void;
    const gate = { wait: new Promise<void>((resolve) => (open = resolve)) };
    const { system } = await cluster.node('a', [paymentActor(kind, runs, gate)]);
    const id = unique('req');
    const first = system.ask(`${kind}:1`, 'payment.slow', {}, { id });
    await eventually(() => runs.length === 1);
    const duplicate = system.ask(`${kind}:1`, 'payment.slow', {}, { id });
    // The actor moves on meanwhile.
    await expect(system.ask(`${kind}:1`, 'payment.charge', { amount: 1 })).resolves.toMatchObject({
      balance: 1,
    });
    open();
    await expect(first).resolves.toBe(id);
    await expect(duplicate).resolves.toBe(id);
    expect(runs.filter((r) => r === id)).toHaveLength(1);
  });

  it('handles a duplicate fire-and-forget command once', async () => {
    const kind = unique('payment');
    const runs: string[] = [];
    const { system } = await cluster.node('a', [paymentActor(kind, runs)]);
    const id = unique('cmd');
    await system.tell(`${kind}:1`, 'payment.record', { note: 'once' }, { id });
    await system.tell(`${kind}:1`, 'payment.record', { note: 'once' }, { id });
    await system.tell(`${kind}:1`, 'payment.record', { note: 'other' });
    await eventually(() => runs.includes('other'));
    await sleep(20);
    expect(runs).toEqual(['once', 'other']);
  });
});
