import { z } from 'zod';
import {
  ContentEncodingSchema,
  FILE_LIMITS,
  FileKindSchema,
  FileVisibilitySchema,
  normalizeFilePath,
} from '../documents/file';

/**
 * Inputs and results of the file tools `fs_write`, `fs_read`, `fs_stat`, `fs_list`, `fs_delete`
 * and `fs_mkdir`. The tool router reuses the input schemas as the tools' `inputSchema` (each one is
 * a `z.object` with refinements only, no transforms); the tools (`actors/files/fs-tools.ts`)
 * validate every call with them. Paths follow `normalizeFilePath` (docs/files.md). Sizes are not
 * checked here: content over `FILE_LIMITS.maxFileBytes` decoded bytes is refused by the store with
 * PAYLOAD_TOO_LARGE (413), like any oversized request body.
 */

// A strict base64 alphabet with optional padding (no whitespace, no base64url).
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** True when `s` is base64 the store will decode exactly (padding optional, never misplaced). */
export function isStrictBase64(s: string): boolean {
  if (!BASE64.test(s) || s.length % 4 === 1) return false;
  return !s.includes('=') || s.length % 4 === 0;
}

function pathField(options: { allowRoot?: boolean; file?: boolean }, description: string) {
  return z
    .string()
    .max(FILE_LIMITS.maxPathBytes * 4)
    .superRefine((raw, ctx) => {
      const check = normalizeFilePath(raw, options);
      if (!check.ok) ctx.addIssue({ code: 'custom', message: check.message });
      else if (options.file && check.trailingSlash) {
        ctx.addIssue({ code: 'custom', message: 'a file path must not end with /' });
      }
    })
    .describe(description);
}

const PATH_RULES = 'Relative path, / between segments; .. and absolute paths are refused.';

/** `fs_write`: creates or replaces a file (a new version), creating parent directories. */
export const FsWriteInputSchema = z
  .object({
    path: pathField({ file: true }, `File to write. ${PATH_RULES}`),
    data: z
      .string()
      .optional()
      .describe('Content as base64 (or as text with encoding "utf8"). Give data or content, not both.'),
    content: z.string().optional().describe('Content as UTF-8 text. Give data or content, not both.'),
    encoding: ContentEncodingSchema.optional().describe(
      'How `data` is encoded: base64 (default) or utf8. With `content` only utf8 applies.',
    ),
  })
  .superRefine((input, ctx) => {
    if ((input.data === undefined) === (input.content === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['data'],
        message: 'give exactly one of data (base64) or content (utf8)',
      });
      return;
    }
    if (input.content !== undefined && input.encoding === 'base64') {
      ctx.addIssue({
        code: 'custom',
        path: ['encoding'],
        message: 'content is UTF-8 text: send base64 as data',
      });
    }
    if (
      input.data !== undefined &&
      (input.encoding ?? 'base64') === 'base64' &&
      !isStrictBase64(input.data)
    ) {
      ctx.addIssue({ code: 'custom', path: ['data'], message: 'is not valid base64' });
    }
  });

/** `fs_read`: the current content of a file. */
export const FsReadInputSchema = z.object({
  path: pathField({ file: true }, `File to read. ${PATH_RULES}`),
  encoding: ContentEncodingSchema.optional().describe(
    'Encoding of the returned `data`: utf8 or base64 (default: the encoding the file was written with). ' +
      'utf8 is refused for bytes that are not valid UTF-8.',
  ),
});

/** `fs_stat`: metadata of a file or directory. */
export const FsStatInputSchema = z.object({
  path: pathField({}, `File or directory. ${PATH_RULES}`),
});

