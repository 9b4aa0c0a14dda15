import { Binary } from 'mongodb';
import { z } from 'zod';
import { findUnsafeCharacter } from '../display-text';

/**
 * Governed files (collections `files` and `file_versions`). The model, the limits and the rules are
 * described in docs/files.md; this module holds the stored shapes and the path rules, which the
 * file store (`actors/files`), the `fs_*` tool schemas and the `/api/files` routes share.
 */

const MiB = 1024 * 1024;

/** Limits of the governed file store. The store may be configured lower, never higher. */
export const FILE_LIMITS = Object.freeze({
  /** Largest content of one file, in decoded bytes (well below the 16 MiB BSON document limit). */
  maxFileBytes: 5 * MiB,
  /** Content versions kept per file (the current one included); older ones are pruned. */
  maxVersions: 10,
  /** Longest normalized path, in UTF-8 bytes. */
  maxPathBytes: 512,
  /** Most segments in a path (`a/b/c` has 3). */
  maxDepth: 32,
  /** Longest segment (file or directory name), in UTF-8 bytes. */
  maxSegmentBytes: 255,
  /** Entries per listing page when the caller gives no limit, and the largest page. */
  defaultListLimit: 100,
  maxListLimit: 1000,
});

/** Who may see a file besides its owner: nobody, the members of its workspace, everybody. */
export const FileVisibilitySchema = z.enum(['private', 'workspace', 'public']);
export type FileVisibility = z.infer<typeof FileVisibilitySchema>;

/** How content travels in JSON: UTF-8 text, or base64 for arbitrary bytes. */
export const ContentEncodingSchema = z.enum(['utf8', 'base64']);
export type ContentEncoding = z.infer<typeof ContentEncodingSchema>;

/** A file holds content; a directory is a marker (listing is by path prefix). */
export const FileKindSchema = z.enum(['file', 'dir']);
export type FileKind = z.infer<typeof FileKindSchema>;

/** Internal ids used in owner keys: no separators, no spaces. */
const OwnerIdSchema = z.string().regex(/^[A-Za-z0-9_.-]{1,200}$/);

/**
 * Whose space a file lives in (internal ids: never returned in a body).
 *
 * - `agentId` set: the agent's own space (the `fs_*` tools). `accountId` is the agent's operator
 *   (absent for a self-registered agent) and `workspaceId` its workspace, if any.
 * - otherwise `accountId` is required: the account's space, or with `workspaceId` the account's
 *   space in that workspace (`/api/files`).
 *
 * `workspaceId` is also what `workspace` visibility refers to.
 */
export const FileScopeSchema = z.object({
  accountId: OwnerIdSchema.optional(),
  workspaceId: OwnerIdSchema.optional(),
  agentId: OwnerIdSchema.optional(),
});
export type FileScope = z.infer<typeof FileScopeSchema>;

/** One kept content version of a file, as recorded in its `history` (newest last). */
export const FileHistoryEntrySchema = z.object({
  /** The file's `version` when this state was written. */
  version: z.number().int().positive(),
  /** `_id` of the `file_versions` document holding the bytes (several entries may share one). */
  contentId: z.string().min(1),
  size: z.number().int().nonnegative(),
  /** Hex SHA-256 of the bytes. */
  sha256: z.string().regex(/^[a-f0-9]{64}$/),
  contentEncoding: ContentEncodingSchema,
  contentType: z.string(),
  visibility: FileVisibilitySchema,
  createdAt: z.date(),
});
export type FileHistoryEntry = z.infer<typeof FileHistoryEntrySchema>;

/**
 * One path of one owner space (collection `files`, `_id` `fil_…`), live or deleted. There is
 * exactly one document per (owner space, path), ever: a delete keeps it as a tombstone
 * (`deleted: true`) with its history, and a later write at the same path revives it, so versions
 * of a path only grow. `version` moves by one on every change (optimistic concurrency). For a live
 * file it equals the last `history` entry's version; the top-level content fields repeat that
 * entry.
 */
export const FileDocumentSchema = z.object({
  _id: z.string().min(1),
  version: z.number().int().positive(),
  /** Canonical key of `scope` (unique with `path`): `agent:<id>`, `account:<id>` or `account:<id>:ws:<id>`. */
  ownerKey: z.string().min(1),
  scope: FileScopeSchema,
  /** Normalized path (see `normalizeFilePath`): relative, no trailing slash, case-sensitive. */
  path: z.string().min(1),
  kind: FileKindSchema,
  visibility: FileVisibilitySchema,
  /** Bytes of the current content (0 for a directory). */
  size: z.number().int().nonnegative(),
  contentEncoding: ContentEncodingSchema.optional(),
  contentType: z.string().optional(),
  sha256: z.string().optional(),
  /** `file_versions` id of the current content (files only). */
  contentId: z.string().optional(),
  /** Kept content versions, oldest first, at most `FILE_LIMITS.maxVersions`. */
  history: z.array(FileHistoryEntrySchema).default([]),
  deleted: z.boolean().default(false),
  deletedAt: z.date().optional(),
  createdAt: z.date(),
  updatedAt: z.date(),
});
export type FileDocument = z.infer<typeof FileDocumentSchema>;
export type FileDocumentInput = z.input<typeof FileDocumentSchema>;

/** Bytes stored as BSON Binary; read back as a Buffer. */
const BytesSchema = z
  .custom<Binary | Uint8Array>((v) => v instanceof Binary || v instanceof Uint8Array, {
    message: 'expected binary data',
  })
  .transform((v): Buffer => {
    if (v instanceof Binary) {
      const bytes = v.buffer;
      return Buffer.from(bytes.buffer, bytes.byteOffset, v.length());
    }
    return Buffer.isBuffer(v) ? v : Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  });

