import { z } from 'zod';
import { displayNameSchema } from '../display-text';
import {
  GrantSubjectTypeSchema,
  GrantStatusSchema,
  SDK_SCOPES,
  SECRET_NAME_PATTERN,
  SdkScopeSchema,
  SecretStatusSchema,
  VaultAuditEventSchema,
  VaultSubjectTypeSchema,
} from '../documents/vault';

/**
 * Requests and answers of `/api/vault`, `/api/vault/assignments`, `/api/vault/audit`,
 * `/api/vault/access`, `/api/vault/runtime-grants/consume` and `/api/sdk/credentials`
 * (docs/vault.md). Every answer is parsed with its schema before it is sent: unknown fields (the
 * account id, sealed values, hashes) are stripped.
 */

/** Largest secret value, in bytes of UTF-8 (64 KiB). Larger: 413. */
export const MAX_SECRET_VALUE_BYTES = 64 * 1024;

/** Runtime grant lifetime bounds and default, in seconds (COMPATIBILITY: 5 min, 30 s to 15 min). */
export const GRANT_TTL = { min: 30, max: 900, default: 300 } as const;

export const SecretNameSchema = z
  .string()
  .regex(SECRET_NAME_PATTERN, 'must be 2 to 120 upper-case letters, digits or _ (^[A-Z0-9_]{2,120}$)');

/** A workspace id, a secret id, a subject id: id-shaped strings. */
const IdSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(200)
  .regex(/^[A-Za-z0-9_.:@/-]+$/, 'must be an id (letters, digits, _ . : @ / -)');

export const WorkspaceIdSchema = IdSchema;
export const SecretIdSchema = IdSchema;
export const SubjectIdSchema = IdSchema;

/** The value: a non-empty string (its size is checked apart, 413). Never echoed, never logged. */
export const SecretValueSchema = z.string({ error: 'must be a string' }).min(1, 'must not be empty');

/** `POST /api/vault`. Without `workspaceId`, the account's default workspace. */
export const CreateSecretBodySchema = z.object({
  workspaceId: WorkspaceIdSchema.optional(),
  name: SecretNameSchema,
  value: SecretValueSchema,
});
export type CreateSecretBody = z.output<typeof CreateSecretBodySchema>;

/** `GET /api/vault?workspaceId&search`: `search` is a case-insensitive part of the name. */
export const ListSecretsQuerySchema = z.object({
  workspaceId: WorkspaceIdSchema.optional(),
  search: z.string().trim().max(120).optional(),
});

/** `PATCH /api/vault`: `value` is required for `rotate` and refused otherwise. */
export const PatchSecretBodySchema = z
  .object({
    secretId: SecretIdSchema,
    action: z.enum(['disable', 'enable', 'rotate']),
    value: SecretValueSchema.optional(),
  })
  .check((ctx) => {
    const { action, value } = ctx.value;
    if (action === 'rotate' && value === undefined) {
      ctx.issues.push({ code: 'custom', input: undefined, path: ['value'], message: 'required to rotate' });
    }
    if (action !== 'rotate' && value !== undefined) {
      ctx.issues.push({
        code: 'custom',
        input: undefined,
        path: ['value'],
        message: 'only allowed with action rotate',
      });
    }
  });
export type PatchSecretBody = z.output<typeof PatchSecretBodySchema>;

/** `DELETE /api/vault?secretId=` (or a JSON body `{secretId}`). */
export const DeleteSecretInputSchema = z.object({ secretId: SecretIdSchema });

/** A secret as shown: never the value. `version` is the value's version (1, +1 per rotation). */
export const SecretViewSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  status: SecretStatusSchema,
  workspaceId: z.string(),
  maskedValue: z.string(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SecretView = z.infer<typeof SecretViewSchema>;

export const SecretResponseSchema = z.strictObject({ secret: SecretViewSchema });
export const SecretListResponseSchema = z.strictObject({ secrets: z.array(SecretViewSchema) });
export const SecretDeleteResponseSchema = z.strictObject({
  deleted: z.literal(true),
  secret: SecretViewSchema,
});

/** `POST /api/vault/assignments`. */
export const AssignmentBodySchema = z.object({
  secretId: SecretIdSchema,
  subjectType: VaultSubjectTypeSchema,
  subjectId: SubjectIdSchema,
});
export type AssignmentBody = z.output<typeof AssignmentBodySchema>;

/** `GET /api/vault/assignments?secretId&subjectType&subjectId` (all optional filters). */
export const ListAssignmentsQuerySchema = z.object({
  secretId: SecretIdSchema.optional(),
  subjectType: VaultSubjectTypeSchema.optional(),
  subjectId: SubjectIdSchema.optional(),
});

export const AssignmentViewSchema = z.strictObject({
  id: z.string(),
  secretId: z.string(),
  secretName: z.string(),
  workspaceId: z.string(),
  subjectType: VaultSubjectTypeSchema,
  subjectId: z.string(),
  createdAt: z.string(),
});
export type AssignmentView = z.infer<typeof AssignmentViewSchema>;

export const AssignmentResponseSchema = z.strictObject({ assignment: AssignmentViewSchema });
export const AssignmentListResponseSchema = z.strictObject({ assignments: z.array(AssignmentViewSchema) });
export const AssignmentDeleteResponseSchema = z.strictObject({
  deleted: z.literal(true),
  assignment: AssignmentViewSchema,
});

/** `POST /api/vault/access` (spec): a runtime grant of one secret to one skill or app. */
export const AccessBodySchema = z.object({
  action: z.literal('runtime', { error: 'must be "runtime"' }),
  workspaceId: WorkspaceIdSchema,
  secretName: SecretNameSchema,
  subjectType: GrantSubjectTypeSchema,
  subjectId: SubjectIdSchema,
  appSlug: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[a-z0-9][a-z0-9-]*$/, 'must be an app slug (a-z, 0-9, -)')
    .optional(),
  ttlSeconds: z.number().int().min(GRANT_TTL.min).max(GRANT_TTL.max).default(GRANT_TTL.default),
});
export type AccessBody = z.output<typeof AccessBodySchema>;

