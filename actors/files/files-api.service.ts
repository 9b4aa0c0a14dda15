import type { Filter } from 'mongodb';
import type { Principal } from '../../schemas/auth';
import type { FileChange, FileDocument, FileScope, FileVisibility } from '../../schemas/documents/file';
import { errors } from '../../schemas/errors';
import type { FileEntry } from '../../schemas/tools/fs';
import type { Services } from '../../src/boot/services';
import { executionView } from '../executions/execution-views';
import { recordCompletedExecution, workspaceForChange } from '../executions/record-completed';
import { changeSpace } from './file-change-space';
import { isUtf8, utf8Prefix } from './file-content';
import { canSee, viewerOwns, visibleFilter, type FileViewer } from './file-scope';
import {
  decodeCursor,
  encodeCursor,
  escapeRegex,
  fileEntry,
  filePath,
  pageLimit,
  underDirectory,
} from './file-views';
import { filesCollection } from './files.collection';

/**
 * The operators' side of the governed files (`/api/files`, docs/files.md "HTTP"): an account's
 * files (`account:<id>`, or `account:<id>:ws:<id>` with a workspace), each change recorded as a
 * finished execution whose rollback restores the previous version. The tenant is the account: an
 * agent of the account acts on the account's files. Without `workspaceId`, a change applies to
 * the account's own space, or to its default workspace's (`changeSpace`, file-change-space.ts).
 */

export type FilesCaller = Principal & { accountId: string };

/** Bytes of content a preview returns at most. */
export const PREVIEW_MAX_BYTES = 64 * 1024;
/** Lines a summary quotes, and characters per quoted line. */
const SUMMARY_LINES = 10;
const SUMMARY_LINE_CHARS = 200;

export interface FileListQuery {
  prefix?: string;
  text?: string;
  visibility?: FileVisibility;
  workspaceId?: string;
  limit?: number;
  cursor?: string;
}

export interface FileListItem {
  path: string;
  visibility: FileVisibility;
  size: number;
  contentEncoding: string | null;
  contentType: string | null;
  version: number;
  updatedAt: string;
  owned: boolean;
}

/** `text` as a case-insensitive literal pattern (the embedded server knows no `$options`). */
function caseInsensitive(text: string): string {
  let out = '';
  for (const ch of text) {
    const lower = ch.toLowerCase();
    const upper = ch.toUpperCase();
    out +=
      lower !== upper && lower.length === 1 && upper.length === 1 ? `[${lower}${upper}]` : escapeRegex(ch);
  }
  return out;
}

/** The caller as a workspace member: its account, and itself when it is an agent. */
const memberSubject = (caller: FilesCaller) => ({
  accountId: caller.accountId,
  ...(caller.subjectType === 'agent' && caller.agentId ? { agentId: caller.agentId } : {}),
});

const listItem = (entry: FileEntry, owned: boolean): FileListItem => ({
  path: entry.path,
  visibility: entry.visibility,
  size: entry.size,
  contentEncoding: entry.contentEncoding ?? null,
  contentType: entry.contentType ?? null,
  version: entry.version,
  updatedAt: entry.updatedAt,
  owned,
});

export class FilesApi {
  constructor(private readonly services: Services) {}

  private get store() {
    return this.services.files;
  }

  private get executions() {
    return this.services.executions;
  }

  /** The caller's space: the account's, or its files in a workspace it is a member of (else 404). */
  async scopeOf(caller: FilesCaller, workspaceId: string | undefined): Promise<FileScope> {
    if (workspaceId === undefined) return { accountId: caller.accountId };
    if (!(await this.services.workspaces.membership.isMember(memberSubject(caller), workspaceId))) {
      throw errors.notFound('Workspace not found', { workspaceId });
    }
    return { accountId: caller.accountId, workspaceId };
  }

  /** The space of a change: the named workspace's, else as `changeSpace` decides. */
  private spaceForChange(
    caller: FilesCaller,
    workspaceId: string | undefined,
    path: string,
    visibility?: FileVisibility,
  ): Promise<FileScope> {
    if (workspaceId !== undefined) return this.scopeOf(caller, workspaceId);
    return changeSpace(this.services, this.store, caller.accountId, path, visibility);
  }

