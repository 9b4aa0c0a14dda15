import { performance } from 'node:perf_hooks';
import { Redis, type RedisOptions } from 'ioredis';
import { AppError } from '../../../schemas/errors';
import { silentLogger, type Logger } from '../../logging/logger';
import { redactUrl } from '../redact-url';
import {
  CacheReads,
  INCR_ONCE_TTL_MS,
  RATE_LIMIT_BACKEND,
  cacheUnavailable,
  incrOnceMark,
  normaliseIncrement,
  normaliseLimit,
  normaliseTtl,
  type CacheIncrOptions,
  type CacheListOptions,
  type CachePort,
  type CacheSetOptions,
  type CacheStatus,
  type RateLimitBackend,
  type RateLimitCapable,
} from './cache.port';
import { NamespacedCache } from './namespaced.cache';
import { mapRedisError } from './redis-errors';

/** Default cap of the reconnect delay, ms (`RedisCacheOptions.maxReconnectDelayMs`). */
export const DEFAULT_REDIS_RECONNECT_MAX_MS = 500;

/** Connection settings of `RedisCache.connect`. */
export interface RedisCacheOptions {
  logger?: Logger;
  /** TCP connect timeout, ms. Default 2000. */
  connectTimeoutMs?: number;
  /** Bound on one command, ms: a stuck server fails the call with UNAVAILABLE. Default 2000. */
  commandTimeoutMs?: number;
  /**
   * Cap of the exponential reconnect delay, ms (REDIS_RECONNECT_MAX_MS). Default 500: a refused
   * attempt costs nothing, and with 2000 a Redis back from a 5 s cut was found 1.9 s later
   * (bench:faults).
   */
  maxReconnectDelayMs?: number;
  /** Bound on the ping of `status()`, ms. Default 1000. */
  statusTimeoutMs?: number;
  /** Raw ioredis options, applied last (tests, TLS settings). */
  redisOptions?: RedisOptions;
}

// Increments and, only when this call created the key, gives it a TTL: atomic in Redis.
const INCR_WITH_TTL = `
local existed = redis.call('EXISTS', KEYS[1])
local value = redis.call('INCRBY', KEYS[1], ARGV[1])
if existed == 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return value`;

// The same, at most once per operation: KEYS[2] marks the operation (incrOnceMark) and keeps the
// value it produced; a retry of the operation finds it and adds nothing. ARGV[2] = 0: no TTL.
const INCR_ONCE = `
local done = redis.call('GET', KEYS[2])
if done then return tonumber(done) end
local existed = redis.call('EXISTS', KEYS[1])
local value = redis.call('INCRBY', KEYS[1], ARGV[1])
if existed == 0 and tonumber(ARGV[2]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
redis.call('SET', KEYS[2], value, 'PX', ARGV[3])
return value`;

type ScriptedRedis = Redis & {
  cacheIncrTtl(key: string, by: number, ttlMs: number): Promise<number>;
  cacheIncrOnce(key: string, mark: string, by: number, ttlMs: number, markTtlMs: number): Promise<number>;
};

/** Makes a prefix literal in a SCAN MATCH pattern. */
export function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}

/**
 * The cache shared by every process, on Redis through ioredis. Calls fail fast with UNAVAILABLE
 * while Redis is unreachable (no offline queue, in-flight commands rejected when the connection
 * drops, a per-command timeout) and the client keeps reconnecting in the background with capped
 * exponential backoff and jitter. Needs Redis >= 6.2 (GETDEL).
 */
export class RedisCache implements CachePort, RateLimitCapable {
  readonly kind = 'redis' as const;
  readonly reads = new CacheReads();
  private closed = false;
  private lastError = 'not connected yet';
  private wasUp = false;

