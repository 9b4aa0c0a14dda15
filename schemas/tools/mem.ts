import { z } from 'zod';

/**
 * Inputs of the memory-cache primitives `mem_set`, `mem_get`, `mem_delete`, `mem_list`, `mem_incr`
 * and `mem_expire` (docs/tool-router.md). Keys live in a namespace of the calling agent; the router
 * reuses these schemas as the tools' `inputSchema` (input side of the JSON Schema).
 */

const DAY_SECONDS = 24 * 3600;

export const MEM_LIMITS = Object.freeze({
  maxKeyLength: 512,
  /** `ttl` bounds, in seconds (COMPATIBILITY: 1 s to 30 days, default 7 days). */
  minTtlSec: 1,
  maxTtlSec: 30 * DAY_SECONDS,
  defaultTtlSec: 7 * DAY_SECONDS,
  /** Size of a stored value: its JSON text, in UTF-8 bytes. */
  maxValueBytes: 1024 * 1024,
  /** `mem_list` page. */
  defaultListLimit: 100,
  maxListLimit: 1000,
});

/** Key characters (COMPATIBILITY). */
export const MEM_KEY_PATTERN = /^[a-zA-Z0-9_:.\-/]+$/;

export const MemKeySchema = z
  .string()
  .min(1)
  .max(MEM_LIMITS.maxKeyLength)
  .regex(MEM_KEY_PATTERN, 'key may only contain letters, digits and _ : . - /')
  .describe('Key: letters, digits and _ : . - / (at most 512 characters), private to the calling agent.');

const TtlSchema = z
  .number()
  .int()
  .min(MEM_LIMITS.minTtlSec)
  .max(MEM_LIMITS.maxTtlSec)
  .describe(`Time to live in seconds, ${MEM_LIMITS.minTtlSec} to ${MEM_LIMITS.maxTtlSec} (30 days).`);

const utf8Bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** Any JSON value (present: `undefined` is not JSON), at most `maxValueBytes` of JSON text. */
export const MemValueSchema = z
  .unknown()
  .refine((v) => v !== undefined, { message: 'value is required (any JSON value, null included)' })
  .refine((v) => v === undefined || utf8Bytes(JSON.stringify(v) ?? '') <= MEM_LIMITS.maxValueBytes, {
    message: `value must be at most ${MEM_LIMITS.maxValueBytes} bytes of JSON`,
  })
  .describe('Any JSON value (object, array, string, number, boolean or null), at most 1 MB of JSON.');

export const MemSetInputSchema = z.object({
  key: MemKeySchema,
  value: MemValueSchema,
  ttl: TtlSchema.optional().describe(
    `Time to live in seconds, ${MEM_LIMITS.minTtlSec} to ${MEM_LIMITS.maxTtlSec}; default ${MEM_LIMITS.defaultTtlSec} (7 days).`,
  ),
});

export const MemGetInputSchema = z.object({ key: MemKeySchema });
export const MemDeleteInputSchema = z.object({ key: MemKeySchema });

export const MemListInputSchema = z.object({
  prefix: z
    .string()
    .max(MEM_LIMITS.maxKeyLength)
    .regex(/^[a-zA-Z0-9_:.\-/]*$/, 'prefix may only contain letters, digits and _ : . - /')
    .optional()
    .describe('Only keys starting with this prefix (default: every key).'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MEM_LIMITS.maxListLimit)
    .optional()
    .describe(
      `Most keys returned, 1 to ${MEM_LIMITS.maxListLimit} (default ${MEM_LIMITS.defaultListLimit}).`,
    ),
});

export const MemIncrInputSchema = z.object({
  key: MemKeySchema,
  by: z
    .number()
    .int()
    .min(-Number.MAX_SAFE_INTEGER)
    .max(Number.MAX_SAFE_INTEGER)
    .optional()
    .describe('Increment, a (possibly negative) integer; default 1. A missing key counts as 0.'),
});

export const MemExpireInputSchema = z.object({ key: MemKeySchema, ttl: TtlSchema });
