import { z } from 'zod';
import { SdkScopeSchema } from '../documents/vault';
import {
  AccessBodySchema,
  AssignmentBodySchema,
  AuditQuerySchema,
  CreateCredentialBodySchema,
  CredentialViewSchema,
  DeleteCredentialInputSchema,
  DeleteSecretInputSchema,
  GrantStateViewSchema,
  ListAssignmentsQuerySchema,
  ListSecretsQuerySchema,
  SecretIdSchema,
  SecretNameSchema,
  WorkspaceIdSchema,
} from '../http/vault';

/**
 * Messages of the vault actors (docs/vault.md):
 *
 * - `vault:<accountId>`: one account's secrets, assignments, access decisions and audit log.
 * - `vault-grant:<grantId>`: one runtime grant (consume once, clean up).
 * - `sdk-credentials:<accountId>`: one account's runtime credentials.
 *
 * A secret value never travels in clear between the front door and the actors: it is sealed for
 * transit (`sealedValue`, AES-256-GCM under a key derived from VAULT_MASTER_KEY and bound to the
 * purpose and the account or grant), so the broker, its dead-letter queues and the kernel's dedupe
 * records only ever see ciphertext.
 */

/** A value sealed for transit (`v1.<iv>.<tag>.<ciphertext>`). */
export const SealedValueSchema = z.string().min(1).max(200_000);

export const VaultCreateMessageSchema = z.object({
  workspaceId: WorkspaceIdSchema.optional(),
  name: SecretNameSchema,
  sealedValue: SealedValueSchema,
});
export const VaultListMessageSchema = ListSecretsQuerySchema;
export const VaultUpdateMessageSchema = z.object({
  secretId: SecretIdSchema,
  action: z.enum(['disable', 'enable', 'rotate']),
  sealedValue: SealedValueSchema.optional(),
});
export const VaultDeleteMessageSchema = DeleteSecretInputSchema;
export const VaultAssignMessageSchema = AssignmentBodySchema;
export const VaultAssignmentsMessageSchema = ListAssignmentsQuerySchema;
export const VaultUnassignMessageSchema = AssignmentBodySchema;
export const VaultAccessMessageSchema = AccessBodySchema;
export const VaultAuditMessageSchema = AuditQuerySchema;

export const GrantConsumeMessageSchema = z.object({});
export const GrantCleanupMessageSchema = z.object({});

/** Reply of `vault-grant.consume`: the value sealed for transit, bound to the grant id. */
export const GrantConsumeReplySchema = z.object({
  secret: z.object({ name: z.string(), sealedValue: SealedValueSchema }),
  grant: GrantStateViewSchema,
});
export type GrantConsumeReply = z.infer<typeof GrantConsumeReplySchema>;

export const CredentialsCreateMessageSchema = CreateCredentialBodySchema;
export const CredentialsListMessageSchema = z.object({});
export const CredentialsRevokeMessageSchema = DeleteCredentialInputSchema;

/** Reply of `sdk-credentials.create`: the value sealed for transit, bound to the credential id. */
export const CredentialsCreateReplySchema = z.object({
  credential: CredentialViewSchema,
  sealedValue: SealedValueSchema,
});
export type CredentialsCreateReply = z.infer<typeof CredentialsCreateReplySchema>;

/**
 * The caller of `vault-grant:<id>` messages: a verified runtime credential, never a user. Put in
 * the envelope's `auth` by the consume route, or by the service's own skill runtime
 * (`via: 'skill_runtime'`, `credentialId: 'skill-runtime'`), which consumes a grant it was just
 * given inside a skill's use (docs/skills.md, "Secrets"). It does not parse as a `Principal`
 * (schemas/auth.ts), so no other actor accepts it.
 */
export const RuntimeAuthSchema = z.object({
  subjectType: z.literal('runtime'),
  via: z.enum(['runtime_credential', 'skill_runtime']),
  accountId: z.string().min(1),
  credentialId: z.string().min(1),
  scopes: z.array(SdkScopeSchema),
  workspaceId: z.string().optional(),
});
export type RuntimeAuth = z.infer<typeof RuntimeAuthSchema>;
