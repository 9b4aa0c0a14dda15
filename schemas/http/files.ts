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
