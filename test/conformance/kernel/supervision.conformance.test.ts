import { z } from 'zod';
import { errors } from '../../../schemas/errors';
import { defineActor } from '../../../src/kernel';
import { transportFactories } from '../../support/transports';
import { codeOf, kernelCluster, unique, type KernelCluster } from './kernel-harness';

const fast = { backoffBaseMs: 5, backoffMaxMs: 20 };

describe.each(transportFactories())('kernel supervision over $name', (factory) => {
  let cluster: KernelCluster;
  beforeEach(() => {
    cluster = kernelCluster(factory);
  });
  afterEach(() => cluster.close());

  it('retries a transient error with backoff; the retries are visible to the handler', async () => {
    const kind = unique('flaky');
    const attempts: number[] = [];
    const actor = defineActor({
      kind,
      messages: { 'flaky.do': z.object({ failures: z.number() }) },
      supervision: fast,
      handlers: {
        'flaky.do': (ctx, { failures }) => {
          attempts.push(ctx.attempt);
          if (ctx.attempt <= failures) throw errors.unavailable('store down');
          return `ok after ${ctx.attempt}`;
        },
      },
    });
    const { system } = await cluster.node('a', [actor]);
    await expect(system.ask(`${kind}:1`, 'flaky.do', { failures: 3 })).resolves.toBe('ok after 4');
    expect(attempts).toEqual([1, 2, 3, 4]);
  });

  it('gives up on a transient error when the deadline does not allow another try', async () => {
    const kind = unique('down');
    let calls = 0;
    const actor = defineActor({
      kind,
      messages: { 'down.do': z.object({}) },
      supervision: { backoffBaseMs: 40, backoffMaxMs: 40, maxAttempts: 1000 },
      handlers: {
        'down.do': () => {
          calls++;
          throw errors.unavailable('still down');
        },
      },
    });
    const { system } = await cluster.node('a', [actor]);
    const started = Date.now();
    const code = await codeOf(system.ask(`${kind}:1`, 'down.do', {}, { timeoutMs: 400 }));
    expect(['UNAVAILABLE', 'DEADLINE_EXCEEDED']).toContain(code);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(calls).toBeGreaterThan(2);
  });

  it('replies the transient error after maxAttempts', async () => {
    const kind = unique('down');
    let calls = 0;
    const actor = defineActor({
      kind,
      messages: { 'down.do': z.object({}) },
      supervision: { ...fast, maxAttempts: 3 },
      handlers: {
        'down.do': () => {
          calls++;
          throw errors.unavailable('still down', { dependency: 'store' });
        },
      },
    });
    const { system } = await cluster.node('a', [actor]);
    await expect(system.ask(`${kind}:1`, 'down.do', {})).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      details: { dependency: 'store' },
    });
    expect(calls).toBe(3);
  });

  it('restarts an actor on a defect, replying INTERNAL_ERROR without the message', async () => {
    const kind = unique('buggy');
    let activations = 0;
    const actor = defineActor({
      kind,
      messages: { 'buggy.add': z.object({}), 'buggy.crash': z.object({}) },
      activate: () => ({ n: 0, generation: ++activations }),
      handlers: {
        'buggy.add': (ctx) => ({ n: ++ctx.state.n, generation: ctx.state.generation }),
        'buggy.crash': () => {
          throw new TypeError('secret connection string leaked in a message');
        },
      },
    });
    const { system } = await cluster.node('a', [actor]);
    await expect(system.ask(`${kind}:1`, 'buggy.add', {})).resolves.toEqual({ n: 1, generation: 1 });
    const crash = system.ask(`${kind}:1`, 'buggy.crash', {});
    await expect(crash).rejects.toMatchObject({
      code: 'INTERNAL_ERROR',
      message: 'Internal error',
      details: {},
    });
    const error = (await crash.catch((e: unknown) => e)) as Error;
    expect(JSON.stringify(error)).not.toContain('secret');
    expect(String(error.stack)).not.toContain('secret');
    // State dropped and re-activated.
    await expect(system.ask(`${kind}:1`, 'buggy.add', {})).resolves.toEqual({ n: 1, generation: 2 });
  });

  it('dead-letters a defect beyond the restart budget (and still answers the caller)', async () => {
    const kind = unique('crashy');
    const actor = defineActor({
      kind,
      messages: { 'crashy.crash': z.object({ i: z.number() }) },
      supervision: { maxRestarts: 2 },
      handlers: {
        'crashy.crash': () => {
          throw new Error('boom');
        },
      },
    });
    const { system } = await cluster.node('a', [actor]);
    for (let i = 0; i < 4; i++) {
      await expect(codeOf(system.ask(`${kind}:1`, 'crashy.crash', { i }))).resolves.toBe('INTERNAL_ERROR');
    }
    // Two restarts fit the budget; the third and fourth defects are dead-lettered.
    await expect(cluster.deadLetters(kind, 2)).resolves.toBe(2);
    // Another actor of the same kind has its own budget.
    await expect(codeOf(system.ask(`${kind}:2`, 'crashy.crash', { i: 9 }))).resolves.toBe('INTERNAL_ERROR');
    await expect(cluster.deadLetters(kind, 3, 300)).resolves.toBe(2);
  });

  it('treats a domain error thrown by activate as the reply, and tries activating again next time', async () => {
    const kind = unique('lazy');
    let exists = false;
    const actor = defineActor({
      kind,
      messages: { 'lazy.get': z.object({}) },
      activate: (ctx) => {
        if (!exists) throw errors.notFound(`No ${ctx.id}`);
        return { id: ctx.id };
      },
      handlers: { 'lazy.get': (ctx) => ctx.state },
    });
    const { system } = await cluster.node('a', [actor]);
    await expect(system.ask(`${kind}:x`, 'lazy.get', {})).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'No x',
    });
    exists = true;
    await expect(system.ask(`${kind}:x`, 'lazy.get', {})).resolves.toEqual({ id: 'x' });
  });
});
