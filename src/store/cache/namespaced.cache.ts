import {
  RATE_LIMIT_BACKEND,
  type CacheReads,
  type CacheIncrOptions,
  type CacheKind,
  type CacheListOptions,
  type CachePort,
  type CacheSetOptions,
  type CacheStatus,
  type RateLimitBackend,
  type RateLimitCapable,
} from './cache.port';

/**
 * A view of a root cache where every key is `prefix + key`. Listing strips the prefix, so the view
 * looks like a cache of its own; nesting concatenates prefixes. Closing a view leaves the root open:
 * the view does not own the connection.
 */
export class NamespacedCache implements CachePort, RateLimitCapable {
  readonly kind: CacheKind;
  readonly reads: CacheReads | undefined;

  constructor(
    private readonly root: CachePort & RateLimitCapable,
    readonly prefix: string,
  ) {
    this.kind = root.kind;
    this.reads = root.reads;
  }

  /** Builds a view over `root`, flattening nested views onto the same root. */
  static over(root: CachePort & RateLimitCapable, prefix: string): NamespacedCache {
    if (root instanceof NamespacedCache) return new NamespacedCache(root.root, root.prefix + prefix);
    return new NamespacedCache(root, prefix);
  }

  get(key: string): Promise<string | null> {
    return this.root.get(this.prefix + key);
  }

  mget(keys: readonly string[]): Promise<(string | null)[]> {
    return this.root.mget(keys.map((k) => this.prefix + k));
  }

  set(key: string, value: string, options?: CacheSetOptions): Promise<boolean> {
    return this.root.set(this.prefix + key, value, options);
  }

  delete(key: string): Promise<boolean> {
    return this.root.delete(this.prefix + key);
  }

  incr(key: string, by?: number, options?: CacheIncrOptions): Promise<number> {
    return this.root.incr(this.prefix + key, by, options);
  }

  expire(key: string, ttlMs: number): Promise<boolean> {
    return this.root.expire(this.prefix + key, ttlMs);
  }

  ttl(key: string): Promise<number | null> {
    return this.root.ttl(this.prefix + key);
  }

  async list(prefix: string, options?: CacheListOptions): Promise<string[]> {
    const keys = await this.root.list(this.prefix + prefix, options);
    return keys.map((k) => k.slice(this.prefix.length));
  }

  take(key: string): Promise<string | null> {
    return this.root.take(this.prefix + key);
  }

  namespace(prefix: string): CachePort {
    return NamespacedCache.over(this, prefix);
  }

  status(): Promise<CacheStatus> {
    return this.root.status();
  }

  async close(): Promise<void> {
    // The root owns the connection and its timers.
  }

  [RATE_LIMIT_BACKEND](): RateLimitBackend {
    const backend = this.root[RATE_LIMIT_BACKEND]();
    return { ...backend, keyPrefix: backend.keyPrefix + this.prefix };
  }
}
