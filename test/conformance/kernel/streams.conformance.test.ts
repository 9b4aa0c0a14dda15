import { firstValueFrom, lastValueFrom, take, toArray } from 'rxjs';
import { z } from 'zod';
import { errors } from '../../../schemas/errors';
import { defineActor } from '../../../src/kernel';
import { transportFactories } from '../../support/transports';
import { codeOf, eventually, kernelCluster, sleep, unique, type KernelCluster } from './kernel-harness';

function tickerActor(kind: string, seen: { aborted: string[]; emitted: number }) {
  return defineActor({
    kind,
    messages: {
      'ticker.count': z.object({ to: z.number().int(), failAt: z.number().int().optional() }),
      'ticker.forever': z.object({}),
      'ticker.single': z.object({}),
    },
    handlers: {
      'ticker.count': async (ctx, { to, failAt }) => {
        for (let i = 0; i < to; i++) {
          if (i === failAt) throw errors.conflict(`stopped at ${i}`);
          ctx.next({ i });
          if (i % 10 === 0) await sleep(1);
        }
      },
      // Streams from deferred work, outside the turn, until the caller unsubscribes.
      'ticker.forever': (ctx) =>
        ctx.defer(
          new Promise<void>((resolve) => {
            const signal = ctx.signal;
            const timer = setInterval(() => {
              seen.emitted++;
              ctx.next(seen.emitted);
            }, 5);
            signal.addEventListener('abort', () => {
              clearInterval(timer);
              seen.aborted.push(ctx.id);
              resolve();
            });
          }),
        ),
      'ticker.single': () => 'only',
    },
  });
}

describe.each(transportFactories())('kernel streams over $name', (factory) => {
  let cluster: KernelCluster;
  beforeEach(() => {
    cluster = kernelCluster(factory);
  });
  afterEach(() => cluster.close());

  it('emits every item in order, then completes', async () => {
    const kind = unique('ticker');
    await cluster.node('host', [tickerActor(kind, { aborted: [], emitted: 0 })]);
    const { system } = await cluster.node('client');
    const items = await lastValueFrom(
      system.stream<{ i: number }>(`${kind}:1`, 'ticker.count', { to: 100 }).pipe(toArray()),
    );
    expect(items.map((x) => x.i)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(system.status().pendingRequests).toBe(0);
  });

  it('completes an empty stream, and turns a plain reply into a one-item stream', async () => {
    const kind = unique('ticker');
    const { system } = await cluster.node('a', [tickerActor(kind, { aborted: [], emitted: 0 })]);
    await expect(
      lastValueFrom(system.stream(`${kind}:1`, 'ticker.count', { to: 0 }).pipe(toArray())),
    ).resolves.toEqual([]);
    await expect(
      lastValueFrom(system.stream(`${kind}:1`, 'ticker.single', {}).pipe(toArray())),
    ).resolves.toEqual(['only']);
  });

  it('errors with the handler error after the items sent before it', async () => {
    const kind = unique('ticker');
    const { system } = await cluster.node('a', [tickerActor(kind, { aborted: [], emitted: 0 })]);
    const received: number[] = [];
    const error = await new Promise<{ code: string; message: string }>((resolve) => {
      system.stream<{ i: number }>(`${kind}:1`, 'ticker.count', { to: 10, failAt: 3 }).subscribe({
        next: (x) => received.push(x.i),
        error: resolve,
      });
    });
    expect(error).toMatchObject({ code: 'CONFLICT', message: 'stopped at 3' });
    expect(received).toEqual([0, 1, 2]);
  });

  it('errors with VALIDATION_ERROR for a bad body', async () => {
    const kind = unique('ticker');
    const { system } = await cluster.node('a', [tickerActor(kind, { aborted: [], emitted: 0 })]);
    await expect(
      codeOf(firstValueFrom(system.stream(`${kind}:1`, 'ticker.count', { to: 'x' }))),
    ).resolves.toBe('VALIDATION_ERROR');
  });

  it('unsubscribing aborts the handler signal on the node that runs it', async () => {
    const kind = unique('ticker');
    const seen = { aborted: [] as string[], emitted: 0 };
    const { system: host } = await cluster.node('host', [tickerActor(kind, seen)]);
    const { system: client } = await cluster.node('client');
    const firstThree = await lastValueFrom(
      client.stream<number>(`${kind}:s1`, 'ticker.forever', {}).pipe(take(3), toArray()),
    );
    expect(firstThree).toEqual([1, 2, 3]);
    await eventually(() => seen.aborted.length === 1);
    expect(seen.aborted).toEqual(['s1']);
    const emitted = seen.emitted;
    await sleep(50);
    expect(seen.emitted).toBe(emitted); // the work stopped
    expect(client.status().pendingRequests).toBe(0);
    await eventually(() => host.status().deferred === 0);
  });

  it('applies a deadline to streams: the caller errors and the handler signal aborts', async () => {
    const kind = unique('ticker');
    const seen = { aborted: [] as string[], emitted: 0 };
    const { system } = await cluster.node('a', [tickerActor(kind, seen)]);
    const received: number[] = [];
    const error = await new Promise<{ code: string }>((resolve) => {
      system.stream<number>(`${kind}:d`, 'ticker.forever', {}, { timeoutMs: 150 }).subscribe({
        next: (n) => received.push(n),
        error: resolve,
      });
    });
    expect(error.code).toBe('DEADLINE_EXCEEDED');
    expect(received.length).toBeGreaterThan(0);
    await eventually(() => seen.aborted.includes('d'));
  });

  it('uses the default stream timeout, not the ask timeout', async () => {
    const kind = unique('ticker');
    const seen = { aborted: [] as string[], emitted: 0 };
    const { system } = await cluster.node('a', [tickerActor(kind, seen)], {
      defaultTimeoutMs: 100,
      streamTimeoutMs: 5000,
    });
    const items = await lastValueFrom(
      system.stream<number>(`${kind}:long`, 'ticker.forever', {}).pipe(take(40), toArray()),
    );
    expect(items).toHaveLength(40); // 40 x 5 ms > the 100 ms ask timeout
  });
});
