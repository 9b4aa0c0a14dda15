import { errors, isAppError } from '../../../schemas/errors';
import {
  MEM_LIMITS,
  MemDeleteInputSchema,
  MemExpireInputSchema,
  MemGetInputSchema,
  MemIncrInputSchema,
  MemListInputSchema,
  MemSetInputSchema,
} from '../../../schemas/tools/mem';
import type { CachePort } from '../../../src/store/cache';
import { defineTool, type ToolContext } from '../router/tool-declaration';

/**
 * The memory-cache primitives: JSON values on the cache port, in a namespace of the calling agent
 * (`tools:mem:<internal agent id>:`), so one agent never sees another's keys. Values are stored as
 * their JSON text; `mem_incr` works on values that are integers (a missing key counts as 0).
 * Each is one quick cache command that never reads `ctx.signal` (`abortable: false`): the router
 * makes no abort signal for them (the cache port's command timeout bounds them).
 */

/** Cache namespace of an agent's memory. */
export const memNamespace = (agentId: string) => `tools:mem:${agentId}:`;

const memoryOf = (ctx: ToolContext): CachePort => ctx.services.cache.namespace(memNamespace(ctx.agent.id));
const seconds = (s: number) => s * 1000;

export const memSetTool = defineTool({
  name: 'mem_set',
  description:
    "Stores a JSON value under a key in the agent's private memory cache, with a TTL in seconds (default 7 days, max 30 days). Returns true.",
  input: MemSetInputSchema,
  mutating: true,
  abortable: false,
  run: async ({ key, value, ttl }, ctx) => {
    await memoryOf(ctx).set(key, JSON.stringify(value), {
      ttlMs: seconds(ttl ?? MEM_LIMITS.defaultTtlSec),
    });
    return true;
  },
});

export const memGetTool = defineTool({
  name: 'mem_get',
  description:
    "Reads a key of the agent's memory cache. Returns {value, found}: the stored JSON value, or {value: null, found: false} when the key is missing or expired.",
  input: MemGetInputSchema,
  mutating: false,
  abortable: false,
  run: async ({ key }, ctx) => {
    const raw = await memoryOf(ctx).get(key);
    if (raw === null) return { value: null, found: false };
    return { value: JSON.parse(raw) as unknown, found: true };
  },
});

export const memDeleteTool = defineTool({
  name: 'mem_delete',
  description:
    "Deletes a key of the agent's memory cache. Returns {deleted: boolean} (false when it did not exist).",
  input: MemDeleteInputSchema,
  mutating: true,
  abortable: false,
  run: async ({ key }, ctx) => ({ deleted: await memoryOf(ctx).delete(key) }),
});

export const memListTool = defineTool({
  name: 'mem_list',
  description:
    "Lists the keys of the agent's memory cache, optionally under a prefix, sorted. Returns {keys, truncated} (truncated: more keys matched than limit, default 100).",
  input: MemListInputSchema,
  mutating: false,
  abortable: false,
  run: async ({ prefix, limit }, ctx) => {
    const max = limit ?? MEM_LIMITS.defaultListLimit;
    // One more than asked tells whether the list was cut.
    const keys = await memoryOf(ctx).list(prefix ?? '', { limit: max + 1 });
    return { keys: keys.slice(0, max), truncated: keys.length > max };
  },
});

export const memIncrTool = defineTool({
  name: 'mem_incr',
  description:
    'Atomically adds an integer (default 1, may be negative) to the integer stored at a key (a missing key counts as 0 and gets the default TTL of 7 days). Returns {value}: the new value.',
  input: MemIncrInputSchema,
  mutating: true,
  abortable: false,
  run: async ({ key, by }, ctx) => {
    // Keyed on the call: a second run of it (its answer was lost with Redis's connection, then the
    // kernel retried it, or the client did with its Idempotency-Key) adds nothing again.
    const once = ctx.call ? { once: ctx.call.id, onceTtlMs: ctx.call.retriesForMs } : {};
    try {
      const value = await memoryOf(ctx).incr(key, by ?? 1, {
        ttlMs: seconds(MEM_LIMITS.defaultTtlSec),
        ...once,
      });
      return { value };
    } catch (err) {
      // The port reports a non-integer value as a misuse (INTERNAL_ERROR); for the agent it is a conflict.
      if (isAppError(err) && err.code === 'INTERNAL_ERROR' && /not an integer/.test(err.message)) {
        throw errors.conflict(`mem_incr: the value at "${key}" is not an integer`);
      }
      throw err;
    }
  },
});

export const memExpireTool = defineTool({
  name: 'mem_expire',
  description:
    "Sets a new TTL, in seconds (1 s to 30 days), on an existing key of the agent's memory cache. Returns {updated: boolean} (false when the key does not exist).",
  input: MemExpireInputSchema,
  mutating: true,
  abortable: false,
  run: async ({ key, ttl }, ctx) => ({ updated: await memoryOf(ctx).expire(key, seconds(ttl)) }),
});

/** The memory-cache primitives, for the list in actors/tools/platform-tools.ts. */
export const memTools = [
  memSetTool,
  memGetTool,
  memDeleteTool,
  memListTool,
  memIncrTool,
  memExpireTool,
] as const;
