import { errors, isAppError } from '../../schemas/errors';
import {
  FILE_LIMITS,
  type ContentEncoding,
  type FileChange,
  type FileScope,
  type FileVisibility,
} from '../../schemas/documents/file';
import type { FileEntry, FsListResult, FsReadResult } from '../../schemas/tools/fs';
import type { DocumentStore, IndexReport } from '../../src/store/mongo';
import { decodeContent, encodeContent, guessContentType } from './file-content';
import { listDirectory, listFileVersions, listVisibleFiles } from './file-listing';
import { checkVisibility, ownerSpace, type FileViewer } from './file-scope';
import type {
  DeleteFileResult,
  FileChangeResult,
  FileStoreOptions,
  FileVersionInfo,
  ListFilesInput,
  ListVisibleInput,
  RenameFileResult,
  RestoreFileResult,
  VisibleFile,
  WriteFileInput,
  WriteFileResult,
} from './file-store.types';
import { renameFile } from './file-rename';
import { deleteFileDoc, restoreFileVersion, type RestoreVersionInput } from './file-restore';
import { fileEntry, filePath } from './file-views';
import { filesCollections } from './files.collection';
import { FilesRepo, checkExpected, isDirectoryError, notFound, versionNotKept } from './files.repo';

export type * from './file-store.types';

/** `{ownerKey, paths}`: files of that space were written, renamed or deleted (FileStoreOptions.onChange). */
export const FILES_CHANGED_BROADCAST = 'files.changed';

/**
 * The governed file store (docs/files.md): files and directories per owner space in MongoDB,
 * versioned, with optimistic concurrency on every change. The `fs_*` tools work in an agent's
 * space; `/api/files` in an account's or workspace's. Every mutation returns the `changes` a
 * rollback needs.
 */
export class FileStore {
  private readonly repo: FilesRepo;
  private readonly maxFileBytes: number;
  private readonly onChange: FileStoreOptions['onChange'];

  constructor(
    private readonly documents: DocumentStore,
    options: FileStoreOptions = {},
  ) {
    this.onChange = options.onChange;
    this.maxFileBytes = Math.min(options.maxFileBytes ?? FILE_LIMITS.maxFileBytes, FILE_LIMITS.maxFileBytes);
    const maxVersions = Math.max(1, options.maxVersions ?? FILE_LIMITS.maxVersions);
    this.repo = new FilesRepo(documents, maxVersions, options.logger);
  }

  /** Creates the collections' indexes (the boot does it for every collection; tests call this). */
  ensureIndexes(): Promise<IndexReport[]> {
    return this.documents.ensureIndexes(filesCollections);
  }

  /** Creates or replaces a file (a new version), creating its parent directories. */
  async write(scope: FileScope, input: WriteFileInput): Promise<WriteFileResult> {
    const space = ownerSpace(scope);
    const path = filePath(input.path, { file: true });
    const { bytes, contentEncoding } = decodeContent(input, this.maxFileBytes);
    if (input.visibility) checkVisibility(space, input.visibility);
    const base = await this.repo.find(space, path);
    const live = base !== null && !base.deleted;
    if (live && base.kind === 'dir') throw isDirectoryError(path);
    checkExpected(path, base, input.expectedVersion);
    const parents = await this.repo.ensureParents(space, path);
    try {
      const doc = await this.repo.commitFile(space, path, base, {
        bytes,
        contentEncoding,
        contentType: guessContentType(path, contentEncoding),
        visibility: input.visibility ?? (live ? base.visibility : 'private'),
      });
      const previousVersion = live ? base.version : null;
      this.onChange?.(space.ownerKey, [path]);
      return {
        entry: fileEntry(doc),
        created: !live,
        previousVersion,
        changes: [...parents, { path, kind: 'file', version: doc.version, previousVersion }],
      };
    } catch (err) {
      await this.undo(scope, parents);
      throw err;
    }
  }

  /** A file's content: the current version, or a kept older one (also of a deleted file). */
  async read(
    scope: FileScope,
    input: { path: string; version?: number; encoding?: ContentEncoding },
  ): Promise<FsReadResult> {
    const space = ownerSpace(scope);
    const path = filePath(input.path, { file: true });
    const doc = await this.repo.find(space, path);
    if (!doc || (doc.deleted && input.version === undefined)) throw notFound(path);
    if (input.version === undefined && doc.kind === 'dir') throw isDirectoryError(path);
    const entry =
      input.version === undefined ? doc.history.at(-1) : doc.history.find((h) => h.version === input.version);
    if (!entry) throw versionNotKept(path, input.version ?? doc.version, doc);
    const stored = await this.repo.versions.findById(entry.contentId);
    if (!stored) throw errors.internal(`content of ${path} version ${entry.version} is missing`);
    const contentEncoding = input.encoding ?? entry.contentEncoding;
    return {
      path,
      data: encodeContent(stored.data, contentEncoding),
      contentEncoding,
      size: entry.size,
      version: entry.version,
      contentType: entry.contentType,
      sha256: entry.sha256,
    };
  }

  /** The entry of a live file or directory, or NOT_FOUND. */
  async stat(scope: FileScope, input: { path: string }): Promise<FileEntry> {
    const space = ownerSpace(scope);
    return fileEntry(await this.repo.requireLive(space, filePath(input.path)));
  }

