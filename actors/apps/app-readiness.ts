import type { AppDocument, AppInstallationDocument, AppManifest } from '../../schemas/documents/app';
import type { VaultAssignmentDocument, VaultSecretDocument } from '../../schemas/documents/vault';
import type { Repository } from '../../src/store/mongo';
import { secretPermission } from '../vault/app-permissions';
import { installationView, latestOf, versionOf, type InstallationView } from './app-views';

/** The readiness record of the spec (Resources, "Readiness fields"). */
export interface Readiness {
  installation: InstallationView | null;
  requiredPermissions: string[];
  missingPermissions: string[];
  missingSecrets: string[];
  missingSkills: string[];
  ready: boolean;
  updateAvailable: boolean;
  targets: { target: 'web' | 'android' | 'ios'; url: string }[];
}

export interface ReadinessDeps {
  secrets: Repository<VaultSecretDocument>;
  assignments: Repository<VaultAssignmentDocument>;
  /** The slugs of the account's installed and active skills (the skill store's service). */
  activeSkills: (accountId: string) => Promise<string[]>;
}

/** What an installation of `manifest` must approve: its permissions and `secrets:<NAME>` of each secret. */
export function requiredPermissionsOf(manifest: AppManifest): string[] {
  return [...new Set([...manifest.permissions, ...manifest.requiredSecrets.map(secretPermission)])];
}

/**
 * Readiness from the account's real state (docs/apps.md, "Readiness"): permissions approved on the
 * installation, active vault secrets assigned to the app (subject `app`, id = slug; in the
 * installation's workspace when it has one), installed and active skills, installed vs latest
 * version. The requirements are those of the installed version, or of the latest before install.
 */
export class AppReadiness {
  constructor(private readonly deps: ReadinessDeps) {}

  /** Names of the account's active secrets assigned to the app. */
  async assignedSecrets(accountId: string, slug: string, workspaceId?: string): Promise<Set<string>> {
    const assigned = await this.deps.assignments.find(
      { accountId, subjectType: 'app', subjectId: slug, ...(workspaceId ? { workspaceId } : {}) },
      { limit: 0 },
    );
    if (assigned.length === 0) return new Set();
    const secrets = await this.deps.secrets.find(
      { _id: { $in: assigned.map((a) => a.secretId) }, accountId, status: 'active' },
      { limit: 0 },
    );
    return new Set(secrets.map((s) => s.name));
  }

  async of(
    accountId: string,
    app: AppDocument,
    installation: AppInstallationDocument | null,
    options: { manifest?: AppManifest; approved?: string[]; workspaceId?: string } = {},
  ): Promise<Readiness> {
    const live = installation && installation.status !== 'removed' ? installation : null;
    const manifest =
      options.manifest ??
      (live ? (versionOf(app, live.installedVersion) ?? latestOf(app)).manifest : latestOf(app).manifest);
    const approved = new Set(options.approved ?? live?.permissionsApproved ?? []);
    const [secrets, skills] = await Promise.all([
      this.assignedSecrets(accountId, app._id, options.workspaceId ?? live?.workspaceId),
      this.deps.activeSkills(accountId),
    ]);
    const activeSkills = new Set(skills);
    const requiredPermissions = requiredPermissionsOf(manifest);
    const missingPermissions = requiredPermissions.filter((p) => !approved.has(p));
    const missingSecrets = manifest.requiredSecrets.filter((s) => !secrets.has(s));
    const missingSkills = manifest.requiredSkills.filter((s) => !activeSkills.has(s));
    const { webUrl, androidUrl, iosUrl } = manifest.distribution;
    const targets = (
      [
        ['web', webUrl],
        ['android', androidUrl],
        ['ios', iosUrl],
      ] as const
    ).flatMap(([target, url]) => (url ? [{ target, url }] : []));
    return {
      installation: live ? installationView(live) : null,
      requiredPermissions,
      missingPermissions,
      missingSecrets,
      missingSkills,
      ready:
        live?.status === 'active' &&
        missingPermissions.length === 0 &&
        missingSecrets.length === 0 &&
        missingSkills.length === 0,
      updateAvailable: live !== null && live.installedVersion !== app.latestVersion,
      targets,
    };
  }
}
