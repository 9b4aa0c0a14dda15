import { errors, isAppError } from '../../schemas/errors';
import {
  FILE_LIMITS,
  type ContentEncoding,
  type FileChange,
  type FileDocument,
  type FileScope,
  type FileVisibility,
} from '../../schemas/documents/file';
import type { FileEntry, FsListResult, FsReadResult } from '../../schemas/tools/fs';
import type { DocumentStore, IndexReport } from '../../src/store/mongo';
import { decodeContent, encodeContent, guessContentType } from './file-content';
import { listDirectory, listFileVersions, listVisibleFiles } from './file-listing';
import { checkVisibility, ownerSpace, type FileViewer, type OwnerSpace } from './file-scope';
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
    const result = await this.deleteDoc(space, path, doc);
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

  /**
   * Moves a file or an empty directory to `nextPath`, which must not exist (CONFLICT: never an
   * overwrite). The content is copied as a new version of `nextPath` and `path` becomes a
   * tombstone, so both paths keep their own history. Not atomic across a crash (the worst case is
   * the file at both paths); a source changed meanwhile is a CONFLICT and the copy is undone.
   */
  async rename(
    scope: FileScope,
    input: { path: string; nextPath: string; expectedVersion?: number },
  ): Promise<RenameFileResult> {
    const space = ownerSpace(scope);
    const from = filePath(input.path);
    const to = filePath(input.nextPath, { field: 'nextPath' });
    if (from === to) throw errors.validation('path and nextPath are the same', { field: 'nextPath' });
    if (to.startsWith(`${from}/`)) {
      throw errors.validation('nextPath must not be inside path', { field: 'nextPath' });
    }
    const src = await this.repo.requireLive(space, from);
    checkExpected(from, src, input.expectedVersion);
    if (src.kind === 'dir' && (await this.repo.hasChildren(space, from))) {
      throw errors.conflict(`${from} is not empty: only files and empty directories can be renamed`, {
        path: from,
      });
    }
    const target = await this.repo.find(space, to);
    if (target && !target.deleted) {
      throw errors.conflict(`${to} already exists`, { path: to, currentVersion: target.version });
    }
    const parents = await this.repo.ensureParents(space, to);
    let moved: FileDocument;
    try {
      moved = await this.copyTo(space, src, to, target);
    } catch (err) {
      await this.undo(scope, parents);
      throw err;
    }
    const copied: FileChange = { path: to, kind: src.kind, version: moved.version, previousVersion: null };
    let gone: FileDocument;
    try {
      gone = await this.repo.markDeleted(from, src);
    } catch (err) {
      await this.undo(scope, [...parents, copied]);
      throw err;
    }
    this.onChange?.(space.ownerKey, [from, to]);
    return {
      entry: fileEntry(moved),
      previousPath: from,
      previousVersion: null,
      changes: [
        ...parents,
        copied,
        { path: from, kind: src.kind, version: gone.version, previousVersion: src.version },
      ],
    };
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
   * Puts a path back in the state of `version` (used by rollback): a kept file version becomes a
   * new version with that content and visibility (a deleted file is revived), a directory's
   * version revives the directory, `null` deletes the path. `expectedVersion` is compared with
   * the path's current version (a deleted path's included; 0 = no document): a path changed since
   * is a CONFLICT, never overwritten. Already in that state: nothing changes (`changes: []`).
   */
  async restoreVersion(
    scope: FileScope,
    input: {
      path: string;
      version: number | null;
      expectedVersion?: number;
      /**
       * Also accept a file whose current version is a restore of `expectedVersion` (same stored
       * bytes and visibility): what a rollback of a later change left. Rollbacks pass it, so
       * changes can be undone one execution at a time, newest first.
       */
      acceptRestoredState?: boolean;
    },
  ): Promise<RestoreFileResult> {
    const space = ownerSpace(scope);
    const path = filePath(input.path);
    const doc = await this.repo.find(space, path);
    const restored = input.acceptRestoredState === true && holdsStateOf(doc, input.expectedVersion);
    checkExpected(path, doc, restored ? doc?.version : input.expectedVersion);
    const live = doc !== null && !doc.deleted;
    if (input.version === null) {
      if (!live) return { path, entry: null, changes: [] };
      return { path, entry: null, changes: (await this.deleteDoc(space, path, doc)).changes };
    }
    if (!doc) throw notFound(path);
    const kept = doc.history.find((h) => h.version === input.version);
    if (kept) {
      if (live && doc.kind === 'dir') throw isDirectoryError(path);
      if (live && doc.version === kept.version) return { path, entry: fileEntry(doc), changes: [] };
      const parents = live ? [] : await this.repo.ensureParents(space, path);
      const after = await this.repo.commitFile(space, path, doc, {
        reuse: kept,
        contentEncoding: kept.contentEncoding,
        contentType: kept.contentType,
        visibility: kept.visibility,
      });
      const change: FileChange = {
        path,
        kind: 'file',
        version: after.version,
        previousVersion: live ? doc.version : null,
      };
      return { path, entry: fileEntry(after), changes: [...parents, change] };
    }
    if (doc.kind === 'dir') {
      if (live) return { path, entry: fileEntry(doc), changes: [] };
      const parents = await this.repo.ensureParents(space, path);
      const made = await this.repo.ensureDir(space, path, doc.visibility);
      return { path, entry: fileEntry(made.doc), changes: made.change ? [...parents, made.change] : parents };
    }
    throw versionNotKept(path, input.version, doc);
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

  private async deleteDoc(space: OwnerSpace, path: string, doc: FileDocument): Promise<DeleteFileResult> {
    if (doc.kind === 'dir' && (await this.repo.hasChildren(space, path))) {
      throw errors.conflict(`${path} is not empty`, { path });
    }
    const after = await this.repo.markDeleted(path, doc);
    return {
      path,
      kind: doc.kind,
      deleted: true,
      version: after.version,
      previousVersion: doc.version,
      changes: [{ path, kind: doc.kind, version: after.version, previousVersion: doc.version }],
    };
  }

  private async copyTo(
    space: OwnerSpace,
    src: FileDocument,
    to: string,
    target: FileDocument | null,
  ): Promise<FileDocument> {
    if (src.kind === 'dir') {
      const made = await this.repo.ensureDir(space, to, src.visibility);
      if (!made.created) throw errors.conflict(`${to} already exists`, { path: to });
      return made.doc;
    }
    const current = src.history[src.history.length - 1];
    const stored = await this.repo.versions.findById(current.contentId);
    if (!stored) throw errors.internal(`content of ${src.path} version ${current.version} is missing`);
    return this.repo.commitFile(space, to, target, {
      bytes: stored.data,
      contentEncoding: current.contentEncoding,
      contentType: guessContentType(to, current.contentEncoding),
      visibility: src.visibility,
    });
  }

  /** Best-effort undo of changes made by an operation that then failed (its own error wins). */
  private async undo(scope: FileScope, changes: readonly FileChange[]): Promise<void> {
    if (changes.length === 0) return;
    await this.rollback(scope, changes).catch(() => undefined);
  }
}

/**
 * Whether live file `doc` holds exactly the state of its kept version `version` (the same stored
 * bytes, encoding and visibility): a later version that only restored it. A new write stores new
 * bytes (another `contentId`), so it never counts.
 */
function holdsStateOf(doc: FileDocument | null, version: number | undefined): boolean {
  if (!doc || doc.deleted || doc.kind !== 'file' || version === undefined || doc.version === version)
    return false;
  const kept = doc.history.find((h) => h.version === version);
  return (
    kept !== undefined &&
    kept.contentId === doc.contentId &&
    kept.contentEncoding === doc.contentEncoding &&
    kept.visibility === doc.visibility
  );
}
