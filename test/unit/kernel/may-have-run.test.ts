import { z } from 'zod';
import type { Envelope } from '../../../schemas/envelope';
import { AppError, errors } from '../../../schemas/errors';
import { createActorSystem, defineActor, isStableEnvelopeId, stableEnvelopeId } from '../../../src/kernel';
import type { Transport } from '../../../src/transport/transport';
import { deferred } from '../../support/async';
import { inProcessNodes } from './kernel-test-kit';

/** What a rejected ask says: its code and whether the work may have run. */
async function outcomeOf(promise: Promise<unknown>) {
  try {
    await promise;
    return 'resolved';
  } catch (err) {
    const e = err as AppError;
    return { code: e.code, mayHaveRun: e.details?.mayHaveRun };
  }
}

describe('mayHaveRun on the errors of a request', () => {
  const nodes = inProcessNodes();
  afterEach(() => nodes.stopAll());

  const gate = deferred();
  afterAll(() => gate.resolve());
  const worker = defineActor({
    kind: 'mhr',
    supervision: { maxAttempts: 1 },
    messages: { 'mhr.do': z.object({ how: z.string() }) },
    handlers: {
      'mhr.do': async (_ctx, { how }) => {
        if (how === 'hang') await gate.promise;
        if (how === 'unavailable') throw errors.unavailable('the store is away');
        if (how === 'unsent') throw errors.unavailable('a command of mine never left', { mayHaveRun: false });
        if (how === 'invalid') throw errors.validation('how: unknown');
        return { done: how };
      },
    },
  });

  it('is true once the command was published: past the deadline, or a 503 of the handler', async () => {
    const { system } = await nodes.node('n1', [worker]);
    expect(await outcomeOf(system.ask('mhr:1', 'mhr.do', { how: 'hang' }, { timeoutMs: 100 }))).toEqual({
      code: 'DEADLINE_EXCEEDED',
      mayHaveRun: true,
    });
    expect(await outcomeOf(system.ask('mhr:1b', 'mhr.do', { how: 'unavailable' }))).toEqual({
      code: 'UNAVAILABLE',
      mayHaveRun: true,
    });
    // The handler knew better: its own value goes through.
    expect(await outcomeOf(system.ask('mhr:1c', 'mhr.do', { how: 'unsent' }))).toEqual({
      code: 'UNAVAILABLE',
      mayHaveRun: false,
    });
    // Other codes are final answers: nothing to say.
    expect(await outcomeOf(system.ask('mhr:1d', 'mhr.do', { how: 'invalid' }))).toEqual({
      code: 'VALIDATION_ERROR',
      mayHaveRun: undefined,
    });
  });

  it('is true for requests still waiting when the system stops', async () => {
    const { system } = await nodes.node('n2', [worker]);
    const waiting = system.ask('mhr:2', 'mhr.do', { how: 'hang' }, { timeoutMs: 10_000 });
    const outcome = outcomeOf(waiting);
    await system.stop(50);
    expect(await outcome).toEqual({ code: 'UNAVAILABLE', mayHaveRun: true });
  });

  it('is false when the command never left: a stopped system, a transport that refused it', async () => {
    const { system } = await nodes.node('n3', [worker]);
    await system.stop(50);
    expect(await outcomeOf(system.ask('mhr:3', 'mhr.do', { how: 'x' }))).toEqual({
      code: 'UNAVAILABLE',
      mayHaveRun: false,
    });

    const refusing = {
      nodeId: 'n4',
      name: 'in-process',
      start: async () => undefined,
      stop: async () => undefined,
      consume: async () => undefined,
      onReply: () => undefined,
      onBroadcast: () => undefined,
      send: (_e: Envelope) => Promise.reject(errors.unavailable('message broker unavailable')),
      reply: async () => undefined,
      broadcast: async () => undefined,
      status: () => ({ state: 'up' }),
    } as unknown as Transport;
    const client = createActorSystem({ transport: refusing });
    await client.start();
    expect(await outcomeOf(client.ask('mhr:4', 'mhr.do', { how: 'x' }))).toEqual({
      code: 'UNAVAILABLE',
      mayHaveRun: false,
    });
    // A send that failed after the command was written (a publisher confirm that never came).
    refusing.send = () =>
      Promise.reject(
        errors.unavailable('the broker did not confirm the command in time', { mayHaveRun: true }),
      );
    expect(await outcomeOf(client.ask('mhr:4', 'mhr.do', { how: 'x' }))).toEqual({
      code: 'UNAVAILABLE',
      mayHaveRun: true,
    });
    await client.stop(10);
  });
});

describe('stable envelope ids', () => {
  it('are the same for the same seed, differ otherwise, and are told apart from generated ids', () => {
    const a = stableEnvelopeId('account:1\nkey-1\nfp');
    expect(stableEnvelopeId('account:1\nkey-1\nfp')).toBe(a);
    expect(stableEnvelopeId('account:2\nkey-1\nfp')).not.toBe(a);
    expect(a.length).toBeLessThanOrEqual(200);
    expect(isStableEnvelopeId(a)).toBe(true);
    expect(isStableEnvelopeId('Qm9vZ2xlLWlkAAAA0')).toBe(false);
  });

  it('make a retried request a duplicate: the handler runs once and both get its reply', async () => {
    const nodes = inProcessNodes();
    let runs = 0;
    const counter = defineActor({
      kind: 'cnt',
      messages: { 'cnt.incr': z.object({}) },
      handlers: { 'cnt.incr': async () => ({ value: ++runs }) },
    });
    const { system } = await nodes.node('n5', [counter]);
    const id = stableEnvelopeId('retry');
    const first = await system.ask('cnt:1', 'cnt.incr', {}, { id });
    const retry = await system.ask('cnt:1', 'cnt.incr', {}, { id });
    expect(first).toEqual({ value: 1 });
    expect(retry).toEqual({ value: 1 });
    expect(runs).toBe(1);
    await nodes.stopAll();
  });
});
