import { errors } from '../../schemas/errors';
import type { FileChange, FileDocument, FileScope } from '../../schemas/documents/file';
import { ownerSpace, type OwnerSpace } from './file-scope';
import type { DeleteFileResult, RestoreFileResult } from './file-store.types';
import { fileEntry, filePath } from './file-views';
import { FilesRepo, checkExpected, isDirectoryError, notFound, versionNotKept } from './files.repo';

/** What `restoreFileVersion` takes. */
export interface RestoreVersionInput {
  path: string;
  version: number | null;
  expectedVersion?: number;
  /**
   * Also accept a file whose current version is a restore of `expectedVersion` (same stored
   * bytes and visibility): what a rollback of a later change left. Rollbacks pass it, so
   * changes can be undone one execution at a time, newest first.
   */
  acceptRestoredState?: boolean;
}

/**
 * Puts a path back in the state of `version` (used by rollback): a kept file version becomes a
 * new version with that content and visibility (a deleted file is revived), a directory's
 * version revives the directory, `null` deletes the path. `expectedVersion` is compared with
 * the path's current version (a deleted path's included; 0 = no document): a path changed since
 * is a CONFLICT, never overwritten. Already in that state: nothing changes (`changes: []`).
 */
export async function restoreFileVersion(
  repo: FilesRepo,
  scope: FileScope,
  input: RestoreVersionInput,
): Promise<RestoreFileResult> {
  const space = ownerSpace(scope);
  const path = filePath(input.path);
  const doc = await repo.find(space, path);
  const restored = input.acceptRestoredState === true && holdsStateOf(doc, input.expectedVersion);
  checkExpected(path, doc, restored ? doc?.version : input.expectedVersion);
  const live = doc !== null && !doc.deleted;
  if (input.version === null) {
    if (!live) return { path, entry: null, changes: [] };
    return { path, entry: null, changes: (await deleteFileDoc(repo, space, path, doc)).changes };
  }
  if (!doc) throw notFound(path);
  const kept = doc.history.find((h) => h.version === input.version);
  if (kept) {
    if (live && doc.kind === 'dir') throw isDirectoryError(path);
    if (live && doc.version === kept.version) return { path, entry: fileEntry(doc), changes: [] };
    const parents = live ? [] : await repo.ensureParents(space, path);
    const after = await repo.commitFile(space, path, doc, {
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
    const parents = await repo.ensureParents(space, path);
    const made = await repo.ensureDir(space, path, doc.visibility);
    return { path, entry: fileEntry(made.doc), changes: made.change ? [...parents, made.change] : parents };
  }
  throw versionNotKept(path, input.version, doc);
}

/**
 * Turns a live file or an empty directory into a tombstone (CONFLICT when a directory still has
 * children); the document keeps its versions, so a restore brings it back.
 */
export async function deleteFileDoc(
  repo: FilesRepo,
  space: OwnerSpace,
  path: string,
  doc: FileDocument,
): Promise<DeleteFileResult> {
  if (doc.kind === 'dir' && (await repo.hasChildren(space, path))) {
    throw errors.conflict(`${path} is not empty`, { path });
  }
  const after = await repo.markDeleted(path, doc);
  return {
    path,
    kind: doc.kind,
    deleted: true,
    version: after.version,
    previousVersion: doc.version,
    changes: [{ path, kind: doc.kind, version: after.version, previousVersion: doc.version }],
  };
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