/** A grant as shown (spec: id, name, status, expiresAt). */
export const GrantViewSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  status: GrantStatusSchema,
  expiresAt: z.string(),
});
export type GrantView = z.infer<typeof GrantViewSchema>;

export const AccessResponseSchema = z.strictObject({ granted: z.literal(true), grant: GrantViewSchema });

/** `POST /api/vault/runtime-grants/consume` (runtime credential only). */
export const ConsumeBodySchema = z.object({
  grantId: z.string().trim().min(1, 'must not be empty').max(100),
  action: z.enum(['consume', 'cleanup']).default('consume'),
});

export const GrantStateViewSchema = z.strictObject({ id: z.string(), status: GrantStatusSchema });
export const ConsumeResponseSchema = z.strictObject({
  secret: z.strictObject({ name: z.string(), value: z.string() }),
  grant: GrantStateViewSchema,
});
export const CleanupResponseSchema = z.strictObject({ grant: GrantStateViewSchema });

/** `GET /api/vault/audit?workspaceId&event&limit&cursor`. */
export const AuditQuerySchema = z.object({
  workspaceId: WorkspaceIdSchema.optional(),
  event: VaultAuditEventSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z
    .string()
    .regex(/^vau_[0-9a-f]{12}_[0-9a-f]{8,32}$/, 'must be a nextCursor from a previous page')
    .optional(),
});
export type AuditQuery = z.output<typeof AuditQuerySchema>;

export const AuditEntryViewSchema = z.strictObject({
  id: z.string(),
  event: VaultAuditEventSchema,
  workspaceId: z.string(),
  secretName: z.string(),
  secretId: z.string().optional(),
  grantId: z.string().optional(),
  subjectType: VaultSubjectTypeSchema.optional(),
  subjectId: z.string().optional(),
  actor: z.strictObject({ kind: z.string(), via: z.string().optional(), ref: z.string().optional() }),
  at: z.string(),
  reason: z.string().optional(),
});
export type AuditEntryView = z.infer<typeof AuditEntryViewSchema>;

export const AuditResponseSchema = z.strictObject({
  entries: z.array(AuditEntryViewSchema),
  nextCursor: z.string().nullable(),
});

/** `POST /api/sdk/credentials`. `scopes` default: all (`vault:consume`, `vault:cleanup`). */
export const CreateCredentialBodySchema = z.object({
  name: displayNameSchema(100),
  scopes: z
    .array(SdkScopeSchema, { error: `must be an array of: ${SDK_SCOPES.join(', ')}` })
    .min(1, `must name at least one of: ${SDK_SCOPES.join(', ')}`)
    .max(SDK_SCOPES.length * 2)
    .transform((scopes) => SDK_SCOPES.filter((s) => scopes.includes(s)))
    .optional(),
  workspaceId: WorkspaceIdSchema.optional(),
  expiresAt: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).optional(),
});
export type CreateCredentialBody = z.output<typeof CreateCredentialBodySchema>;

/** `DELETE /api/sdk/credentials?credentialId=` (or a JSON body). */
export const DeleteCredentialInputSchema = z.object({
  credentialId: z.string().trim().min(1, 'must not be empty').max(100),
});

export const CredentialViewSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  scopes: z.array(SdkScopeSchema),
  workspaceId: z.string().nullable(),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  maskedValue: z.string(),
  status: z.enum(['active', 'revoked']),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().optional(),
});
export type CredentialView = z.infer<typeof CredentialViewSchema>;

export const CredentialRevealResponseSchema = z.strictObject({
  credential: CredentialViewSchema,
  value: z.string(),
  oneTimeReveal: z.literal(true),
});
export const CredentialListResponseSchema = z.strictObject({ credentials: z.array(CredentialViewSchema) });
export const CredentialRevokeResponseSchema = z.strictObject({
  revoked: z.literal(true),
  credential: CredentialViewSchema,
});