  /** The kept versions of a path (also of a deleted one), newest first. */
  listVersions(
    scope: FileScope,
    input: { path: string },
  ): Promise<{ path: string; deleted: boolean; versions: FileVersionInfo[] }> {
    return listFileVersions(this.repo, ownerSpace(scope), input);
  }

  /**
   * One page of the live entries under a directory (`prefix`, default the root), sorted by path:
   * its children, or every descendant with `recursive`. A missing directory is NOT_FOUND, a file
   * CONFLICT.
   */
  list(scope: FileScope, input: ListFilesInput = {}): Promise<FsListResult> {
    return listDirectory(this.repo, ownerSpace(scope), input);
  }

  /**
   * Deletes a file or an empty directory (CONFLICT when not empty). The document stays as a
   * tombstone with its versions, so `restoreVersion(path, previousVersion)` brings it back.
   */
  async delete(
    scope: FileScope,
    input: { path: string; expectedVersion?: number },
  ): Promise<DeleteFileResult> {
    const space = ownerSpace(scope);
    const path = filePath(input.path);
    const doc = await this.repo.requireLive(space, path);
    checkExpected(path, doc, input.expectedVersion);
    const result = await deleteFileDoc(this.repo, space, path, doc);
    this.onChange?.(space.ownerKey, [path]);
    return result;
  }

  /** Creates a directory and its parents; an existing directory is returned as is (`created: false`). */
  async mkdir(
    scope: FileScope,
    input: { path: string; visibility?: FileVisibility },
  ): Promise<FileChangeResult & { created: boolean }> {
    const space = ownerSpace(scope);
    const path = filePath(input.path);
    if (input.visibility) checkVisibility(space, input.visibility);
    const parents = await this.repo.ensureParents(space, path);
    const made = await this.repo.ensureDir(space, path, input.visibility ?? 'private');
    return {
      entry: fileEntry(made.doc),
      created: made.created,
      previousVersion: made.created ? null : made.doc.version,
      changes: made.change ? [...parents, made.change] : parents,
    };
  }

  /** Moves a file or an empty directory to `nextPath` (see `renameFile`). */
  async rename(
    scope: FileScope,
    input: { path: string; nextPath: string; expectedVersion?: number },
  ): Promise<RenameFileResult> {
    const result = await renameFile(this.repo, scope, input, (changes) => this.undo(scope, changes));
    this.onChange?.(ownerSpace(scope).ownerKey, [result.previousPath, result.entry.path]);
    return result;
  }

  /** Changes who may see a file (a new version with the same content). */
  async setVisibility(
    scope: FileScope,
    input: { path: string; visibility: FileVisibility; expectedVersion?: number },
  ): Promise<FileChangeResult & { previousVisibility: FileVisibility }> {
    const space = ownerSpace(scope);
    const path = filePath(input.path);
    checkVisibility(space, input.visibility);
    const doc = await this.repo.requireLive(space, path);
    if (doc.kind === 'dir') throw isDirectoryError(path);
    checkExpected(path, doc, input.expectedVersion);
    const previousVisibility = doc.visibility;
    if (previousVisibility === input.visibility) {
      return { entry: fileEntry(doc), previousVersion: doc.version, previousVisibility, changes: [] };
    }
    const current = doc.history[doc.history.length - 1];
    const after = await this.repo.commitFile(space, path, doc, {
      reuse: current,
      contentEncoding: current.contentEncoding,
      contentType: current.contentType,
      visibility: input.visibility,
    });
    return {
      entry: fileEntry(after),
      previousVersion: doc.version,
      previousVisibility,
      changes: [{ path, kind: 'file', version: after.version, previousVersion: doc.version }],
    };
  }

  /**
   * Puts a path back in the state of `version` (used by rollback; see `restoreFileVersion`).
   * Subscribers of the space hear of it like of any other change.
   */
  async restoreVersion(scope: FileScope, input: RestoreVersionInput): Promise<RestoreFileResult> {
    const result = await restoreFileVersion(this.repo, scope, input);
    if (result.changes.length > 0) this.onChange?.(ownerSpace(scope).ownerKey, [result.path]);
    return result;
  }

  /**
   * Undoes `changes` (from the results above), newest first, each one conditional on the version
   * it left. The first failure stops the rollback: CONFLICT when a path changed since, with
   * `details.undone` (how many were undone).
   */
  async rollback(scope: FileScope, changes: readonly FileChange[]): Promise<{ undone: number }> {
    let undone = 0;
    for (const change of [...changes].reverse()) {
      try {
        await this.restoreVersion(scope, {
          path: change.path,
          version: change.previousVersion,
          expectedVersion: change.version,
        });
      } catch (err) {
        if (isAppError(err)) err.details.undone = undone;
        throw err;
      }
      undone += 1;
    }
    return { undone };
  }

  /**
   * Live files `viewer` may see across every space (docs/files.md, "Visibility"): its own, public
   * ones, and `workspace` ones of its workspaces. Under `prefix` when given; sorted by path.
   */
  listVisible(
    viewer: FileViewer,
    input: ListVisibleInput = {},
  ): Promise<{ entries: VisibleFile[]; nextCursor: string | null }> {
    return listVisibleFiles(this.repo, viewer, input);
  }

  /** Best-effort undo of changes made by an operation that then failed (its own error wins). */
  private async undo(scope: FileScope, changes: readonly FileChange[]): Promise<void> {
    if (changes.length === 0) return;
    await this.rollback(scope, changes).catch(() => undefined);
  }
}
