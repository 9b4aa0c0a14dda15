import type { FileScope } from '../../../schemas/documents/file';
import {
  FsDeleteInputSchema,
  FsListInputSchema,
  FsMkdirInputSchema,
  FsReadInputSchema,
  FsStatInputSchema,
  FsWriteInputSchema,
  type FsDeleteResult,
  type FsMkdirResult,
  type FsWriteResult,
} from '../../../schemas/tools/fs';
import { agentFileScope } from '../../files/file-scope';
import { defineTool, type ToolContext } from '../router/tool-declaration';

/**
 * The file primitives: the governed file store (actors/files, docs/files.md) in the calling
 * agent's own space. Paths are relative (`..` and absolute paths refused); content over 5 MiB is
 * PAYLOAD_TOO_LARGE; a missing path is NOT_FOUND; a file where a directory is needed (or the
 * reverse) is CONFLICT. Every write keeps the previous versions (the last 10) for rollback.
 */

/** Internal: the calling agent's file space. */
const scopeOf = (ctx: ToolContext): FileScope =>
  agentFileScope({
    agentId: ctx.agent.id,
    accountId: ctx.agent.accountId,
    workspaceId: ctx.agent.workspaceId,
  });

export const fsWriteTool = defineTool({
  name: 'fs_write',
  description:
    "Writes a file in the agent's file space (creating parent directories): data as base64, or content as UTF-8 text; at most 5 MiB. Returns the entry {path, kind, size, sha256, version, contentEncoding, contentType, visibility, createdAt, updatedAt, created, previousVersion}.",
  input: FsWriteInputSchema,
  mutating: true,
  run: async ({ path, data, content, encoding }, ctx): Promise<FsWriteResult> => {
    const written = await ctx.services.files.write(scopeOf(ctx), {
      path,
      data,
      content,
      contentEncoding: encoding,
    });
    return { ...written.entry, created: written.created, previousVersion: written.previousVersion };
  },
});

export const fsReadTool = defineTool({
  name: 'fs_read',
  description:
    "Reads a file of the agent's file space. Returns {path, data, contentEncoding, size, version, contentType, sha256}; data is text for utf8, base64 otherwise (default: as written).",
  input: FsReadInputSchema,
  mutating: false,
  run: ({ path, encoding }, ctx) => ctx.services.files.read(scopeOf(ctx), { path, encoding }),
});

export const fsStatTool = defineTool({
  name: 'fs_stat',
  description:
    'Metadata of a file or directory: {path, kind, size, version, visibility, sha256, contentType, contentEncoding, createdAt, updatedAt}. NOT_FOUND when missing.',
  input: FsStatInputSchema,
  mutating: false,
  run: ({ path }, ctx) => ctx.services.files.stat(scopeOf(ctx), { path }),
});

export const fsListTool = defineTool({
  name: 'fs_list',
  description:
    'Lists a directory (default the root): its children, or every descendant with recursive. Returns {path, entries: [{path, kind, size, version, ...}], nextCursor} sorted by path, at most 100 entries per page by default.',
  input: FsListInputSchema,
  mutating: false,
  run: ({ path, recursive, limit, cursor }, ctx) =>
    ctx.services.files.list(scopeOf(ctx), { prefix: path, recursive, limit, cursor }),
});

export const fsDeleteTool = defineTool({
  name: 'fs_delete',
  description:
    'Deletes a file or an empty directory (its versions are kept for rollback). Returns {path, kind, deleted: true, version, previousVersion}.',
  input: FsDeleteInputSchema,
  mutating: true,
  run: async ({ path }, ctx): Promise<FsDeleteResult> => {
    const { changes: _changes, ...result } = await ctx.services.files.delete(scopeOf(ctx), { path });
    return result;
  },
});

export const fsMkdirTool = defineTool({
  name: 'fs_mkdir',
  description:
    'Creates a directory and its parents; an existing directory is fine. Returns the entry {path, kind: "dir", version, ...} with created (false when it existed).',
  input: FsMkdirInputSchema,
  mutating: true,
  run: async ({ path }, ctx): Promise<FsMkdirResult> => {
    const made = await ctx.services.files.mkdir(scopeOf(ctx), { path });
    return { ...made.entry, created: made.created };
  },
});

/** The `fs_*` declarations, for actors/tools/platform-tools.ts. */
export const fsTools = [fsWriteTool, fsReadTool, fsStatTool, fsListTool, fsDeleteTool, fsMkdirTool] as const;
