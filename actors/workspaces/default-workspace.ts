import type { Services } from '../../src/boot/services';
import { accountsCollection } from '../identity/accounts.collection';
import { workspacesCollection } from './workspaces.collection';
import { accountMemberKey } from './workspace-members.collection';

/**
 * Every account has a default workspace (docs/workspaces.md). Signup provisions it under the id
 * recorded on the account (`defaultWorkspaceId`); an account whose workspace document is missing
 * (made before signup wrote it, or a signup cut short between its two writes) gets it here, on
 * first use, under that same recorded id: two racing first uses insert one document
 * (`insertIfAbsent`), never two default workspaces.
 */

/** What the default workspace of an account is named. */
export const DEFAULT_WORKSPACE_NAME = 'Default workspace';

/** The account's default workspace id, provisioned now if its document is missing; undefined: no such account. */
export async function defaultWorkspaceOf(services: Services, accountId: string): Promise<string | undefined> {
  const workspaces = services.documents.repository(workspacesCollection);
  const found = await workspaces.findOne({ ownerAccountId: accountId, isDefault: true });
  if (found) return found._id;
  const account = await services.documents.repository(accountsCollection).findById(accountId);
  if (!account) return undefined;
  const inserted = await workspaces.insertIfAbsent({
    _id: account.defaultWorkspaceId,
    ownerAccountId: accountId,
    name: DEFAULT_WORKSPACE_NAME,
    isDefault: true,
    members: [{ accountId, role: 'owner' }],
    createdAt: new Date(),
    version: 0,
  });
  // A list cached before it existed must not hide it from the files, memory and vault listings.
  if (inserted) {
    await services.workspaces.membership.invalidate(accountMemberKey(accountId));
    services.logger.info(
      { workspaceId: account.defaultWorkspaceId },
      'default workspace provisioned on first use',
    );
  }
  return account.defaultWorkspaceId;
}