  /**
   * The viewer of the visibility rule: the account (its agents' files included) and the
   * workspaces the caller is a member of (docs/workspaces.md: an agent caller adds those it was
   * added to itself).
   */
  async viewerOf(caller: FilesCaller): Promise<FileViewer> {
    const workspaceIds = await this.services.workspaces.membership.workspaceIdsOf(memberSubject(caller));
    return { accountId: caller.accountId, workspaceIds };
  }

  /** Live files the caller may see, sorted by path (then id), a page at a time. */
  async list(
    caller: FilesCaller,
    query: FileListQuery,
  ): Promise<{ entries: FileListItem[]; nextCursor: string | null }> {
    const viewer = await this.viewerOf(caller);
    const limit = pageLimit(query.limit);
    const and: Filter<FileDocument>[] = [{ deleted: false, kind: 'file' }, visibleFilter(viewer)];
    const prefix = filePath(query.prefix ?? '', { field: 'prefix', allowRoot: true });
    if (prefix !== '') and.push({ path: underDirectory(prefix, true) });
    if (query.text) and.push({ path: { $regex: caseInsensitive(query.text) } });
    if (query.visibility) and.push({ visibility: query.visibility });
    if (query.workspaceId) and.push({ 'scope.workspaceId': query.workspaceId });
    if (query.cursor) {
      const [path, id] = decodeCursor(query.cursor, 2);
      and.push({ $or: [{ path: { $gt: path } }, { path, _id: { $gt: id } }] });
    }
    const docs = await this.services.documents
      .repository(filesCollection)
      .find({ $and: and }, { sort: { path: 1, _id: 1 }, limit: limit + 1 });
    const page = docs.slice(0, limit).filter((d) => canSee(viewer, d));
    const last = docs.length > limit ? docs[limit - 1] : undefined;
    return {
      entries: page.map((d) => listItem(fileEntry(d), viewerOwns(viewer, d))),
      nextCursor: last ? encodeCursor([last.path, last._id]) : null,
    };
  }

  /**
   * The file at `path` for reading: the caller's own (in the given workspace's space or the
   * account's), else a file of another space the caller may see (public, or `workspace` of one of
   * its workspaces); the first by id when several spaces have one. NOT_FOUND otherwise.
   */
  private async locate(
    caller: FilesCaller,
    rawPath: string,
    workspaceId: string | undefined,
  ): Promise<{ scope: FileScope; owned: boolean; path: string }> {
    const path = filePath(rawPath, { file: true });
    const own = await this.scopeOf(caller, workspaceId);
    // The caller's own path wins (a directory there is then a 409 when read).
    const mine = await this.store.stat(own, { path }).catch(() => null);
    if (mine) return { scope: own, owned: true, path };
    const viewer = await this.viewerOf(caller);
    const filter: Filter<FileDocument> = {
      $and: [{ path, deleted: false, kind: 'file' }, visibleFilter(viewer)],
    };
    if (workspaceId) (filter.$and as Filter<FileDocument>[]).push({ 'scope.workspaceId': workspaceId });
    const docs = await this.services.documents
      .repository(filesCollection)
      .find(filter, { sort: { _id: 1 }, limit: 10 });
    const doc = docs.find((d) => canSee(viewer, d));
    if (!doc) throw errors.notFound(`No such file: ${path}`, { path });
    return { scope: doc.scope, owned: viewerOwns(viewer, doc), path };
  }

  /** The entry and the first `PREVIEW_MAX_BYTES` of the content (utf8 text, else base64). */
  async preview(caller: FilesCaller, rawPath: string, workspaceId?: string) {
    const { scope, owned, path } = await this.locate(caller, rawPath, workspaceId);
    const entry = await this.store.stat(scope, { path });
    const read = await this.store.read(scope, { path, encoding: 'base64' });
    const bytes = Buffer.from(read.data, 'base64');
    // As written: text written as utf8 is previewed as text, anything else as base64.
    const text = entry.contentEncoding === 'utf8' && isUtf8(bytes);
    const cut = text ? utf8Prefix(bytes, PREVIEW_MAX_BYTES) : bytes.subarray(0, PREVIEW_MAX_BYTES);
    return {
      entry: listItem(entry, owned),
      contentEncoding: text ? 'utf8' : 'base64',
      content: text ? cut.toString('utf8') : cut.toString('base64'),
      truncated: cut.length < bytes.length,
    };
  }

