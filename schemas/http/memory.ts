import { z } from 'zod';
import { MEMORY_LIMITS, MemoryNamespaceTypeSchema, MemoryVisibilitySchema } from '../documents/memory';

/** `/api/memory` (docs/memory.md): the query and body of each route. */

export const MemoryKeySchema = z.string().min(1).max(MEMORY_LIMITS.maxKey);

export const MemoryNamespaceIdSchema = z.string().min(1).max(MEMORY_LIMITS.maxNamespaceId);

export const MemoryListQuerySchema = z.object({
  search: z.string().min(1).max(200).optional(),
  namespaceType: MemoryNamespaceTypeSchema.optional(),
  namespaceId: MemoryNamespaceIdSchema.optional(),
  export: z.enum(['1', 'true', '0', 'false']).optional(),
  limit: z.coerce.number().int().min(1).max(MEMORY_LIMITS.maxListLimit).optional(),
});

export const MemoryWriteBodySchema = z.object({
  key: MemoryKeySchema,
  content: z.unknown().refine((v) => v !== undefined && v !== null, { message: 'content is required' }),
  namespaceType: MemoryNamespaceTypeSchema.default('user'),
  namespaceId: MemoryNamespaceIdSchema.optional(),
  visibility: MemoryVisibilitySchema.optional(),
  tags: z.array(z.string().min(1).max(MEMORY_LIMITS.maxTag)).max(MEMORY_LIMITS.maxTags).optional(),
  workspaceId: z.string().min(1).max(200).optional(),
});

export const MemoryDeleteQuerySchema = z.object({
  key: MemoryKeySchema,
  namespaceType: MemoryNamespaceTypeSchema.default('user'),
  namespaceId: MemoryNamespaceIdSchema.optional(),
});

// ---- responses ----

/** One entry as the HTTP API shows it (`owned`: the caller may change it). */
export const MemoryEntryViewSchema = z.object({
  key: z.string(),
  namespaceType: MemoryNamespaceTypeSchema,
  namespaceId: z.string(),
  visibility: MemoryVisibilitySchema,
  content: z.unknown(),
  tags: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
  version: z.number().int(),
  owned: z.boolean(),
});

export const MemoryListResponseSchema = z.object({
  entries: z.array(MemoryEntryViewSchema),
  /** The calling agent's id (its own `agent` namespace), null for an account. */
  viewerAgentId: z.string().nullable(),
});

/** `GET /api/memory?export=1`. */
export const MemoryExportResponseSchema = z.object({
  exportedAt: z.string(),
  format: z.literal('ars.memory.v1'),
  entries: z.array(MemoryEntryViewSchema),
});
