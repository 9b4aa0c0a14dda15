import type { Filter } from 'mongodb';
import type { FileDocument } from '../../schemas/documents/file';
import type { FsListResult } from '../../schemas/tools/fs';
import { canSee, viewerOwns, visibleFilter, type FileViewer, type OwnerSpace } from './file-scope';
import type { FileVersionInfo, ListFilesInput, ListVisibleInput, VisibleFile } from './file-store.types';
import { decodeCursor, encodeCursor, fileEntry, filePath, pageLimit, underDirectory } from './file-views';
import { notDirectoryError, notFound, type FilesRepo } from './files.repo';

/** The read-only listings of the file store (docs/files.md, "Directories" and "Visibility"). */

/**
 * One page of the live entries under a directory (`prefix`, default the root), sorted by path: its
 * children, or every descendant with `recursive`. A missing directory is NOT_FOUND, a file CONFLICT.
 */
export async function listDirectory(
  repo: FilesRepo,
  space: OwnerSpace,
  input: ListFilesInput,
): Promise<FsListResult> {
  const dir = filePath(input.prefix ?? '', { field: 'prefix', allowRoot: true });
  const limit = pageLimit(input.limit);
  if (dir !== '') {
    const doc = await repo.find(space, dir);
    if (doc && !doc.deleted && doc.kind === 'file') throw notDirectoryError(dir);
    if ((!doc || doc.deleted) && !(await repo.hasChildren(space, dir))) throw notFound(dir);
  }
  const range = input.cursor ? { $gt: decodeCursor(input.cursor, 1)[0] } : {};
  const docs = await repo.files.find(
    {
      ownerKey: space.ownerKey,
      deleted: false,
      path: { ...underDirectory(dir, input.recursive ?? false), ...range },
    },
    { sort: { path: 1 }, limit: limit + 1 },
  );
  const page = docs.slice(0, limit);
  return {
    path: dir,
    entries: page.map(fileEntry),
    nextCursor: docs.length > limit ? encodeCursor([page[page.length - 1].path]) : null,
  };
}

/**
 * Live files `viewer` may see across every space: its own, public ones, and `workspace` ones of
 * its workspaces; under `prefix` when given; sorted by path (then id, for a stable cursor).
 */
export async function listVisibleFiles(
  repo: FilesRepo,
  viewer: FileViewer,
  input: ListVisibleInput,
): Promise<{ entries: VisibleFile[]; nextCursor: string | null }> {
  const dir = filePath(input.prefix ?? '', { field: 'prefix', allowRoot: true });
  const limit = pageLimit(input.limit);
  const and: Filter<FileDocument>[] = [{ deleted: false, kind: 'file' }, visibleFilter(viewer)];
  if (dir !== '') and.push({ path: underDirectory(dir, true) });
  if (input.cursor) {
    const [path, id] = decodeCursor(input.cursor, 2);
    and.push({ $or: [{ path: { $gt: path } }, { path, _id: { $gt: id } }] });
  }
  const docs = await repo.files.find({ $and: and }, { sort: { path: 1, _id: 1 }, limit: limit + 1 });
  // The filter is the rule; the predicate double-checks it so that a filter bug never leaks a file.
  const page = docs.slice(0, limit).filter((d) => canSee(viewer, d));
  const last = docs.length > limit ? docs[limit - 1] : undefined;
  return {
    entries: page.map((d) => ({ entry: fileEntry(d), owned: viewerOwns(viewer, d), scope: d.scope })),
    nextCursor: last ? encodeCursor([last.path, last._id]) : null,
  };
}

/** The kept versions of a path (also of a deleted one), newest first. */
export async function listFileVersions(
  repo: FilesRepo,
  space: OwnerSpace,
  input: { path: string },
): Promise<{ path: string; deleted: boolean; versions: FileVersionInfo[] }> {
  const path = filePath(input.path);
  const doc = await repo.find(space, path);
  if (!doc) throw notFound(path);
  const versions = [...doc.history].reverse().map(({ contentId: _contentId, createdAt, ...rest }) => ({
    ...rest,
    createdAt: createdAt.toISOString(),
  }));
  return { path, deleted: doc.deleted, versions };
}
