import { errors } from '../../schemas/errors';
import { FILE_LIMITS, normalizeFilePath, type FileDocument } from '../../schemas/documents/file';
import type { FileEntry } from '../../schemas/tools/fs';

/** The public view of a file document: no internal ids, ISO timestamps. */
export function fileEntry(doc: FileDocument): FileEntry {
  const entry: FileEntry = {
    path: doc.path,
    kind: doc.kind,
    visibility: doc.visibility,
    size: doc.kind === 'file' ? doc.size : 0,
    version: doc.version,
    createdAt: doc.createdAt.toISOString(),
    updatedAt: doc.updatedAt.toISOString(),
  };
  if (doc.kind === 'file') {
    if (doc.contentEncoding) entry.contentEncoding = doc.contentEncoding;
    if (doc.contentType) entry.contentType = doc.contentType;
    if (doc.sha256) entry.sha256 = doc.sha256;
  }
  return entry;
}

/** A regular expression matching `text` literally. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Paths under directory `dir` (`''` = the root): its children only, or every descendant.
 * A prefix regex (`^dir/`) so that MongoDB can use the `(ownerKey, path)` index.
 */
export function underDirectory(dir: string, recursive: boolean): { $regex: string } {
  const base = dir === '' ? '' : `${escapeRegex(dir)}/`;
  return { $regex: recursive ? `^${base}` : `^${base}[^/]+$` };
}

/** An opaque page cursor: the sort key of the last entry returned. */
export function encodeCursor(key: readonly string[]): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

/** Decodes a cursor of `size` strings; anything else is VALIDATION_ERROR. */
export function decodeCursor(cursor: string, size: number): string[] {
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(key) && key.length === size && key.every((k) => typeof k === 'string')) {
      return key as string[];
    }
  } catch {
    // fall through
  }
  throw errors.validation('Invalid cursor: pass the nextCursor of the previous page', { field: 'cursor' });
}

/** A normalized path, or VALIDATION_ERROR naming the problem (`details: { field, reason }`). */
export function filePath(
  raw: unknown,
  options: { field?: string; allowRoot?: boolean; file?: boolean } = {},
): string {
  const field = options.field ?? 'path';
  const check = normalizeFilePath(raw, { allowRoot: options.allowRoot });
  if (!check.ok)
    throw errors.validation(`Invalid ${field}: ${check.message}`, { field, reason: check.reason });
  if (options.file && check.trailingSlash) {
    throw errors.validation(`Invalid ${field}: a file path must not end with /`, {
      field,
      reason: 'trailing_slash',
    });
  }
  return check.path;
}

/** A page size: the default when absent, VALIDATION_ERROR outside 1..maxListLimit. */
export function pageLimit(limit: number | undefined): number {
  if (limit === undefined) return FILE_LIMITS.defaultListLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > FILE_LIMITS.maxListLimit) {
    throw errors.validation(`limit must be an integer from 1 to ${FILE_LIMITS.maxListLimit}`, {
      field: 'limit',
    });
  }
  return limit;
}
