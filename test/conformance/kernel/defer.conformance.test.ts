import { z } from 'zod';
import { errors } from '../../../schemas/errors';
import { defineActor } from '../../../src/kernel';
import { transportFactories } from '../../support/transports';
import { codeOf, eventually, kernelCluster, sleep, unique, type KernelCluster } from './kernel-harness';

/** A tool-call-like actor: counts calls within its turn, runs the slow part deferred. */
function toolActor(kind: string, gates: Map<string, () => void>, log: string[]) {
  return defineActor({
    kind,
    messages: {
      'tool.call': z.object({ name: z.string() }),
      'tool.quick': z.object({}),
      'tool.fail': z.object({ how: z.enum(['domain', 'defect', 'flaky']) }),
      'tool.count': z.object({}),
    },
    activate: () => ({ calls: 0 }),
    handlers: {
      'tool.call': (ctx, { name }) => {
        ctx.state.calls++; // ordered, within the turn
        log.push(`start:${name}`);
        return ctx.defer(
          new Promise<string>((resolve) => gates.set(name, () => resolve(`result:${name}`))).finally(() =>
            log.push(`end:${name}`),
          ),
        );
      },
      'tool.quick': (ctx) => {
        log.push('quick');
        return ctx.state.calls;
      },
      'tool.fail': (ctx, { how }) => {
        let tries = 0;
        return ctx.defer(async () => {
          tries++;
          await sleep(5);
          if (how === 'domain') throw errors.forbidden('Not allowed');
          if (how === 'defect') throw new Error('secret detail');
          if (tries < 3) throw errors.unavailable('flaky upstream');
          return { tries, attempt: ctx.attempt };
        });
      },
      'tool.count': (ctx) => ctx.state.calls,
    },
  });
}

describe.each(transportFactories())('kernel deferred work over $name', (factory) => {
  let cluster: KernelCluster;
  beforeEach(() => {
    cluster = kernelCluster(factory);
  });
  afterEach(() => cluster.close());

  it('handles the next message while deferred work is pending, and replies when the work settles', async () => {
    const kind = unique('tool');
    const gates = new Map<string, () => void>();
    const log: string[] = [];
    const { system } = await cluster.node('a', [toolActor(kind, gates, log)]);
    const slow = system.ask(`${kind}:1`, 'tool.call', { name: 'slow' });
    await eventually(() => gates.has('slow'));
    // Same actor: not blocked by the pending tool call.
    await expect(system.ask(`${kind}:1`, 'tool.quick', {})).resolves.toBe(1);
    const second = system.ask(`${kind}:1`, 'tool.call', { name: 'second' });
    await eventually(() => gates.has('second'));
    gates.get('second')!();
    await expect(second).resolves.toBe('result:second');
    gates.get('slow')!();
    await expect(slow).resolves.toBe('result:slow');
    expect(log).toEqual(['start:slow', 'quick', 'start:second', 'end:second', 'end:slow']);
    await expect(system.ask(`${kind}:1`, 'tool.count', {})).resolves.toBe(2);
  });

  it('replies the domain error of deferred work', async () => {
    const kind = unique('tool');
    const { system } = await cluster.node('a', [toolActor(kind, new Map(), [])]);
    await expect(system.ask(`${kind}:1`, 'tool.fail', { how: 'domain' })).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
      message: 'Not allowed',
    });
  });

  it('replies INTERNAL_ERROR for a defect in deferred work, without leaking it', async () => {
    const kind = unique('tool');
    const { system } = await cluster.node('a', [toolActor(kind, new Map(), [])]);
    const failure = system.ask(`${kind}:1`, 'tool.fail', { how: 'defect' });
    await expect(failure).rejects.toMatchObject({ code: 'INTERNAL_ERROR', message: 'Internal error' });
    await expect(system.ask(`${kind}:1`, 'tool.count', {})).resolves.toBe(0); // the actor is fine
  });

  it('retries deferred work given as a function on transient errors', async () => {
    const kind = unique('tool');
    const actor = toolActor(kind, new Map(), []);
    const { system } = await cluster.node('a', [
      { ...actor, supervision: { backoffBaseMs: 5, backoffMaxMs: 10 } },
    ]);
    await expect(system.ask(`${kind}:1`, 'tool.fail', { how: 'flaky' })).resolves.toEqual({
      tries: 3,
      attempt: 3,
    });
  });

  it('keeps an actor with deferred work in memory, and passivates it once the work is done', async () => {
    const kind = unique('tool');
    const gates = new Map<string, () => void>();
    const { system } = await cluster.node('a', [toolActor(kind, gates, [])], { idleMs: 40 });
    const call = system.ask(`${kind}:1`, 'tool.call', { name: 'long' });
    await eventually(() => gates.has('long'));
    await sleep(150);
    expect(system.status()).toMatchObject({ actors: 1, deferred: 1 });
    gates.get('long')!();
    await call;
    await eventually(() => system.status().actors === 0);
  });

  it('times out a deferred reply that comes after the deadline', async () => {
    const kind = unique('tool');
    const gates = new Map<string, () => void>();
    const { system } = await cluster.node('a', [toolActor(kind, gates, [])]);
    const call = system.ask(`${kind}:1`, 'tool.call', { name: 'late' }, { timeoutMs: 100 });
    await expect(codeOf(call)).resolves.toBe('DEADLINE_EXCEEDED');
    gates.get('late')!();
    await eventually(() => system.status().deferred === 0);
  });
});
