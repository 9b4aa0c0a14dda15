import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { CachePort } from '../../src/store/cache/cache.port';
import { MemoryCache } from '../../src/store/cache/memory.cache';
import { RedisCache } from '../../src/store/cache/redis.cache';

/** Settings of `runCacheBench`. */
export interface CacheBenchOptions {
  /** Benchmarks Redis too when set. Default: memory only. */
  redisUrl?: string;
  /** Operations in flight at once. Default 50. */
  concurrency?: number;
  /** Operations per case (one operation kind on one implementation). Default 50000. */
  opsPerCase?: number;
  /** Time bound of one case, ms; the case stops early when reached. Default 3000 (6 cases < 30 s). */
  maxMsPerCase?: number;
}

interface CaseResult {
  ops: number;
  opsPerSec: number;
  p50Ms: number;
  p99Ms: number;
}

const KEYSPACE = 1000;
const VALUE = JSON.stringify({ payload: 'x'.repeat(80) });

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round(sorted[Math.max(0, index)] * 1000) / 1000;
}

/** Runs `op` from `concurrency` loops until `total` operations or the time bound, timing each call. */
async function measure(
  op: (i: number) => Promise<unknown>,
  concurrency: number,
  total: number,
  maxMs: number,
): Promise<CaseResult> {
  const latencies = new Float64Array(total);
  let next = 0;
  let done = 0;
  const started = performance.now();
  const deadline = started + maxMs;
  const worker = async () => {
    while (next < total && performance.now() < deadline) {
      const i = next++;
      const t0 = performance.now();
      await op(i);
      latencies[done++] = performance.now() - t0;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsedSec = (performance.now() - started) / 1000;
  const sorted = latencies.subarray(0, done).sort();
  return {
    ops: done,
    opsPerSec: Math.round(done / elapsedSec),
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
  };
}

async function benchOne(cache: CachePort, options: Required<Omit<CacheBenchOptions, 'redisUrl'>>) {
  const { concurrency, opsPerCase, maxMsPerCase } = options;
  const key = (i: number) => `k${i % KEYSPACE}`;
  // Warm up connections, JIT and the keyspace that `get` reads.
  await Promise.all(Array.from({ length: KEYSPACE }, (_, i) => cache.set(key(i), VALUE)));
  return {
    set: await measure(
      (i) => cache.set(key(i), VALUE, { ttlMs: 60_000 }),
      concurrency,
      opsPerCase,
      maxMsPerCase,
    ),
    get: await measure((i) => cache.get(key(i)), concurrency, opsPerCase, maxMsPerCase),
    incr: await measure(
      (i) => cache.incr(`c${i % 50}`, 1, { ttlMs: 60_000 }),
      concurrency,
      opsPerCase,
      maxMsPerCase,
    ),
  };
}

/** Removes every key of a benchmark namespace (Redis is shared: never flush it). */
async function purge(cache: CachePort): Promise<void> {
  for (
    let keys = await cache.list('', { limit: 10_000 });
    keys.length > 0;
    keys = await cache.list('', { limit: 10_000 })
  ) {
    await Promise.all(keys.map((k) => cache.delete(k)));
  }
}

/**
 * get / set / incr throughput and latency of the cache port at `concurrency` operations in flight,
 * for the memory cache and, when `redisUrl` is given, for Redis (under a unique key prefix that is
 * removed afterwards). Bounded: at most 6 cases of `maxMsPerCase` each, plus setup.
 */
export async function runCacheBench(options: CacheBenchOptions = {}): Promise<Record<string, unknown>> {
  const settings = {
    concurrency: options.concurrency ?? 50,
    opsPerCase: options.opsPerCase ?? 50_000,
    maxMsPerCase: options.maxMsPerCase ?? 3000,
  };
  const result: Record<string, unknown> = { ...settings, valueBytes: VALUE.length };

  const memory = new MemoryCache({ maxEntries: KEYSPACE * 2 });
  try {
    result.memory = await benchOne(memory, settings);
  } finally {
    await memory.close();
  }

  if (!options.redisUrl) {
    result.redis = { skipped: 'no redisUrl given' };
    return result;
  }
  const root = await RedisCache.connect(options.redisUrl);
  const cache = root.namespace(`bench:cache:${randomUUID()}:`);
  try {
    const status = await root.status();
    result.redis = status.state === 'up' ? await benchOne(cache, settings) : { skipped: status.detail };
  } finally {
    await purge(cache).catch(() => undefined);
    await root.close();
  }
  return result;
}
