import type {
  AuditActor,
  VaultAssignmentDocument,
  VaultGrantDocument,
  VaultSecretDocument,
} from '../../schemas/documents/vault';
import { errors } from '../../schemas/errors';
import type { AccessBody, GrantView } from '../../schemas/http/vault';
import type { Repository } from '../../src/store/mongo';
import { secretPermission, type AppPermissionChecker } from './app-permissions';
import type { VaultAuditLog } from './vault-audit';
import type { VaultWorkspaces } from './vault-workspaces';
import { grantView, newGrantId } from './vault.collection';

/** Why an access request was refused (`reason` in the 403 and in the audit entry). */
export type DenyReason =
  | 'workspace_not_found'
  | 'workspace_panic'
  | 'secret_not_found'
  | 'secret_disabled'
  | 'not_assigned'
  | 'app_permission_missing';

export interface VaultAccessDeps {
  secrets: Repository<VaultSecretDocument>;
  assignments: Repository<VaultAssignmentDocument>;
  grants: Repository<VaultGrantDocument>;
  workspaces: VaultWorkspaces;
  audit: VaultAuditLog;
  appPermissions: AppPermissionChecker;
  /** Whether the workspace is in panic lockdown (no new grants while it is). */
  isPanicLocked: (workspaceId: string) => Promise<boolean>;
  now: () => Date;
}

/**
 * `POST /api/vault/access` (`action: 'runtime'`): the checks, in order, then the grant. Every
 * refusal is 403 PERMISSION_DENIED `{granted: false, reason}` and an audit entry `denied`; a grant
 * is an audit entry `granted`.
 *
 * 1. the workspace is one the account belongs to, and not in panic lockdown;
 * 2. the secret exists in that workspace and is active;
 * 3. it is assigned to the subject (`subjectType`, `subjectId`);
 * 4. for an app (`appSlug`, or `subjectId` when the subject is an app), the app's installation has
 *    the permission `secrets:<NAME>` approved (`AppPermissionChecker`).
 */
export class VaultAccess {
  constructor(private readonly deps: VaultAccessDeps) {}

  async request(
    accountId: string,
    actor: AuditActor,
    body: AccessBody,
  ): Promise<{ granted: true; grant: GrantView }> {
    const { secrets, assignments, grants, workspaces, audit, appPermissions } = this.deps;
    const { workspaceId, secretName: name, subjectType, subjectId } = body;
    const deny = async (reason: DenyReason, message: string, secretId?: string): Promise<never> => {
      await audit.record({
        accountId,
        workspaceId,
        event: 'denied',
        secretName: name,
        ...(secretId ? { secretId } : {}),
        subjectType,
        subjectId,
        actor,
        reason,
      });
      throw errors.forbidden(message, { granted: false, reason });
    };

    if (!(await workspaces.isMember(accountId, workspaceId))) {
      return deny('workspace_not_found', 'Workspace not found');
    }
    if (await this.deps.isPanicLocked(workspaceId)) {
      return deny('workspace_panic', 'The workspace is in panic lockdown: no secret is granted');
    }
    const secret = await secrets.findOne({ accountId, workspaceId, name });
    if (!secret) return deny('secret_not_found', `No secret named ${name} in this workspace`);
    if (secret.status !== 'active') {
      return deny('secret_disabled', `Secret ${name} is disabled`, secret._id);
    }
    if ((await assignments.count({ secretId: secret._id, subjectType, subjectId })) === 0) {
      return deny('not_assigned', `Secret ${name} is not assigned to this ${subjectType}`, secret._id);
    }
    const appSlug = body.appSlug ?? (subjectType === 'app' ? subjectId : undefined);
    if (appSlug !== undefined) {
      const permission = secretPermission(name);
      if (!(await appPermissions.isApproved({ accountId, workspaceId, appSlug, permission }))) {
        return deny(
          'app_permission_missing',
          `App ${appSlug} has no approved permission ${permission}`,
          secret._id,
        );
      }
    }

    const now = this.deps.now();
    const grant = await grants.insert({
      _id: newGrantId(),
      version: 0,
      accountId,
      workspaceId,
      secretId: secret._id,
      secretName: name,
      subjectType,
      subjectId,
      ...(body.appSlug ? { appSlug: body.appSlug } : {}),
      status: 'active',
      createdAt: now,
      expiresAt: new Date(now.getTime() + body.ttlSeconds * 1000),
      requestedBy: actor,
    });
    await audit.record({
      accountId,
      workspaceId,
      event: 'granted',
      secretName: name,
      secretId: secret._id,
      grantId: grant._id,
      subjectType,
      subjectId,
      actor,
    });
    return { granted: true, grant: grantView(grant) };
  }
}
