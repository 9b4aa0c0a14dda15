import { z } from 'zod';

/**
 * One persisted revocation (collection `revoked_tokens`). The cache holds the live copy that
 * `TokenService.verify` reads; this document makes it survive a restart of an embedded process
 * (memory cache) and a flushed Redis. A TTL index on `expiresAt` drops it once the token(s) it
 * refuses would have expired anyway.
 *
 * - `kind: 'token'`: `_id` is the token's `jti`.
 * - `kind: 'subject'`: `_id` is `sub:<subject>`; every account token of that subject issued
 *   before `notBefore` (epoch seconds) is refused (password reset, downgrade to a plan without
 *   bearer access).
 */
export const RevokedTokenDocumentSchema = z.object({
  _id: z.string().min(1),
  kind: z.enum(['token', 'subject']),
  /** Epoch seconds (kind subject): tokens with `iat` before it are refused. */
  notBefore: z.number().int().optional(),
  revokedAt: z.date(),
  expiresAt: z.date(),
});
export type RevokedTokenDocument = z.infer<typeof RevokedTokenDocumentSchema>;
