import { z } from 'zod';
import { ContentEncodingSchema, FileVisibilitySchema } from '../documents/file';

/** `/api/files` (docs/files.md): the query and body of each route. */

const RefSchema = z.string().min(1).max(200);

export const FilesListQuerySchema = z.object({
  action: z.enum(['list', 'preview', 'summarize']).optional(),
  path: z.string().max(2048).optional(),
  prefix: z.string().max(2048).optional(),
  text: z.string().min(1).max(200).optional(),
  visibility: FileVisibilitySchema.optional(),
  workspaceId: RefSchema.optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  cursor: z.string().max(2048).optional(),
});

export const FileWriteBodySchema = z.object({
  path: z.string().min(1).max(2048),
  data: z.string(),
  contentEncoding: ContentEncodingSchema.default('utf8'),
  visibility: FileVisibilitySchema.optional(),
  workspaceId: RefSchema.optional(),
});

export const FileRenameBodySchema = z.object({
  path: z.string().min(1).max(2048),
  nextPath: z.string().min(1).max(2048),
  workspaceId: RefSchema.optional(),
});

export const FileDeleteQuerySchema = z.object({
  path: z.string().min(1).max(2048),
  workspaceId: RefSchema.optional(),
});

// ---- responses ----

/** A file as the HTTP API shows it (`owned`: the caller's own space, so it may change it). */
export const FileListItemSchema = z.object({
  path: z.string(),
  visibility: FileVisibilitySchema,
  size: z.number().int().nonnegative(),
  contentEncoding: z.string().nullable(),
  contentType: z.string().nullable(),
  version: z.number().int().positive(),
  updatedAt: z.string(),
  owned: z.boolean(),
});

export const FileListResponseSchema = z.object({
  entries: z.array(FileListItemSchema),
  nextCursor: z.string().nullable(),
});

/** `GET /api/files?action=preview`: the first bytes, as text when written as utf8 text. */
export const FilePreviewResponseSchema = z.object({
  entry: FileListItemSchema,
  contentEncoding: ContentEncodingSchema,
  content: z.string(),
  truncated: z.boolean(),
});

/** `GET /api/files?action=summarize`: a summary computed without a model. */
export const FileSummaryResponseSchema = z.object({
  entry: FileListItemSchema,
  summary: z.object({
    size: z.number().int().nonnegative(),
    type: z.string(),
    text: z.boolean(),
    lineCount: z.number().int().nullable(),
    firstLines: z.array(z.string()),
  }),
});
