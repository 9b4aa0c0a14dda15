import type { Filter } from 'mongodb';
import { AppError, errors } from '../../schemas/errors';
import {
  FileScopeSchema,
  type FileDocument,
  type FileScope,
  type FileVisibility,
} from '../../schemas/documents/file';

/**
 * Owner spaces and the visibility rule of governed files (docs/files.md, "Owner spaces" and
 * "Visibility").
 */

/** A validated scope and its canonical key (the `ownerKey` of its documents). */
export interface OwnerSpace {
  scope: FileScope;
  ownerKey: string;
}

/**
 * The space of `scope`: `agent:<agentId>` when an agent is given (its account and workspace are
 * recorded, not part of the key: an agent has one space), else `account:<accountId>` or
 * `account:<accountId>:ws:<workspaceId>`. A scope with neither an agent nor an account, or with
 * malformed ids, is a caller defect (INTERNAL_ERROR): scopes come from authenticated principals.
 */
export function ownerSpace(scope: FileScope): OwnerSpace {
  const parsed = FileScopeSchema.safeParse(scope);
  if (!parsed.success) throw new AppError('INTERNAL_ERROR', 'invalid file scope');
  const s = parsed.data;
  // Keep only defined keys: the stored scope is compared field by field.
  const clean: FileScope = {
    ...(s.accountId ? { accountId: s.accountId } : {}),
    ...(s.workspaceId ? { workspaceId: s.workspaceId } : {}),
    ...(s.agentId ? { agentId: s.agentId } : {}),
  };
  if (clean.agentId) return { scope: clean, ownerKey: `agent:${clean.agentId}` };
  if (!clean.accountId) throw new AppError('INTERNAL_ERROR', 'file scope needs an agentId or an accountId');
  return {
    scope: clean,
    ownerKey: clean.workspaceId
      ? `account:${clean.accountId}:ws:${clean.workspaceId}`
      : `account:${clean.accountId}`,
  };
}

/** The space of an agent's own files (the `fs_*` tools). */
export function agentFileScope(agent: {
  agentId: string;
  accountId?: string;
  workspaceId?: string;
}): FileScope {
  return {
    agentId: agent.agentId,
    ...(agent.accountId ? { accountId: agent.accountId } : {}),
    ...(agent.workspaceId ? { workspaceId: agent.workspaceId } : {}),
  };
}

/** `workspace` visibility needs a workspace to refer to. */
export function checkVisibility(space: OwnerSpace, visibility: FileVisibility): void {
  if (visibility === 'workspace' && !space.scope.workspaceId) {
    throw errors.validation('visibility "workspace" needs a workspace: this file space belongs to none', {
      field: 'visibility',
    });
  }
}

/**
 * Who is looking, for `listVisible`. An account viewer (`accountId`, no `agentId`) owns its own
 * spaces and those of its agents (an operator governs its agents' files); an agent viewer
 * (`agentId`) owns its own space only. `workspaceIds`: the workspaces the viewer is a member of.
 * A viewer with neither id sees public files only.
 */
export interface FileViewer {
  accountId?: string;
  agentId?: string;
  workspaceIds: readonly string[];
}

/** Whether `viewer` owns the file (`owner always sees`). */
export function viewerOwns(viewer: FileViewer, file: Pick<FileDocument, 'scope'>): boolean {
  if (viewer.agentId) return file.scope.agentId === viewer.agentId;
  return viewer.accountId !== undefined && file.scope.accountId === viewer.accountId;
}

/** The rule as a predicate: the owner always; `public` everyone; `workspace` that workspace's members. */
export function canSee(viewer: FileViewer, file: Pick<FileDocument, 'scope' | 'visibility'>): boolean {
  if (viewerOwns(viewer, file) || file.visibility === 'public') return true;
  return (
    file.visibility === 'workspace' &&
    file.scope.workspaceId !== undefined &&
    viewer.workspaceIds.includes(file.scope.workspaceId)
  );
}

/** The same rule as a query filter (kept in step with `canSee`; tests check both). */
export function visibleFilter(viewer: FileViewer): Filter<FileDocument> {
  const or: Filter<FileDocument>[] = [{ visibility: 'public' }];
  if (viewer.agentId) or.push({ 'scope.agentId': viewer.agentId });
  else if (viewer.accountId) or.push({ 'scope.accountId': viewer.accountId });
  if (viewer.workspaceIds.length > 0) {
    or.push({ visibility: 'workspace', 'scope.workspaceId': { $in: [...viewer.workspaceIds] } });
  }
  return { $or: or };
}
