import { z } from 'zod';
import { TokenScopeSchema } from '../auth';

/** A named token is `live` until revoked; revocation is final. */
export const NamedTokenStatusSchema = z.enum(['live', 'revoked']);
export type NamedTokenStatus = z.infer<typeof NamedTokenStatusSchema>;

/** What happened to a named token, kept for audit (never removed, even after revocation). */
export const NamedTokenAuditEntrySchema = z.object({
  action: z.enum(['created', 'rotated', 'renamed', 'rescoped', 'revoked']),
  at: z.date(),
  /** How the acting caller authenticated, and the named token it used if any (never a token value). */
  by: z.object({
    subjectType: z.enum(['account', 'agent']),
    via: z.enum(['session', 'bearer']),
    tokenId: z.string().optional(),
  }),
  /** Before/after values of a rename or rescope. */
  from: z.unknown().optional(),
  to: z.unknown().optional(),
});
export type NamedTokenAuditEntry = z.infer<typeof NamedTokenAuditEntrySchema>;

/**
 * One named scoped bearer token (collection `named_tokens`). The token value is never stored:
 * only its `jti` (to revoke it) and its masked form.
 */
export const NamedTokenDocumentSchema = z.object({
  /** Public token id (`ntk_…`), returned as `id` and carried in the JWT as `tid`. */
  _id: z.string().min(1),
  version: z.number().int().nonnegative(),
  accountId: z.string().min(1),
  name: z.string().min(1).max(100),
  /** `name` lower-cased: unique among the account's live tokens. */
  nameKey: z.string().min(1).max(100),
  workspaceId: z.string().optional(),
  projectId: z.string().optional(),
  /** Empty = unrestricted. The current value: rescoping applies to the token already issued. */
  scopes: z.array(TokenScopeSchema),
  status: NamedTokenStatusSchema,
  /** `jti` of the value currently valid. */
  jti: z.string().min(1),
  /** Expiry of the value currently valid. */
  expiresAt: z.date(),
  /** First 8 characters, `...`, last 6 of the current value. */
  maskedToken: z.string(),
  lastUsedAt: z.date().nullable(),
  createdAt: z.date(),
  rotatedAt: z.date().optional(),
  revokedAt: z.date().optional(),
  audit: z.array(NamedTokenAuditEntrySchema),
});
export type NamedTokenDocument = z.infer<typeof NamedTokenDocumentSchema>;