/**
 * The bytes of one content version (collection `file_versions`, `_id` `fv_…`). Immutable once
 * written; referenced from the file's `history` and deleted when no kept entry references it.
 */
export const FileVersionDocumentSchema = z.object({
  _id: z.string().min(1),
  fileId: z.string().min(1),
  /** The file version this content was first written at (pruning never touches newer ones). */
  version: z.number().int().positive(),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[a-f0-9]{64}$/),
  data: BytesSchema,
  createdAt: z.date(),
});
export type FileVersionDocument = z.infer<typeof FileVersionDocumentSchema>;
export type FileVersionDocumentInput = z.input<typeof FileVersionDocumentSchema>;

// ---------------------------------------------------------------------------------------------
// Paths
// ---------------------------------------------------------------------------------------------

/** Why a path was refused (`details.reason` of the VALIDATION_ERROR). */
export type FilePathProblem =
  | 'not_string'
  | 'empty'
  | 'absolute'
  | 'parent_segment'
  | 'control_character'
  | 'backslash'
  | 'invalid_unicode'
  | 'too_long'
  | 'too_deep'
  | 'segment_too_long';

export type FilePathCheck =
  | {
      ok: true;
      /** Normalized path; `''` is the root (only with `allowRoot`). */
      path: string;
      /** The input ended with `/` (it names a directory). */
      trailingSlash: boolean;
    }
  | { ok: false; reason: FilePathProblem; message: string };

const DRIVE = /^[A-Za-z]:/;

const refuse = (reason: FilePathProblem, message: string): FilePathCheck => ({ ok: false, reason, message });

/**
 * Normalizes a path of a governed file: `./` segments and repeated slashes collapse, a trailing
 * slash is dropped (and reported), the text is put in Unicode NFC. Refused: non-relative paths
 * (leading `/`, a drive letter), `..` segments anywhere, control characters (NUL included), bidi
 * controls and line separators (the display-name rule of display-text.ts),
 * backslashes, lone surrogates, more than 512 UTF-8 bytes, more than 32 segments, a segment over
 * 255 bytes. Case is kept (paths are case-sensitive). The root (`''`, `.`, `./`) is refused unless
 * `allowRoot` (listings).
 */
export function normalizeFilePath(raw: unknown, options: { allowRoot?: boolean } = {}): FilePathCheck {
  if (typeof raw !== 'string') return refuse('not_string', 'path must be a string');
  // Cheap bound before any work on a huge string (NFC never shrinks text 4-fold).
  if (raw.length > FILE_LIMITS.maxPathBytes * 4) {
    return refuse('too_long', `path must be at most ${FILE_LIMITS.maxPathBytes} bytes`);
  }
  // The display-name rule (display-text.ts): controls, bidi overrides, separators, lone surrogates.
  const unsafe = findUnsafeCharacter(raw);
  if (unsafe) {
    const reason = unsafe.kind === 'surrogate' ? 'invalid_unicode' : 'control_character';
    return refuse(reason, `path ${unsafe.message}`);
  }
  if (raw.includes('\\')) return refuse('backslash', 'path must use / between segments, not \\');
  if (raw.startsWith('/')) return refuse('absolute', 'path must be relative (no leading /)');
  if (DRIVE.test(raw)) return refuse('absolute', 'path must be relative (no drive letter)');
  const segments = raw
    .normalize('NFC')
    .split('/')
    .filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) return refuse('parent_segment', 'path must not contain .. segments');
  if (segments.length === 0) {
    return options.allowRoot
      ? { ok: true, path: '', trailingSlash: true }
      : refuse('empty', 'path must name a file or directory');
  }
  if (segments.length > FILE_LIMITS.maxDepth) {
    return refuse('too_deep', `path must have at most ${FILE_LIMITS.maxDepth} segments`);
  }
  if (segments.some((s) => Buffer.byteLength(s, 'utf8') > FILE_LIMITS.maxSegmentBytes)) {
    return refuse('segment_too_long', `path segments must be at most ${FILE_LIMITS.maxSegmentBytes} bytes`);
  }
  const path = segments.join('/');
  if (Buffer.byteLength(path, 'utf8') > FILE_LIMITS.maxPathBytes) {
    return refuse('too_long', `path must be at most ${FILE_LIMITS.maxPathBytes} bytes`);
  }
  return { ok: true, path, trailingSlash: /\/\.?$/.test(raw) || raw === '.' };
}

/** The parent directories of a normalized path, outermost first: `a/b/c` → `['a', 'a/b']`. */
export function parentPaths(path: string): string[] {
  const segments = path.split('/');
  return segments.slice(0, -1).map((_, i) => segments.slice(0, i + 1).join('/'));
}

/**
 * One path changed by a store operation, and how to undo it:
 * `restoreVersion(scope, { path, version: previousVersion, expectedVersion: version })` puts the
 * path back as it was (`previousVersion: null` = it did not exist). Execution records keep these;
 * a rollback undoes them newest first (`FileStore.rollback`).
 */
export const FileChangeSchema = z.object({
  path: z.string().min(1),
  kind: FileKindSchema,
  /** The path's version after the change. */
  version: z.number().int().positive(),
  /** The version to restore to undo the change; null when the path did not exist (or was deleted). */
  previousVersion: z.number().int().positive().nullable(),
});
export type FileChange = z.infer<typeof FileChangeSchema>;
