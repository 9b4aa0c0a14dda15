import { z } from 'zod';

/**
 * One persisted revocation (collection `revoked_tokens`). The cache holds the live copy that
 * `TokenService.verify` reads; this document makes it survive a restart of an embedded process
 * (memory cache) and a flushed Redis. A TTL index on `expiresAt` drops it once the token(s) it
 * refuses would have expired anyway.
 *
 * - `kind: 'token'`: `_id` is the token's `jti`.
 * - `kind: 'subject'`: `_id` is `sub:<subject>`; every account token of that subject issued
 *   before `notBeforeMs` (epoch ms) is refused (password reset, downgrade to a plan without
 *   bearer access). Documents written before millisecond cutoffs have `notBefore` (epoch seconds)
 *   only: read as `notBefore * 1000`.
 */
export const RevokedTokenDocumentSchema = z.object({
  _id: z.string().min(1),
  kind: z.enum(['token', 'subject']),
  /** Epoch ms (kind subject): tokens issued before it are refused. */
  notBeforeMs: z.number().int().optional(),
  /** Epoch seconds: the cutoff of older documents (kind subject). */
  notBefore: z.number().int().optional(),
  revokedAt: z.date(),
  expiresAt: z.date(),
});
export type RevokedTokenDocument = z.infer<typeof RevokedTokenDocumentSchema>;
