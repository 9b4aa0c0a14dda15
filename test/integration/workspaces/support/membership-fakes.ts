import type { MembershipEpochDocument } from '../../../../actors/workspaces/membership-epoch';
import { AppError } from '../../../../schemas/errors';
import type { CachePort } from '../../../../src/store/cache';
import type { Repository } from '../../../../src/store/mongo';

/** The epoch collection in memory, counting its reads (the hot path must not read it per request). */
export function fakeEpochs(): { repo: Repository<MembershipEpochDocument>; reads: () => number } {
  let doc: MembershipEpochDocument | null = null;
  let reads = 0;
  const repo = {
    findById: async () => {
      reads++;
      return doc ? { ...doc } : null;
    },
    findOneAndUpdate: async () => {
      doc = { _id: 'membership', epoch: (doc?.epoch ?? 0) + 1, bumpedAt: new Date() };
      return { ...doc };
    },
  } as unknown as Repository<MembershipEpochDocument>;
  return { repo, reads: () => reads };
}

export type CacheMode = 'up' | 'down' | 'hang';

/**
 * A cache port in front of a real one that a test can make refuse every call (`down`: UNAVAILABLE,
 * as the Redis adapter answers while Redis is unreachable) or never answer (`hang`: a stuck
 * server). Counts the calls that reached it.
 */
export function switchableCache(inner: CachePort): {
  cache: CachePort;
  mode: CacheMode;
  calls: () => number;
} {
  let calls = 0;
  const control = { mode: 'up' as CacheMode, calls: () => calls, cache: undefined as unknown as CachePort };
  const guarded = new Set(['get', 'mget', 'set', 'delete', 'incr', 'expire', 'ttl', 'list', 'take']);
  control.cache = new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof prop !== 'string' || !guarded.has(prop) || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls++;
        if (control.mode === 'down') {
          return Promise.reject(new AppError('UNAVAILABLE', 'cache unavailable', { reason: 'test: cut' }));
        }
        if (control.mode === 'hang') return new Promise(() => undefined);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return control;
}