  /** A summary without a model: size, type, line count and the first lines of a text file. */
  async summarize(caller: FilesCaller, rawPath: string, workspaceId?: string) {
    const { scope, owned, path } = await this.locate(caller, rawPath, workspaceId);
    const entry = await this.store.stat(scope, { path });
    const read = await this.store.read(scope, { path, encoding: 'base64' });
    const bytes = Buffer.from(read.data, 'base64');
    const text = isUtf8(bytes) && !bytes.includes(0);
    let lineCount: number | null = null;
    let firstLines: string[] = [];
    if (text) {
      const body = bytes.toString('utf8');
      const lines = body.split(/\r?\n/);
      if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
      lineCount = lines.length;
      firstLines = lines.slice(0, SUMMARY_LINES).map((l) => l.slice(0, SUMMARY_LINE_CHARS));
    }
    return {
      entry: listItem(entry, owned),
      summary: {
        size: entry.size,
        type: entry.contentType ?? (text ? 'text/plain' : 'application/octet-stream'),
        text,
        lineCount,
        firstLines,
      },
    };
  }

  private async record(
    caller: FilesCaller,
    scope: FileScope,
    type: string,
    title: string,
    target: string,
    changes: FileChange[],
    result: unknown,
  ) {
    const doc = await recordCompletedExecution(this.executions, caller, {
      type,
      title,
      workspaceId: scope.workspaceId,
      stepName: title,
      effects: changes.length > 0 ? [{ kind: 'file', target, undo: { scope, changes } }] : [],
      result,
    });
    return executionView(doc);
  }

  /** Creates or replaces a file; recorded as a FILE_WRITE execution. */
  async write(
    caller: FilesCaller,
    input: {
      path: string;
      data: string;
      contentEncoding: 'utf8' | 'base64';
      visibility?: FileVisibility;
      workspaceId?: string;
    },
  ) {
    const scope = await this.spaceForChange(caller, input.workspaceId, input.path, input.visibility);
    await workspaceForChange(this.executions, caller, scope.workspaceId);
    const written = await this.store.write(scope, {
      path: input.path,
      data: input.data,
      contentEncoding: input.contentEncoding,
      visibility: input.visibility,
    });
    const entry = listItem(written.entry, true);
    const execution = await this.record(
      caller,
      scope,
      'FILE_WRITE',
      `${written.created ? 'Create' : 'Write'} ${entry.path}`,
      entry.path,
      written.changes,
      { path: entry.path, version: entry.version, created: written.created },
    );
    return { entry, created: written.created, execution };
  }

  /** Moves a file to `nextPath`; recorded as a FILE_RENAME execution. */
  async rename(caller: FilesCaller, input: { path: string; nextPath: string; workspaceId?: string }) {
    const scope = await this.spaceForChange(caller, input.workspaceId, input.path);
    await workspaceForChange(this.executions, caller, scope.workspaceId);
    const moved = await this.store.rename(scope, { path: input.path, nextPath: input.nextPath });
    const entry = listItem(moved.entry, true);
    const execution = await this.record(
      caller,
      scope,
      'FILE_RENAME',
      `Rename ${moved.previousPath} to ${entry.path}`,
      `${moved.previousPath} -> ${entry.path}`,
      moved.changes,
      { path: entry.path, previousPath: moved.previousPath, version: entry.version },
    );
    return { entry, previousPath: moved.previousPath, execution };
  }

  /** Deletes a file (or an empty directory); recorded as a FILE_DELETE execution. */
  async delete(caller: FilesCaller, input: { path: string; workspaceId?: string }) {
    const scope = await this.spaceForChange(caller, input.workspaceId, input.path);
    await workspaceForChange(this.executions, caller, scope.workspaceId);
    const gone = await this.store.delete(scope, { path: input.path });
    const execution = await this.record(
      caller,
      scope,
      'FILE_DELETE',
      `Delete ${gone.path}`,
      gone.path,
      gone.changes,
      { path: gone.path, deleted: true },
    );
    return { path: gone.path, deleted: true as const, execution };
  }
}
