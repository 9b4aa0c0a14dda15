import { z } from 'zod';

/** Governed memory entries (docs/memory.md): their enums, limits and document. */

export const MEMORY_NAMESPACE_TYPES = [
  'user',
  'agent',
  'subagent',
  'workspace',
  'workflow',
  'app',
  'skill',
] as const;
export const MemoryNamespaceTypeSchema = z.enum(MEMORY_NAMESPACE_TYPES);
export type MemoryNamespaceType = z.infer<typeof MemoryNamespaceTypeSchema>;

export const MemoryVisibilitySchema = z.enum(['private', 'workspace', 'public']);
export type MemoryVisibility = z.infer<typeof MemoryVisibilitySchema>;

export const MEMORY_LIMITS = Object.freeze({
  /** Characters of a key. */
  maxKey: 256,
  /** Characters of a namespace id. */
  maxNamespaceId: 128,
  /** Characters of the content's JSON text (a string counts with its quotes). */
  maxContentChars: 64 * 1024,
  maxTags: 20,
  maxTag: 64,
  defaultListLimit: 100,
  maxListLimit: 1000,
  /** The namespace id when none is given. */
  defaultNamespaceId: 'default',
});

export const MemoryEntryDocumentSchema = z.object({
  _id: z.string().regex(/^mem_[a-f0-9]{32}$/),
  /** The owner account (internal, never returned). */
  accountId: z.string(),
  /** The workspace the entry belongs to (for `workspace` visibility): the account's default unless given. */
  workspaceId: z.string(),
  namespaceType: MemoryNamespaceTypeSchema,
  namespaceId: z.string(),
  key: z.string(),
  /** The content as JSON text (a string or any JSON value), so that no key of it reaches the query language. */
  contentJson: z.string(),
  visibility: MemoryVisibilitySchema,
  tags: z.array(z.string()),
  /** Lower-case key, tags and content, for `search`. */
  searchText: z.string(),
  createdAt: z.date(),
  updatedAt: z.date(),
  version: z.number().int().nonnegative(),
  /**
   * Set by a rollback: the version whose state it put back (this entry holds that state under a
   * new version). The rollback of the change that made that version still applies. Every write
   * clears it.
   */
  restoredFrom: z.number().int().nonnegative().optional(),
});
export type MemoryEntryDocument = z.infer<typeof MemoryEntryDocumentSchema>;
