import type { AccountDocument, WorkspaceDocument } from '../../schemas/documents/account';
import { errors } from '../../schemas/errors';
import type { Repository } from '../../src/store/mongo';
import { capabilityRequired, planHas } from '../identity/plans';

/** The capability to manage the vault of a workspace the account does not own. */
export const ORG_VAULT_CAPABILITY = 'manage_org_vault';

/**
 * Which workspaces an account's vault may use, from the `workspaces` and `accounts` collections of
 * the identity domain:
 *
 * - **manage** (secrets, assignments): the workspace's owner, on any plan; an `admin` member
 *   (or co-owner) only with `manage_org_vault` (enterprise plans); anyone else is refused.
 * - **use** (runtime grants): any member.
 *
 * A workspace the account is not a member of reads as 404 `Workspace not found`, like one that
 * does not exist.
 */
export class VaultWorkspaces {
  constructor(
    private readonly workspaces: Repository<WorkspaceDocument>,
    private readonly accounts: Repository<AccountDocument>,
  ) {}

  /** Whether the account owns the workspace or is one of its members. */
  async isMember(accountId: string, workspaceId: string): Promise<boolean> {
    const ws = await this.workspaces.findById(workspaceId);
    return (
      ws !== null && (ws.ownerAccountId === accountId || ws.members.some((m) => m.accountId === accountId))
    );
  }

  /** The account's default workspace (provisioned at signup). */
  async defaultOf(accountId: string): Promise<string> {
    const account = await this.accounts.findById(accountId);
    if (!account) throw errors.notFound('Account not found');
    return account.defaultWorkspaceId;
  }

  /** Refuses unless the account may manage secrets in the workspace. */
  async assertManage(accountId: string, workspaceId: string): Promise<void> {
    const ws = await this.workspaces.findById(workspaceId);
    if (ws?.ownerAccountId === accountId) return;
    const role = ws?.members.find((m) => m.accountId === accountId)?.role;
    if (!role) throw errors.notFound('Workspace not found', { field: 'workspaceId' });
    if (role === 'member') {
      throw errors.forbidden("Only the workspace's owner and admins manage its vault");
    }
    const account = await this.accounts.findById(accountId);
    if (!account || !planHas(account.plan, ORG_VAULT_CAPABILITY)) {
      throw errors.forbidden(capabilityRequired(ORG_VAULT_CAPABILITY));
    }
  }
}