  private constructor(
    readonly client: Redis,
    private readonly endpoint: string,
    private readonly logger: Logger,
    private readonly statusTimeoutMs: number,
  ) {
    client.defineCommand('cacheIncrTtl', { numberOfKeys: 1, lua: INCR_WITH_TTL });
    client.defineCommand('cacheIncrOnce', { numberOfKeys: 2, lua: INCR_ONCE });
    // Without a listener ioredis prints every connection error; log transitions only, not each retry.
    client.on('error', (err: Error) => {
      this.lastError = err.message;
      if (this.wasUp) logger.warn({ endpoint, err: err.message }, 'cache: redis connection lost');
      this.wasUp = false;
    });
    client.on('ready', () => {
      if (!this.wasUp) logger.info({ endpoint }, 'cache: redis ready');
      this.wasUp = true;
    });
  }

  /**
   * Connects and resolves once the first attempt settled. An unreachable Redis does not reject:
   * the cache starts "down" (calls fail with UNAVAILABLE, `status()` says why) and recovers by
   * itself when Redis comes up, so a cache outage at boot degrades the service instead of stopping it.
   */
  static async connect(url: string, options: RedisCacheOptions = {}): Promise<RedisCache> {
    const logger = options.logger ?? silentLogger;
    const maxDelay = options.maxReconnectDelayMs ?? DEFAULT_REDIS_RECONNECT_MAX_MS;
    let client: Redis;
    try {
      client = RedisCache.newClient(url, options, maxDelay);
    } catch (err) {
      // The parser's message may quote the URL, password included.
      throw new AppError('INTERNAL_ERROR', 'invalid Redis URL', { reason: (err as Error).name });
    }
    const cache = new RedisCache(client, redactUrl(url), logger, options.statusTimeoutMs ?? 1000);
    try {
      await client.connect();
    } catch (err) {
      logger.warn(
        { endpoint: cache.endpoint, err: cache.lastError || (err as Error).message },
        'cache: redis unreachable at start; calls fail with UNAVAILABLE until it comes up',
      );
    }
    return cache;
  }

