import type { AccountDocument } from '../../schemas/documents/account';
import { errors } from '../../schemas/errors';
import type { Repository } from '../../src/store/mongo';
import { capabilityRequired, planHas } from '../identity/plans';
import type { WorkspaceMembership } from '../workspaces/workspace-membership';

/** The capability to manage the vault of a workspace the account does not own. */
export const ORG_VAULT_CAPABILITY = 'manage_org_vault';

/**
 * Which workspaces an account's vault may use. Membership and roles are the workspaces domain's
 * decision (`WorkspaceMembership`, docs/workspaces.md); the plan comes from `accounts`:
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
    private readonly membership: WorkspaceMembership,
    private readonly accounts: Repository<AccountDocument>,
    /** Provisions a missing default workspace on first use (actors/workspaces/default-workspace.ts). */
    private readonly ensureDefault?: (accountId: string) => Promise<string | undefined>,
  ) {}

  /** Whether the account owns the workspace or is one of its members. */
  isMember(accountId: string, workspaceId: string): Promise<boolean> {
    return this.membership.isMember({ accountId }, workspaceId);
  }

  /** The account's default workspace (provisioned at signup, or on first use for older accounts). */
  async defaultOf(accountId: string): Promise<string> {
    if (this.ensureDefault) {
      const id = await this.ensureDefault(accountId);
      if (!id) throw errors.notFound('Account not found');
      return id;
    }
    const account = await this.accounts.findById(accountId);
    if (!account) throw errors.notFound('Account not found');
    return account.defaultWorkspaceId;
  }

  /** Refuses unless the account may manage secrets in the workspace. */
  async assertManage(accountId: string, workspaceId: string): Promise<void> {
    const role = await this.membership.roleOf({ accountId }, workspaceId);
    if (role === 'owner') return;
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
