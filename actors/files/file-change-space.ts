import type { FileScope, FileVisibility } from '../../schemas/documents/file';
import { errors } from '../../schemas/errors';
import type { Services } from '../../src/boot/services';
import { defaultWorkspaceOf } from '../workspaces/default-workspace';
import type { FileStore } from './file-store';

/**
 * The space an `/api/files` change without `workspaceId` applies to (docs/files.md, "HTTP"). The
 * account's own space (`account:<id>`) belongs to no workspace, so `workspace` visibility means
 * the account's **default workspace** there (every account has one, provisioned on first use for
 * older accounts):
 *
 * - a write with `visibility: "workspace"` lands in the default workspace's space; over a path of
 *   the own space it is 409 (the file would exist twice: move or delete it first);
 * - any other change goes to the own space, unless the path lives in the default workspace's space
 *   only (written there as above): then there, so that a rename, a delete or a rewrite finds the
 *   file that a read by the same path shows.
 */
export async function changeSpace(
  services: Services,
  store: FileStore,
  accountId: string,
  path: string,
  visibility?: FileVisibility,
): Promise<FileScope> {
  const own: FileScope = { accountId };
  const exists = (scope: FileScope) =>
    store.stat(scope, { path }).then(
      () => true,
      () => false,
    );
  const inOwn = await exists(own);
  if (inOwn && visibility !== 'workspace') return own;
  const workspaceId = await defaultWorkspaceOf(services, accountId);
  if (!workspaceId) throw errors.notFound('Workspace not found');
  const inDefault: FileScope = { accountId, workspaceId };
  if (visibility === 'workspace') {
    if (inOwn) {
      throw errors.conflict(
        `${path} is in the account's own space, which belongs to no workspace: move or delete it first, or name a workspaceId`,
        { path, field: 'visibility' },
      );
    }
    return inDefault;
  }
  return (await exists(inDefault)) ? inDefault : own;
}
