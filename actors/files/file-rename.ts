import { errors } from '../../schemas/errors';
import type { FileChange, FileDocument, FileScope } from '../../schemas/documents/file';
import { guessContentType } from './file-content';
import { ownerSpace, type OwnerSpace } from './file-scope';
import type { RenameFileResult } from './file-store.types';
import { fileEntry, filePath } from './file-views';
import { checkExpected, type FilesRepo } from './files.repo';

/**
 * Moves a file or an empty directory to `nextPath`, which must not exist (CONFLICT: never an
 * overwrite). The content is copied as a new version of `nextPath` and `path` becomes a
 * tombstone, so both paths keep their own history. Not atomic across a crash (the worst case is
 * the file at both paths); a source changed meanwhile is a CONFLICT and the copy is undone.
 */
export async function renameFile(
  repo: FilesRepo,
  scope: FileScope,
  input: { path: string; nextPath: string; expectedVersion?: number },
  /** Best-effort undo of the changes made so far, when a later step fails. */
  undo: (changes: readonly FileChange[]) => Promise<void>,
): Promise<RenameFileResult> {
  const space = ownerSpace(scope);
  const from = filePath(input.path);
  const to = filePath(input.nextPath, { field: 'nextPath' });
  if (from === to) throw errors.validation('path and nextPath are the same', { field: 'nextPath' });
  if (to.startsWith(`${from}/`)) {
    throw errors.validation('nextPath must not be inside path', { field: 'nextPath' });
  }
  const src = await repo.requireLive(space, from);
  checkExpected(from, src, input.expectedVersion);
  if (src.kind === 'dir' && (await repo.hasChildren(space, from))) {
    throw errors.conflict(`${from} is not empty: only files and empty directories can be renamed`, {
      path: from,
    });
  }
  const target = await repo.find(space, to);
  if (target && !target.deleted) {
    throw errors.conflict(`${to} already exists`, { path: to, currentVersion: target.version });
  }
  const parents = await repo.ensureParents(space, to);
  let moved: FileDocument;
  try {
    moved = await copyTo(repo, space, src, to, target);
  } catch (err) {
    await undo(parents);
    throw err;
  }
  const copied: FileChange = { path: to, kind: src.kind, version: moved.version, previousVersion: null };
  let gone: FileDocument;
  try {
    gone = await repo.markDeleted(from, src);
  } catch (err) {
    await undo([...parents, copied]);
    throw err;
  }
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

async function copyTo(
  repo: FilesRepo,
  space: OwnerSpace,
  src: FileDocument,
  to: string,
  target: FileDocument | null,
): Promise<FileDocument> {
  if (src.kind === 'dir') {
    const made = await repo.ensureDir(space, to, src.visibility);
    if (!made.created) throw errors.conflict(`${to} already exists`, { path: to });
    return made.doc;
  }
  const current = src.history[src.history.length - 1];
  const stored = await repo.versions.findById(current.contentId);
  if (!stored) throw errors.internal(`content of ${src.path} version ${current.version} is missing`);
  return repo.commitFile(space, to, target, {
    bytes: stored.data,
    contentEncoding: current.contentEncoding,
    contentType: guessContentType(to, current.contentEncoding),
    visibility: src.visibility,
  });
}
