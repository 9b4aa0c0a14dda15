import type { Filter, UpdateFilter } from 'mongodb';
import { AppError, errors, isAppError } from '../../schemas/errors';
import {
  parentPaths,
  type ContentEncoding,
  type FileChange,
  type FileDocument,
  type FileDocumentInput,
  type FileHistoryEntry,
  type FileVersionDocument,
  type FileVersionDocumentInput,
  type FileVisibility,
} from '../../schemas/documents/file';
import type { Logger } from '../../src/logging/logger';
import type { DocumentStore, Repository } from '../../src/store/mongo';
import { sha256Hex } from './file-content';
import type { OwnerSpace } from './file-scope';
import { underDirectory } from './file-views';
import { filesCollection, fileVersionsCollection, newFileId, newFileVersionId } from './files.collection';

/** The next state of a file: new bytes, or content already stored (a restore, a visibility change). */
export type NextFileState = {
  contentEncoding: ContentEncoding;
  contentType: string;
  visibility: FileVisibility;
} & ({ bytes: Buffer } | { reuse: Pick<FileHistoryEntry, 'contentId' | 'size' | 'sha256'> });

/** A directory made by `ensureDir`. */
export interface EnsuredDir {
  doc: FileDocument;
  created: boolean;
  /** Set when the directory was created (or revived): how to undo that. */
  change?: FileChange;
}

export function notFound(path: string): AppError {
  return errors.notFound(`No such file or directory: ${path}`, { path });
}

export function isDirectoryError(path: string): AppError {
  return errors.conflict(`${path} is a directory`, { path, kind: 'dir' });
}

export function notDirectoryError(path: string): AppError {
  return errors.conflict(`${path} is a file, not a directory`, { path, kind: 'file' });
}

/** NOT_FOUND for a version no longer (or never) kept, with the kept ones in details. */
export function versionNotKept(path: string, version: number, doc: FileDocument) {
  return errors.notFound(`Version ${version} of ${path} is not kept`, {
    path,
    version,
    keptVersions: doc.history.map((h) => h.version),
  });
}

/**
 * Checks `expectedVersion` against the path's document: it must equal the document's `version`
 * (a deleted path's version included), and 0 stands for "absent" (never written, or deleted).
 */
export function checkExpected(path: string, doc: FileDocument | null, expected: number | undefined): void {
  if (expected === undefined) return;
  const current = doc?.version ?? 0;
  if (expected === current || (expected === 0 && (doc === null || doc.deleted))) return;
  const live = doc !== null && !doc.deleted;
  const message =
    expected === 0
      ? `${path} already exists (version ${current})`
      : live
        ? `${path} is at version ${current}, not ${expected}`
        : `${path} does not exist (expected version ${expected})`;
  throw errors.conflict(message, { path, expectedVersion: expected, currentVersion: live ? current : null });
}

/** A lost conditional write (or create race) as a CONFLICT naming the path, not the collection. */
function raceError(err: unknown, path: string, base: FileDocument | null): unknown {
  if (!isAppError(err) || (err.code !== 'CONFLICT' && err.code !== 'NOT_FOUND')) return err;
  const details: Record<string, unknown> = { path, expectedVersion: base?.version ?? 0 };
  if (typeof err.details.currentVersion === 'number') details.currentVersion = err.details.currentVersion;
  return errors.conflict(`${path} was changed concurrently; read it again and retry`, details);
}

/**
 * The document-level operations of the file store: every change is one conditional write on the
 * path's document (`version`), so a lost race is a CONFLICT and never an overwrite.
 */
export class FilesRepo {
  readonly files: Repository<FileDocument, FileDocumentInput>;
  readonly versions: Repository<FileVersionDocument, FileVersionDocumentInput>;

  constructor(
    documents: DocumentStore,
    private readonly maxVersions: number,
    private readonly logger?: Logger,
  ) {
    this.files = documents.repository(filesCollection);
    this.versions = documents.repository(fileVersionsCollection);
  }

  find(space: OwnerSpace, path: string): Promise<FileDocument | null> {
    return this.files.findOne({ ownerKey: space.ownerKey, path });
  }

  /** The live document at `path`, or NOT_FOUND. */
  async requireLive(space: OwnerSpace, path: string): Promise<FileDocument> {
    const doc = await this.find(space, path);
    if (!doc || doc.deleted) throw notFound(path);
    return doc;
  }

  /** Whether a live entry exists under directory `path`. */
  async hasChildren(space: OwnerSpace, path: string): Promise<boolean> {
    const filter: Filter<FileDocument> = {
      ownerKey: space.ownerKey,
      deleted: false,
      path: underDirectory(path, true),
    };
    return (await this.files.findOne(filter)) !== null;
  }

