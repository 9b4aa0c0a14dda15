import { healthActor, type HealthActorOptions } from '../../../actors/ops/health.actor';
import type { OpsHealthReply } from '../../../schemas/messages/ops';

const up = () => ({ state: 'up' as const });

/** The handler's `ctx`, reduced to what the health actor uses. */
function fakeCtx() {
  const deferred: Array<(signal: AbortSignal) => Promise<unknown>> = [];
  const ctx = {
    defer: jest.fn((work: (signal: AbortSignal) => Promise<unknown>) => {
      deferred.push(work);
      return { deferred: true };
    }),
  };
  return { ctx, deferred };
}

describe('health actor', () => {
  const options = (): HealthActorOptions & { calls: number } => {
    const o = {
      calls: 0,
      probes: {
        transport: up,
        documents: () => {
          o.calls += 1;
          return up();
        },
        cache: up,
      },
      reuseMs: 60_000,
    };
    return o;
  };

  it('defers the check, then answers a fresh one within the turn (no defer, no probes)', async () => {
    const o = options();
    const handler = healthActor(o).handlers['ops.health'] as (ctx: unknown, body: unknown) => unknown;
    const first = fakeCtx();
    expect(handler(first.ctx, {})).toEqual({ deferred: true });
    const reply = (await first.deferred[0](new AbortController().signal)) as OpsHealthReply;
    expect(reply.status).toBe('ok');
    expect(o.calls).toBe(1);

    const second = fakeCtx();
    expect(handler(second.ctx, {})).toEqual(reply);
    expect(second.ctx.defer).not.toHaveBeenCalled();
    expect(o.calls).toBe(1);
  });

  it('checks again once the answer is older than reuseMs', async () => {
    const o = options();
    o.reuseMs = 0;
    const handler = healthActor(o).handlers['ops.health'] as (ctx: unknown, body: unknown) => unknown;
    for (let i = 0; i < 2; i++) {
      const { ctx, deferred } = fakeCtx();
      expect(handler(ctx, {})).toEqual({ deferred: true });
      await deferred[0](new AbortController().signal);
    }
    expect(o.calls).toBe(2);
  });
});
