import { randomBytes } from 'node:crypto';
import { FileDocumentSchema, FileVersionDocumentSchema } from '../../schemas/documents/file';
import { defineCollection } from '../../src/store/mongo';

/**
 * `files`: one document per (owner space, path), live or deleted (docs/files.md).
 *
 * - `owner_path_unique`: one document per path of a space; it is what makes a create race, and a
 *   file/directory clash at the same path, a CONFLICT rather than a duplicate.
 * - `account_path`, `visibility_workspace_path`: the visibility-aware listing across spaces.
 */
export const filesCollection = defineCollection({
  name: 'files',
  schema: FileDocumentSchema,
  indexes: [
    { key: { ownerKey: 1, path: 1 }, name: 'owner_path_unique', unique: true },
    { key: { 'scope.accountId': 1, path: 1 }, name: 'account_path' },
    { key: { visibility: 1, 'scope.workspaceId': 1, path: 1 }, name: 'visibility_workspace_path' },
  ],
});

/** `file_versions`: the bytes of each kept content version (BSON Binary, at most 5 MiB each). */
export const fileVersionsCollection = defineCollection({
  name: 'file_versions',
  schema: FileVersionDocumentSchema,
  indexes: [{ key: { fileId: 1, version: 1 }, name: 'file_version' }],
});

/** The governed files' collections, for the boot's index list. */
export const filesCollections = [filesCollection, fileVersionsCollection];

export function newFileId(): string {
  return `fil_${randomBytes(12).toString('hex')}`;
}

export function newFileVersionId(): string {
  return `fv_${randomBytes(12).toString('hex')}`;
}