  /**
   * Makes `next` the content of the file at `path`, one version after `base` (null: no document
   * yet). New bytes go to `file_versions` first and the file document then points at them in one
   * conditional write; a loser removes its bytes again. History keeps `maxVersions` entries; the
   * bytes no kept entry references are pruned.
   */
  async commitFile(
    space: OwnerSpace,
    path: string,
    base: FileDocument | null,
    next: NextFileState,
  ): Promise<FileDocument> {
    const now = new Date();
    const version = (base?.version ?? 0) + 1;
    const fileId = base?._id ?? newFileId();
    let inserted: string | undefined;
    let content: Pick<FileHistoryEntry, 'contentId' | 'size' | 'sha256'>;
    if ('bytes' in next) {
      const contentId = newFileVersionId();
      const sha256 = sha256Hex(next.bytes);
      await this.versions.insert({
        _id: contentId,
        fileId,
        version,
        size: next.bytes.length,
        sha256,
        data: next.bytes,
        createdAt: now,
      });
      inserted = contentId;
      content = { contentId, size: next.bytes.length, sha256 };
    } else {
      content = next.reuse;
    }
    const entry: FileHistoryEntry = {
      version,
      contentId: content.contentId,
      size: content.size,
      sha256: content.sha256,
      contentEncoding: next.contentEncoding,
      contentType: next.contentType,
      visibility: next.visibility,
      createdAt: now,
    };
    const history = [...(base?.history ?? []), entry].slice(-this.maxVersions);
    const fields = {
      // The latest scope: an agent's operator or workspace may have changed since the last write.
      scope: space.scope,
      kind: 'file' as const,
      visibility: next.visibility,
      size: content.size,
      contentEncoding: next.contentEncoding,
      contentType: next.contentType,
      sha256: content.sha256,
      contentId: content.contentId,
      history,
      deleted: false,
      updatedAt: now,
    };
    let doc: FileDocument;
    try {
      doc =
        base === null
          ? await this.files.insert({
              _id: fileId,
              version: 1,
              ownerKey: space.ownerKey,
              path,
              ...fields,
              createdAt: now,
            })
          : await this.files.updateIfVersion(base._id, base.version, {
              $set: { ...fields, ...(base.deleted ? { createdAt: now } : {}) },
              $unset: { deletedAt: '' },
            } as UpdateFilter<FileDocument>);
    } catch (err) {
      if (inserted) await this.versions.deleteById(inserted).catch(() => undefined);
      throw raceError(err, path, base);
    }
    if (history.length < (base?.history.length ?? 0) + 1) await this.prune(doc);
    return doc;
  }

  /**
   * Deletes the bytes of `doc` that no kept history entry references. Only versions up to the
   * document's own are considered: a writer still in flight has a higher one. A failure is
   * logged and left for the next prune (the write itself succeeded).
   */
  private async prune(doc: FileDocument): Promise<void> {
    try {
      await this.versions.deleteMany({
        fileId: doc._id,
        version: { $lte: doc.version },
        _id: { $nin: doc.history.map((h) => h.contentId) },
      });
    } catch (err) {
      this.logger?.warn({ err, fileId: doc._id }, 'file versions not pruned');
    }
  }

  /** Marks a live document deleted (a tombstone keeping its history), conditional on its version. */
  async markDeleted(path: string, doc: FileDocument): Promise<FileDocument> {
    const now = new Date();
    try {
      return await this.files.updateIfVersion(doc._id, doc.version, {
        $set: { deleted: true, deletedAt: now, updatedAt: now },
      });
    } catch (err) {
      throw raceError(err, path, doc);
    }
  }

  /**
   * A live directory at `path`: kept if it exists, else created (or revived from a tombstone).
   * A live file there is a CONFLICT. Races with other creators are settled by the unique index
   * and the conditional write, then looked at again.
   */
  async ensureDir(space: OwnerSpace, path: string, visibility: FileVisibility): Promise<EnsuredDir> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const doc = await this.find(space, path);
      if (doc && !doc.deleted) {
        if (doc.kind === 'dir') return { doc, created: false };
        throw notDirectoryError(path);
      }
      const now = new Date();
      try {
        const created =
          doc === null
            ? await this.files.insert({
                _id: newFileId(),
                version: 1,
                ownerKey: space.ownerKey,
                scope: space.scope,
                path,
                kind: 'dir',
                visibility,
                size: 0,
                history: [],
                deleted: false,
                createdAt: now,
                updatedAt: now,
              })
            : await this.files.updateIfVersion(doc._id, doc.version, {
                $set: { kind: 'dir', visibility, size: 0, deleted: false, createdAt: now, updatedAt: now },
                $unset: { deletedAt: '', contentEncoding: '', contentType: '', sha256: '', contentId: '' },
              } as UpdateFilter<FileDocument>);
        return {
          doc: created,
          created: true,
          change: { path, kind: 'dir', version: created.version, previousVersion: null },
        };
      } catch (err) {
        // Someone else created or changed it first: look again.
        if (!isAppError(err) || err.code !== 'CONFLICT') throw err;
      }
    }
    throw errors.conflict(`${path} keeps changing; try again`, { path });
  }

  /** `mkdir -p` of the parents of `path`; resolves the directories it created. */
  async ensureParents(space: OwnerSpace, path: string): Promise<FileChange[]> {
    const parents = parentPaths(path);
    if (parents.length === 0) return [];
    const nearest = await this.find(space, parents[parents.length - 1]);
    if (nearest && !nearest.deleted && nearest.kind === 'dir') return [];
    const changes: FileChange[] = [];
    for (const parent of parents) {
      const made = await this.ensureDir(space, parent, 'private');
      if (made.change) changes.push(made.change);
    }
    return changes;
  }
}
