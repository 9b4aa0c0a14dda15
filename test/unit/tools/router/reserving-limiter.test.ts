import { ReservingLimiter } from '../../../../actors/tools/router/reserving-limiter';
import { createRateLimiter, MemoryCache, type RateLimiter } from '../../../../src/store/cache';

describe('ReservingLimiter', () => {
  let cache: MemoryCache;
  beforeEach(() => {
    cache = new MemoryCache();
  });
  afterEach(async () => {
    await cache.close();
  });

  /** A shared limiter that counts its trips. */
  function counted(points: number, keyPrefix: string) {
    const shared = createRateLimiter(cache, { keyPrefix, points, durationSec: 60 });
    const trips: number[] = [];
    const spy: RateLimiter = {
      consume: (key, n = 1) => (trips.push(n), shared.consume(key, n)),
      reset: (key) => shared.reset(key),
    };
    return { spy, trips };
  }

  const allowedOf = async (limiter: ReservingLimiter, key: string, calls: number) => {
    let allowed = 0;
    for (let i = 0; i < calls; i++) if ((await limiter.consume(key)).allowed) allowed++;
    return allowed;
  };

  it('takes points in chunks while many are left, one by one near the limit: exact on one node', async () => {
    const { spy, trips } = counted(600, 'rl:t1');
    const limiter = new ReservingLimiter(spy, 600);
    expect(limiter.chunk).toBe(10);
    expect(await allowedOf(limiter, 'agent-a', 650)).toBe(600);
    // 1, then chunks of 10 while at least 20 remain, then single points, then the refusals.
    expect(trips.filter((n) => n === 10).length).toBeGreaterThan(50);
    expect(trips.length).toBeLessThan(130);
    const refused = await limiter.consume('agent-a');
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBeGreaterThan(0);
  });

  it('keeps agents apart', async () => {
    const { spy } = counted(600, 'rl:t2');
    const limiter = new ReservingLimiter(spy, 600);
    expect(await allowedOf(limiter, 'a', 30)).toBe(30);
    expect(await allowedOf(limiter, 'b', 30)).toBe(30);
  });

  it('asks the shared counter for every call when the limit is small', async () => {
    const { spy, trips } = counted(40, 'rl:t3');
    const limiter = new ReservingLimiter(spy, 40);
    expect(limiter.chunk).toBe(1);
    expect(await allowedOf(limiter, 'a', 45)).toBe(40);
    expect(trips).toEqual(Array(45).fill(1));
  });

  it('two nodes sharing the counter never allow more than the limit together', async () => {
    const { spy } = counted(600, 'rl:t4');
    const nodeA = new ReservingLimiter(spy, 600);
    const nodeB = new ReservingLimiter(spy, 600);
    let allowed = 0;
    for (let i = 0; i < 700; i++) if ((await (i % 3 === 0 ? nodeA : nodeB).consume('a')).allowed) allowed++;
    expect(allowed).toBeLessThanOrEqual(600);
    expect(allowed).toBeGreaterThanOrEqual(600 - 2 * nodeA.chunk);
  });
});