/** `fs_list`: the entries of a directory (its children, or all descendants with `recursive`). */
export const FsListInputSchema = z.object({
  path: pathField({ allowRoot: true }, `Directory to list (default: the root). ${PATH_RULES}`).optional(),
  recursive: z.boolean().optional().describe('List every descendant, not only children (default false).'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(FILE_LIMITS.maxListLimit)
    .optional()
    .describe(`Most entries returned (default ${FILE_LIMITS.defaultListLimit}).`),
  cursor: z.string().max(4096).optional().describe('`nextCursor` of the previous page.'),
});

/** `fs_delete`: deletes a file or an empty directory (its versions are kept for rollback). */
export const FsDeleteInputSchema = z.object({
  path: pathField({}, `File or empty directory to delete. ${PATH_RULES}`),
});

/** `fs_mkdir`: creates a directory and its parents; an existing directory is not an error. */
export const FsMkdirInputSchema = z.object({
  path: pathField({}, `Directory to create. ${PATH_RULES}`),
});

export type FsWriteInput = z.output<typeof FsWriteInputSchema>;
export type FsReadInput = z.output<typeof FsReadInputSchema>;
export type FsStatInput = z.output<typeof FsStatInputSchema>;
export type FsListInput = z.output<typeof FsListInputSchema>;
export type FsDeleteInput = z.output<typeof FsDeleteInputSchema>;
export type FsMkdirInput = z.output<typeof FsMkdirInputSchema>;

// ---------------------------------------------------------------------------------------------
// Results (also the views of the file store)
// ---------------------------------------------------------------------------------------------

/** Public view of a file or directory: no internal ids, timestamps as ISO strings. */
export const FileEntrySchema = z.object({
  /** Normalized path (a directory has no trailing slash; see `kind`). */
  path: z.string(),
  kind: FileKindSchema,
  visibility: FileVisibilitySchema,
  /** Content bytes (0 for a directory). */
  size: z.number().int().nonnegative(),
  /** Changes by one on every write, delete, restore or visibility change: the optimistic-concurrency token. */
  version: z.number().int().positive(),
  /** Files only: the encoding the content was written with (the default encoding of reads). */
  contentEncoding: ContentEncodingSchema.optional(),
  /** Files only: guessed from the extension. */
  contentType: z.string().optional(),
  /** Files only: hex SHA-256 of the content. */
  sha256: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type FileEntry = z.infer<typeof FileEntrySchema>;

/** `fs_write`: the file after the write. */
export const FsWriteResultSchema = FileEntrySchema.extend({
  /** False when an existing file was replaced. */
  created: z.boolean(),
  /** Version of the replaced content; null when the file did not exist. */
  previousVersion: z.number().int().positive().nullable(),
});
export type FsWriteResult = z.infer<typeof FsWriteResultSchema>;

/** `fs_read`. */
export const FsReadResultSchema = z.object({
  path: z.string(),
  data: z.string(),
  contentEncoding: ContentEncodingSchema,
  size: z.number().int().nonnegative(),
  /** Version of the content returned. */
  version: z.number().int().positive(),
  contentType: z.string(),
  sha256: z.string(),
});
export type FsReadResult = z.infer<typeof FsReadResultSchema>;

/** `fs_stat`: the entry. */
export const FsStatResultSchema = FileEntrySchema;

/** `fs_list`: one page of entries, sorted by path. */
export const FsListResultSchema = z.object({
  /** The directory listed (`''` = the root). */
  path: z.string(),
  entries: z.array(FileEntrySchema),
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type FsListResult = z.infer<typeof FsListResultSchema>;

/** `fs_delete`. */
export const FsDeleteResultSchema = z.object({
  path: z.string(),
  kind: FileKindSchema,
  deleted: z.literal(true),
  /** The path's version after the delete. */
  version: z.number().int().positive(),
  /** The version a restore brings back (the deleted content, or the directory). */
  previousVersion: z.number().int().positive(),
});
export type FsDeleteResult = z.infer<typeof FsDeleteResultSchema>;

/** `fs_mkdir`: the directory. */
export const FsMkdirResultSchema = FileEntrySchema.extend({
  /** False when the directory already existed. */
  created: z.boolean(),
});
export type FsMkdirResult = z.infer<typeof FsMkdirResultSchema>;