  private static newClient(url: string, options: RedisCacheOptions, maxDelay: number): Redis {
    return new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      // 0 = reject commands in flight as soon as the connection drops instead of replaying them
      // after a reconnect (a replayed INCR could count twice).
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      connectTimeout: options.connectTimeoutMs ?? 2000,
      commandTimeout: options.commandTimeoutMs ?? 2000,
      // ioredis arms this timer even when the socket is already gone; keep it short so a closed
      // cache does not hold the process for 2 s.
      disconnectTimeout: 200,
      // Commands issued in one turn of the event loop (under load, those of many requests) go out
      // in one socket write instead of one write each: a write per command was ≈ 10 % of a
      // /mcp request's CPU. Costs at most one loop turn of latency.
      enableAutoPipelining: true,
      retryStrategy: (attempt) =>
        Math.min(50 * 2 ** Math.min(attempt, 10), maxDelay) * (0.5 + Math.random() / 2),
      ...options.redisOptions,
    });
  }

  async get(key: string): Promise<string | null> {
    return this.reads.count(await this.run('get', key, () => this.client.get(key)));
  }

  async mget(keys: readonly string[]): Promise<(string | null)[]> {
    if (keys.length === 0) return [];
    return this.reads.countAll(await this.run('mget', undefined, () => this.client.mget(...keys)));
  }

  async set(key: string, value: string, options: CacheSetOptions = {}): Promise<boolean> {
    const ttlMs = normaliseTtl(options.ttlMs, 'set');
    const args: (string | number)[] = [key, value];
    if (ttlMs !== undefined) args.push('PX', ttlMs);
    if (options.onlyIfAbsent) args.push('NX');
    return this.run('set', key, async () => (await this.client.call('SET', ...args)) === 'OK');
  }

  async delete(key: string): Promise<boolean> {
    return this.run('delete', key, async () => (await this.client.del(key)) > 0);
  }

  async incr(key: string, by = 1, options: CacheIncrOptions = {}): Promise<number> {
    const step = normaliseIncrement(by);
    const ttlMs = normaliseTtl(options.ttlMs, 'incr');
    if (options.once !== undefined) {
      const mark = incrOnceMark(key, options.once);
      const markTtlMs = normaliseTtl(options.onceTtlMs ?? INCR_ONCE_TTL_MS, 'incr') as number;
      return this.run('incr', key, async () =>
        Number(await (this.client as ScriptedRedis).cacheIncrOnce(key, mark, step, ttlMs ?? 0, markTtlMs)),
      );
    }
    return this.run('incr', key, async () =>
      ttlMs === undefined
        ? this.client.incrby(key, step)
        : Number(await (this.client as ScriptedRedis).cacheIncrTtl(key, step, ttlMs)),
    );
  }

  async expire(key: string, ttlMs: number): Promise<boolean> {
    const ms = normaliseTtl(ttlMs, 'expire') as number;
    return this.run('expire', key, async () => (await this.client.pexpire(key, ms)) === 1);
  }

  async ttl(key: string): Promise<number | null> {
    // PTTL: -2 = no such key, -1 = no TTL.
    return this.run('ttl', key, async () => {
      const ms = await this.client.pttl(key);
      return ms < 0 ? null : Math.max(1, ms);
    });
  }

  async list(prefix: string, options: CacheListOptions = {}): Promise<string[]> {
    const limit = normaliseLimit(options.limit);
    const pattern = `${escapeGlob(prefix)}*`;
    return this.run('list', undefined, async () => {
      // SCAN may return a key twice and never blocks Redis the way KEYS would.
      const found = new Set<string>();
      let cursor = '0';
      do {
        const [next, keys] = await this.client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
        cursor = next;
        for (const key of keys) {
          if (found.size < limit && key.startsWith(prefix)) found.add(key);
        }
      } while (cursor !== '0' && found.size < limit);
      return [...found].sort();
    });
  }

  async take(key: string): Promise<string | null> {
    return this.run('take', key, () => this.client.getdel(key));
  }

  namespace(prefix: string): CachePort {
    return NamespacedCache.over(this, prefix);
  }

  async status(): Promise<CacheStatus> {
    if (this.closed) return { state: 'down', detail: 'redis cache closed' };
    if (this.client.status !== 'ready') {
      return { state: 'down', detail: `redis ${this.endpoint} ${this.client.status}: ${this.lastError}` };
    }
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('ping timed out')), this.statusTimeoutMs);
    });
    try {
      await Promise.race([this.client.ping(), timeout]);
      return {
        state: 'up',
        detail: `redis ${this.endpoint} ping ${Math.round(performance.now() - started)} ms`,
      };
    } catch (err) {
      return { state: 'down', detail: `redis ${this.endpoint}: ${(err as Error).message}` };
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (
      this.client.status !== 'ready' &&
      this.client.status !== 'connect' &&
      this.client.status !== 'connecting'
    ) {
      // No socket: disconnect only cancels the pending reconnect ('end' is never emitted then).
      this.client.disconnect();
      return;
    }
    // Resolve once the socket is really gone, so a caller shutting down leaves no handle behind.
    const ended = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 1000).unref();
      this.client.once('end', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    if (this.client.status === 'ready') {
      await this.client.quit().catch(() => this.client.disconnect());
    } else {
      this.client.disconnect();
    }
    await ended;
  }

  [RATE_LIMIT_BACKEND](): RateLimitBackend {
    return { kind: 'redis', keyPrefix: '', client: this.client };
  }

  private async run<T>(op: string, key: string | undefined, call: () => Promise<T>): Promise<T> {
    if (this.closed) throw cacheUnavailable('redis cache closed');
    // Checked here as well as by ioredis so the reason is the connection's, not "stream not writeable".
    if (this.client.status !== 'ready')
      throw cacheUnavailable(`redis ${this.client.status}: ${this.lastError}`);
    try {
      return await call();
    } catch (err) {
      throw mapRedisError(err, op, key);
    }
  }
}
