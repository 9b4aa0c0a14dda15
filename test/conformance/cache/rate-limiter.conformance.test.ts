import { randomUUID } from 'node:crypto';
import { createRateLimiter } from '../../../src/store/cache/rate-limiter';
import { describeEachCache, sleep } from './cache-factories';

describeEachCache('rate limiter', (subject) => {
  const cache = () => subject().cache;
  const fresh = () => `limit-${randomUUID()}`;

  it('allows N points per window, then refuses with retryAfter, then allows again', async () => {
    const limiter = createRateLimiter(cache(), { keyPrefix: fresh(), points: 3, durationSec: 1 });
    const allowed = [
      await limiter.consume('ip-1'),
      await limiter.consume('ip-1'),
      await limiter.consume('ip-1'),
    ];
    expect(allowed.map((d) => [d.allowed, d.remaining, d.retryAfterMs])).toEqual([
      [true, 2, 0],
      [true, 1, 0],
      [true, 0, 0],
    ]);
    const refused = await limiter.consume('ip-1');
    expect(refused.allowed).toBe(false);
    expect(refused.remaining).toBe(0);
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(1000);
    // Another key has its own budget.
    expect((await limiter.consume('ip-2')).allowed).toBe(true);
    await sleep(refused.retryAfterMs + 50);
    expect(await limiter.consume('ip-1')).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('counts weighted consumption and concurrent calls exactly', async () => {
    const limiter = createRateLimiter(cache(), { keyPrefix: fresh(), points: 10, durationSec: 60 });
    expect(await limiter.consume('k', 4)).toMatchObject({ allowed: true, remaining: 6 });
    const burst = await Promise.all(Array.from({ length: 20 }, () => limiter.consume('k')));
    expect(burst.filter((d) => d.allowed)).toHaveLength(6);
    expect((await limiter.consume('k', 1)).allowed).toBe(false);
  });

  it('blocks for blockDurationSec once the points are spent, and reset clears the key', async () => {
    const limiter = createRateLimiter(cache(), {
      keyPrefix: fresh(),
      points: 1,
      durationSec: 1,
      blockDurationSec: 30,
    });
    expect((await limiter.consume('user')).allowed).toBe(true);
    const refused = await limiter.consume('user');
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBeGreaterThan(20_000);
    await limiter.reset('user');
    expect((await limiter.consume('user')).allowed).toBe(true);
  });

  it('limiters built with the same settings share their counters', async () => {
    const settings = { keyPrefix: fresh(), points: 2, durationSec: 60 };
    await createRateLimiter(cache(), settings).consume('shared');
    await createRateLimiter(cache(), settings).consume('shared');
    expect((await createRateLimiter(cache(), settings).consume('shared')).allowed).toBe(false);
  });

  it('keeps its keys inside the cache namespace', async () => {
    const keyPrefix = fresh();
    const view = cache().namespace('tenant-a:');
    await createRateLimiter(view, { keyPrefix, points: 5, durationSec: 60 }).consume('x');
    if (cache().kind === 'redis') expect(await view.list(keyPrefix)).toEqual([`${keyPrefix}:x`]);
    // The same limit in another namespace starts from zero.
    const other = createRateLimiter(cache().namespace('tenant-b:'), {
      keyPrefix,
      points: 5,
      durationSec: 60,
    });
    expect((await other.consume('x')).remaining).toBe(4);
  });

  it('refuses impossible settings', () => {
    expect(() => createRateLimiter(cache(), { keyPrefix: 'x', points: 1, durationSec: 0.5 })).toThrow(
      /durationSec/,
    );
    expect(() => createRateLimiter(cache(), { keyPrefix: 'x', points: 0, durationSec: 1 })).toThrow(/points/);
  });
});
