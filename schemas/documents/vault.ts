import { z } from 'zod';

/**
 * Documents of the secret vault (docs/vault.md). No document holds a secret value in clear: values
 * are sealed (AES-256-GCM, `v1.<iv>.<tag>.<ciphertext>`), runtime credentials are kept as a sha256.
 */

/** A secret's name: upper-case letters, digits and `_`, 2 to 120 characters (COMPATIBILITY). */
export const SECRET_NAME_PATTERN = /^[A-Z0-9_]{2,120}$/;

/** Kinds of subject a secret can be assigned to. */
export const VAULT_SUBJECT_TYPES = ['skill', 'app', 'agent', 'workflow'] as const;
export const VaultSubjectTypeSchema = z.enum(VAULT_SUBJECT_TYPES);
export type VaultSubjectType = z.infer<typeof VaultSubjectTypeSchema>;

/** Kinds of subject a runtime grant can be issued to (the spec: skill or app). */
export const GRANT_SUBJECT_TYPES = ['skill', 'app'] as const;
export const GrantSubjectTypeSchema = z.enum(GRANT_SUBJECT_TYPES);

export const SecretStatusSchema = z.enum(['active', 'disabled']);
export type SecretStatus = z.infer<typeof SecretStatusSchema>;

/** `vault_secrets`: one secret of an account in one workspace. */
export const VaultSecretDocumentSchema = z.object({
  /** Public id `vsec_…`. */
  _id: z.string().min(1),
  /** Concurrency counter, owned by the repository helpers. */
  version: z.number().int().nonnegative(),
  accountId: z.string().min(1),
  workspaceId: z.string().min(1),
  name: z.string().regex(SECRET_NAME_PATTERN),
  status: SecretStatusSchema,
  /** The value, sealed with the vault key; AAD = account, secret id and `valueVersion`. */
  sealedValue: z.string().min(1),
  /** 1 at creation, +1 per rotation: shown as `version`, bound into the ciphertext. */
  valueVersion: z.number().int().positive(),
  /** What is shown instead of the value (`••••` and at most the last 2 characters of a long value). */
  maskedValue: z.string(),
  createdAt: z.date(),
  updatedAt: z.date(),
});
export type VaultSecretDocument = z.infer<typeof VaultSecretDocumentSchema>;

/** `vault_assignments`: a secret may be used by a subject (skill, app, agent, workflow). */
export const VaultAssignmentDocumentSchema = z.object({
  /** Public id `vasg_…`. */
  _id: z.string().min(1),
  accountId: z.string().min(1),
  workspaceId: z.string().min(1),
  secretId: z.string().min(1),
  subjectType: VaultSubjectTypeSchema,
  subjectId: z.string().min(1),
  createdAt: z.date(),
});
export type VaultAssignmentDocument = z.infer<typeof VaultAssignmentDocumentSchema>;

/**
 * States of a runtime grant: `active` until consumed (once), cleaned up (`revoked`), revoked by a
 * panic, a disabled/deleted secret or a removed assignment (`revoked`), or past `expiresAt`
 * (`expired`). Every move out of `active` is a conditional write: exactly one wins.
 */
export const GrantStatusSchema = z.enum(['active', 'consumed', 'revoked', 'expired']);
export type GrantStatus = z.infer<typeof GrantStatusSchema>;

/** Why a grant was revoked. */
export const RevokeReasonSchema = z.enum([
  'cleanup',
  'panic',
  'secret_disabled',
  'secret_deleted',
  'unassigned',
]);
export type RevokeReason = z.infer<typeof RevokeReasonSchema>;

/** Who did something, as the audit log shows it: a kind and a public reference (never an internal id). */
export const AuditActorSchema = z.object({
  kind: z.enum(['account', 'named_token', 'agent', 'runtime', 'system']),
  /** `session` or `bearer` for accounts. */
  via: z.string().optional(),
  /** A public reference: `ntk_…`, `agref-…`, `sdc_…`, or `panic` / `expiry` for the system. */
  ref: z.string().optional(),
});
export type AuditActor = z.infer<typeof AuditActorSchema>;

