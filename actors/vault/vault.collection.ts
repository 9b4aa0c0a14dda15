import { randomBytes } from 'node:crypto';
import {
  SdkCredentialDocumentSchema,
  VaultAssignmentDocumentSchema,
  VaultAuditDocumentSchema,
  VaultGrantDocumentSchema,
  VaultSecretDocumentSchema,
  type SdkCredentialDocument,
  type VaultAssignmentDocument,
  type VaultAuditDocument,
  type VaultGrantDocument,
  type VaultSecretDocument,
} from '../../schemas/documents/vault';
import type {
  AssignmentView,
  AuditEntryView,
  CredentialView,
  GrantView,
  SecretView,
} from '../../schemas/http/vault';
import { defineCollection } from '../../src/store/mongo';

/** How long a finished grant document stays after its `expiresAt` before the TTL index deletes it. */
export const GRANT_GRACE_SECONDS = 24 * 3600;

/**
 * `vault_secrets`: a name is unique per account and workspace (`account_workspace_name_unique`,
 * the 409 of a duplicate, also under a race).
 */
export const secretsCollection = defineCollection({
  name: 'vault_secrets',
  schema: VaultSecretDocumentSchema,
  indexes: [
    {
      key: { accountId: 1, workspaceId: 1, name: 1 },
      name: 'account_workspace_name_unique',
      unique: true,
    },
  ],
});

/** `vault_assignments`: one subject per secret at most once. */
export const assignmentsCollection = defineCollection({
  name: 'vault_assignments',
  schema: VaultAssignmentDocumentSchema,
  indexes: [
    {
      key: { secretId: 1, subjectType: 1, subjectId: 1 },
      name: 'secret_subject_unique',
      unique: true,
    },
    { key: { accountId: 1, createdAt: 1 }, name: 'account_created' },
  ],
});

/**
 * `vault_grants`: the runtime grants (state of the `vault-grant:<id>` actors).
 *
 * - `expires_ttl`: the document is deleted `GRANT_GRACE_SECONDS` after `expiresAt`, whatever
 *   its state (the audit log keeps the history).
 * - `status_expires`: the sweep of active grants past their expiry.
 * - `workspace_status`: panic revokes a workspace's active grants; `secret_status`: a disabled or
 *   deleted secret revokes its grants.
 */
export const grantsCollection = defineCollection({
  name: 'vault_grants',
  schema: VaultGrantDocumentSchema,
  indexes: [
    { key: { expiresAt: 1 }, name: 'expires_ttl', expireAfterSeconds: GRANT_GRACE_SECONDS },
    { key: { status: 1, expiresAt: 1 }, name: 'status_expires' },
    { key: { workspaceId: 1, status: 1 }, name: 'workspace_status' },
    { key: { secretId: 1, status: 1 }, name: 'secret_status' },
    { key: { revokeMark: 1 }, name: 'revoke_mark', sparse: true },
  ],
});

/** `vault_audit`: kept (no TTL); `_id` sorts by time, so pages are `_id` ranges. */
export const auditCollection = defineCollection({
  name: 'vault_audit',
  schema: VaultAuditDocumentSchema,
  indexes: [
    { key: { accountId: 1, _id: -1 }, name: 'account_recent' },
    { key: { accountId: 1, workspaceId: 1, _id: -1 }, name: 'account_workspace_recent' },
  ],
});

/** `sdk_credentials`: a name is unique among an account's active credentials. */
export const credentialsCollection = defineCollection({
  name: 'sdk_credentials',
  schema: SdkCredentialDocumentSchema,
  indexes: [
    {
      key: { accountId: 1, nameKey: 1 },
      name: 'active_name_unique',
      unique: true,
      partialFilterExpression: { status: 'active' },
    },
    { key: { accountId: 1, createdAt: 1 }, name: 'account_created' },
  ],
});

/** Every collection of the vault (indexes ensured at boot). */
export const vaultCollections = [
  secretsCollection,
  assignmentsCollection,
  grantsCollection,
  auditCollection,
  credentialsCollection,
] as const;

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

export const newSecretId = () => `vsec_${hex(12)}`;
export const newAssignmentId = () => `vasg_${hex(12)}`;
/** 128 random bits: a grant id is all a runtime needs (with its credential) to consume. */
export const newGrantId = () => `vgr_${hex(16)}`;
let lastAuditMs = 0;
let auditSeq = 0;
/**
 * Time-ordered: `vau_<ms, 12 hex>_<sequence within the ms on this process, 4 hex><random, 8 hex>`.
 * Entries of one process keep their order within a millisecond; across processes ties are random.
 */
export function newAuditId(at: Date): string {
  const ms = at.getTime();
  auditSeq = ms === lastAuditMs ? (auditSeq + 1) & 0xffff : 0;
  lastAuditMs = ms;
  return `vau_${ms.toString(16).padStart(12, '0')}_${auditSeq.toString(16).padStart(4, '0')}${hex(4)}`;
}

export function secretView(doc: VaultSecretDocument): SecretView {
  return {
    id: doc._id,
    name: doc.name,
    status: doc.status,
    workspaceId: doc.workspaceId,
    maskedValue: doc.maskedValue,
    version: doc.valueVersion,
    createdAt: doc.createdAt.toISOString(),
    updatedAt: doc.updatedAt.toISOString(),
  };
}

export function assignmentView(doc: VaultAssignmentDocument, secretName: string): AssignmentView {
  return {
    id: doc._id,
    secretId: doc.secretId,
    secretName,
    workspaceId: doc.workspaceId,
    subjectType: doc.subjectType,
    subjectId: doc.subjectId,
    createdAt: doc.createdAt.toISOString(),
  };
}

export function grantView(doc: VaultGrantDocument): GrantView {
  return { id: doc._id, name: doc.secretName, status: doc.status, expiresAt: doc.expiresAt.toISOString() };
}

export function auditEntryView(doc: VaultAuditDocument): AuditEntryView {
  return {
    id: doc._id,
    event: doc.event,
    workspaceId: doc.workspaceId,
    secretName: doc.secretName,
    ...(doc.secretId ? { secretId: doc.secretId } : {}),
    ...(doc.grantId ? { grantId: doc.grantId } : {}),
    ...(doc.subjectType ? { subjectType: doc.subjectType } : {}),
    ...(doc.subjectId ? { subjectId: doc.subjectId } : {}),
    actor: doc.actor,
    at: doc.at.toISOString(),
    ...(doc.reason ? { reason: doc.reason } : {}),
  };
}

export function credentialView(doc: SdkCredentialDocument): CredentialView {
  return {
    id: doc._id,
    name: doc.name,
    scopes: doc.scopes,
    workspaceId: doc.workspaceId ?? null,
    expiresAt: doc.expiresAt?.toISOString() ?? null,
    createdAt: doc.createdAt.toISOString(),
    maskedValue: doc.maskedValue,
    status: doc.status,
    lastUsedAt: doc.lastUsedAt?.toISOString() ?? null,
    ...(doc.revokedAt ? { revokedAt: doc.revokedAt.toISOString() } : {}),
  };
}
