import { createHash } from 'node:crypto';
import { defineCollection } from '../../src/store/mongo';
import { MemoryEntryDocumentSchema } from '../../schemas/documents/memory';

/**
 * Governed memory (docs/memory.md): entries of an operator account, upserted per (account,
 * namespaceType, namespaceId, key). Collection `memory_entries`, `_id` derived from that tuple
 * (`memoryEntryId`), so that two racing creations of one key are one document.
 */

export const memoryEntriesCollection = defineCollection({
  name: 'memory_entries',
  schema: MemoryEntryDocumentSchema,
  indexes: [
    { key: { accountId: 1, namespaceType: 1, namespaceId: 1, key: 1 }, name: 'owner_namespace_key' },
    { key: { visibility: 1, workspaceId: 1 }, name: 'visibility_workspace' },
  ],
});

export const memoryCollections = [memoryEntriesCollection];

/** The id of the entry of (account, namespace, key). */
export function memoryEntryId(
  accountId: string,
  namespaceType: string,
  namespaceId: string,
  key: string,
): string {
  const hash = createHash('sha256')
    .update(JSON.stringify([accountId, namespaceType, namespaceId, key]))
    .digest('hex');
  return `mem_${hash.slice(0, 32)}`;
}