/** `vault_grants`: one runtime grant (the state of the `vault-grant:<id>` actor). */
export const VaultGrantDocumentSchema = z.object({
  /** Public id `vgr_…`. */
  _id: z.string().min(1),
  version: z.number().int().nonnegative(),
  accountId: z.string().min(1),
  workspaceId: z.string().min(1),
  secretId: z.string().min(1),
  secretName: z.string().min(1),
  subjectType: GrantSubjectTypeSchema,
  subjectId: z.string().min(1),
  appSlug: z.string().optional(),
  status: GrantStatusSchema,
  createdAt: z.date(),
  /** After it the grant is refused; the TTL index deletes the document a grace period later. */
  expiresAt: z.date(),
  requestedBy: AuditActorSchema,
  consumedAt: z.date().optional(),
  revokedAt: z.date().optional(),
  revokedReason: RevokeReasonSchema.optional(),
  expiredAt: z.date().optional(),
  /** Marks the grants one bulk revocation changed, so that it can audit exactly those. */
  revokeMark: z.string().optional(),
});
export type VaultGrantDocument = z.infer<typeof VaultGrantDocumentSchema>;

/** Events of the vault audit log. */
export const VAULT_AUDIT_EVENTS = [
  // Runtime grants.
  'granted',
  'denied',
  'consumed',
  'cleaned',
  'revoked',
  'expired',
  // Secret management.
  'created',
  'rotated',
  'disabled',
  'enabled',
  'deleted',
  'assigned',
  'unassigned',
] as const;
export const VaultAuditEventSchema = z.enum(VAULT_AUDIT_EVENTS);
export type VaultAuditEvent = z.infer<typeof VaultAuditEventSchema>;

/** `vault_audit`: one event; never a value. `_id` sorts by time (`vau_<ms hex>_<random>`). */
export const VaultAuditDocumentSchema = z.object({
  _id: z.string().min(1),
  accountId: z.string().min(1),
  workspaceId: z.string().min(1),
  event: VaultAuditEventSchema,
  secretName: z.string().min(1),
  secretId: z.string().optional(),
  grantId: z.string().optional(),
  subjectType: VaultSubjectTypeSchema.optional(),
  subjectId: z.string().optional(),
  actor: AuditActorSchema,
  at: z.date(),
  /** Why: a denial's reason code, a revocation's reason. */
  reason: z.string().optional(),
});
export type VaultAuditDocument = z.infer<typeof VaultAuditDocumentSchema>;

/** Scopes of a runtime credential. */
export const SDK_SCOPES = ['vault:consume', 'vault:cleanup'] as const;
export const SdkScopeSchema = z.enum(SDK_SCOPES);
export type SdkScope = z.infer<typeof SdkScopeSchema>;

/** `sdk_credentials`: runtime credentials (`sdk_<id>_<secret>`), stored as a hash only. */
export const SdkCredentialDocumentSchema = z.object({
  /** Public id `sdc_<24 hex>`; the value embeds the 24 hex characters. */
  _id: z.string().min(1),
  version: z.number().int().nonnegative(),
  accountId: z.string().min(1),
  name: z.string().min(1),
  /** `name` lower-cased: unique among the account's active credentials. */
  nameKey: z.string().min(1),
  scopes: z.array(SdkScopeSchema),
  /** Restricts the credential to the grants of one workspace. */
  workspaceId: z.string().optional(),
  expiresAt: z.date().optional(),
  /** sha256 (hex) of the secret part of the value. */
  secretHash: z.string().regex(/^[0-9a-f]{64}$/),
  maskedValue: z.string(),
  status: z.enum(['active', 'revoked']),
  createdAt: z.date(),
  revokedAt: z.date().optional(),
  lastUsedAt: z.date().optional(),
});
export type SdkCredentialDocument = z.infer<typeof SdkCredentialDocumentSchema>;
