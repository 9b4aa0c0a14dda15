import type {
  ContentEncoding,
  FileChange,
  FileKind,
  FileScope,
  FileVisibility,
} from '../../schemas/documents/file';
import type { FileEntry } from '../../schemas/tools/fs';
import type { Logger } from '../../src/logging/logger';
import type { ContentInput } from './file-content';

/** Options, inputs and results of `FileStore` (docs/files.md, "FileStore API"). */

/** Options of `FileStore`. */
export interface FileStoreOptions {
  /** Largest content, in decoded bytes. Default and maximum `FILE_LIMITS.maxFileBytes` (5 MiB). */
  maxFileBytes?: number;
  /** Content versions kept per file. Default `FILE_LIMITS.maxVersions` (10). */
  maxVersions?: number;
  /** Where failed background clean-ups (pruning) are reported. Default: nowhere. */
  logger?: Logger;
  /**
   * Told of every write, rename and delete that succeeded: the space (`ownerKey`) and the paths
   * that changed (the boot broadcasts it: MCP resource subscriptions on every node).
   */
  onChange?: (ownerKey: string, paths: string[]) => void;
}

export interface WriteFileInput extends ContentInput {
  path: string;
  /** Default: the file's current visibility, `private` for a new file. */
  visibility?: FileVisibility;
  /** The version the caller read; 0 = the file must not exist. Omitted: the version just read. */
  expectedVersion?: number;
}

/** Result of every operation that leaves a live file or directory. */
export interface FileChangeResult {
  entry: FileEntry;
  /** The version this operation replaced at `entry.path`; null when nothing was there. */
  previousVersion: number | null;
  /** Every path changed (parents created included), in order: `rollback(scope, changes)` undoes them. */
  changes: FileChange[];
}

export interface WriteFileResult extends FileChangeResult {
  created: boolean;
}

export interface DeleteFileResult {
  path: string;
  kind: FileKind;
  deleted: true;
  version: number;
  previousVersion: number;
  changes: FileChange[];
}

export interface RenameFileResult extends FileChangeResult {
  previousPath: string;
}

export interface RestoreFileResult {
  path: string;
  /** The entry after the restore; null when the restore removed the path. */
  entry: FileEntry | null;
  /** Empty when the path was already in the requested state. */
  changes: FileChange[];
}

export interface VisibleFile {
  /** Safe to send to the viewer. */
  entry: FileEntry;
  /** The viewer owns the file. */
  owned: boolean;
  /** Internal: whose space it is in (map to public references before sending anything). */
  scope: FileScope;
}

export interface FileVersionInfo {
  version: number;
  size: number;
  sha256: string;
  contentEncoding: ContentEncoding;
  contentType: string;
  visibility: FileVisibility;
  createdAt: string;
}

export interface ListFilesInput {
  /** Directory to list; default the root. */
  prefix?: string;
  /** Every descendant rather than the children only. Default false. */
  recursive?: boolean;
  /** Page size, 1..1000; default 100. */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
}

export interface ListVisibleInput {
  /** Only files under this directory. */
  prefix?: string;
  limit?: number;
  cursor?: string;
}
