import type { AppDocument, AppInstallationDocument } from '../../schemas/documents/app';
import type { Repository } from '../../src/store/mongo';
import type { AppPermissionChecker, AppPermissionQuery } from '../vault/app-permissions';
import type { AppEffects } from './app-effects';
import { latestOf, versionOf } from './app-views';

/**
 * The vault's app permission check answered from the app store's records (wired in
 * src/boot/build-services.ts). It fails closed: the app must exist and be visible to the account
 * (published, or its own), the account's installation must be active (not disabled or removed)
 * and in the grant's workspace when it names one, a `secrets:<NAME>` permission must name a secret
 * among the installed version's `requiredSecrets`, and the installation must have it approved.
 * An approved secret is a runtime use of the app: it counts the account as one of its active users.
 */
export class AppStorePermissionChecker implements AppPermissionChecker {
  constructor(
    private readonly deps: {
      apps: Repository<AppDocument>;
      installations: Repository<AppInstallationDocument>;
      effects?: AppEffects;
    },
  ) {}

  async isApproved(query: AppPermissionQuery): Promise<boolean> {
    const [app, installation] = await Promise.all([
      this.deps.apps.findById(query.appSlug),
      this.deps.installations.findOne({ accountId: query.accountId, slug: query.appSlug }),
    ]);
    if (!app || (!app.published && app.ownerAccountId !== query.accountId)) return false;
    if (!installation || installation.status !== 'active') return false;
    if (installation.workspaceId && installation.workspaceId !== query.workspaceId) return false;
    if (query.permission.startsWith('secrets:')) {
      const manifest = (versionOf(app, installation.installedVersion) ?? latestOf(app)).manifest;
      if (!manifest.requiredSecrets.includes(query.permission.slice('secrets:'.length))) return false;
    }
    const approved = installation.permissionsApproved.includes(query.permission);
    if (approved) await this.deps.effects?.markActive(query.accountId, query.appSlug);
    return approved;
  }
}
