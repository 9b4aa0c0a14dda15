import type { AppDocument, AppInstallationDocument } from '../../schemas/documents/app';
import { errors } from '../../schemas/errors';
import type { Repository } from '../../src/store/mongo';
import type { AppCaller, AppEffects } from './app-effects';
import { requirementError, type AppInstaller } from './app-installer';
import type { AppReadiness } from './app-readiness';
import { appView, installationView, latestOf, versionOf } from './app-views';

export interface AppUpdaterDeps {
  apps: Repository<AppDocument>;
  installations: Repository<AppInstallationDocument>;
  installer: AppInstaller;
  readiness: AppReadiness;
  effects: AppEffects;
  now?: () => Date;
}

/**
 * Updates and rollback (docs/apps.md, "Updates and rollback"): an installation moves between the
 * app's kept versions; each move is conditional on the version read (concurrent moves do not
 * interleave) and recorded as an execution (`APP_UPDATE`, `APP_ROLLBACK`) with an activity line.
 */
export class AppUpdater {
  constructor(private readonly deps: AppUpdaterDeps) {}

  /** `GET /api/apps/updates`: live installations behind their app's latest version. */
  async updates(accountId: string) {
    const docs = await this.deps.installations.find({ accountId, status: { $ne: 'removed' } }, { limit: 0 });
    const apps = await this.deps.apps.find({ _id: { $in: docs.map((d) => d.slug) } }, { limit: 0 });
    const bySlug = new Map(apps.map((a) => [a._id, a]));
    return docs.flatMap((doc) => {
      const app = bySlug.get(doc.slug);
      if (!app || !app.published || doc.installedVersion === app.latestVersion) return [];
      return [
        {
          app: appView(app),
          currentVersion: app.latestVersion,
          installedVersion: doc.installedVersion,
          releaseNotes: latestOf(app).releaseNotes,
          installation: doc,
        },
      ];
    });
  }

  /**
   * `POST /api/apps/updates`: moves every installation behind to the latest version when the
   * latest version's requirements are met (re-checked); the others are `skipped` with what is
   * missing. Each move is an `APP_UPDATE` execution and caches the new version's package.
   */
  async applyUpdates(caller: AppCaller) {
    const { accountId } = caller;
    const { effects } = this.deps;
    const updated = [];
    const skipped = [];
    for (const u of await this.updates(accountId)) {
      const app = await this.deps.apps.getById(u.app.slug);
      const latest = latestOf(app);
      const check = await this.deps.readiness.of(accountId, app, u.installation, {
        manifest: latest.manifest,
      });
      const refused = requirementError(check);
      if (refused) {
        skipped.push({ slug: app._id, code: refused.code, error: refused.message, ...refused.details });
        continue;
      }
      const workspaceId = await effects.workspaceFor(caller, u.installation.workspaceId);
      const moved = await this.move(u.installation, latest.version, 'update');
      if (!moved) continue;
      const cached = await effects.cachePackage(accountId, app, latest);
      const execution = await effects.execution(caller, {
        type: 'APP_UPDATE',
        title: `Update ${app.name} ${u.installedVersion} → ${latest.version}`,
        slug: app._id,
        workspaceId,
        lines: [
          `Requirements of ${latest.version} re-checked: met`,
          `Moved ${app._id} from ${u.installedVersion} to ${latest.version} (${u.installedVersion} kept for rollback)`,
          `Package ${latest.version} cached (sha256 ${cached.sha256.slice(0, 12)}…)`,
        ],
        result: { slug: app._id, from: u.installedVersion, to: latest.version },
      });
      await effects.activity(accountId, app._id, 'update', `Updated ${app.name} to ${latest.version}`, {
        executionId: execution.id,
        workspaceId,
      });
      updated.push({
        slug: app._id,
        from: u.installedVersion,
        to: latest.version,
        installation: installationView(moved),
        execution: { id: execution.id, type: execution.type, status: execution.status },
      });
    }
    return { updated, skipped, total: updated.length };
  }

  /** `POST /api/apps/{slug}/rollback`: back to the version installed before this one. */
  async rollback(caller: AppCaller, slug: string) {
    const { accountId } = caller;
    const { app, installation } = await this.deps.installer.installed(accountId, slug);
    const prior = installation.previousVersions[installation.previousVersions.length - 1];
    if (!prior || !versionOf(app, prior)) {
      throw errors.conflict(`App ${slug} has no prior installed version to roll back to`, {
        installedVersion: installation.installedVersion,
      });
    }
    const workspaceId = await this.deps.effects.workspaceFor(caller, installation.workspaceId);
    const moved = await this.move(installation, prior, 'rollback');
    if (!moved) throw errors.conflict('The installation changed meanwhile; try again');
    const execution = await this.deps.effects.execution(caller, {
      type: 'APP_ROLLBACK',
      title: `Roll back ${app.name} ${installation.installedVersion} → ${prior}`,
      slug,
      workspaceId,
      lines: [`Moved ${slug} back from ${installation.installedVersion} to ${prior}; ownership kept`],
      result: { slug, from: installation.installedVersion, to: prior },
    });
    await this.deps.effects.activity(accountId, slug, 'rollback', `Rolled ${app.name} back to ${prior}`, {
      executionId: execution.id,
      workspaceId,
    });
    return {
      app: appView(app),
      installation: installationView(moved),
      rolledBackTo: prior,
      execution: { id: execution.id, type: execution.type, status: execution.status },
    };
  }

  /** Moves an installation to `version`, conditional on the version it was read at. */
  private move(installation: AppInstallationDocument, version: string, how: 'update' | 'rollback') {
    const previousVersions =
      how === 'update'
        ? [...installation.previousVersions, installation.installedVersion]
        : installation.previousVersions.slice(0, -1);
    return this.deps.installations.findOneAndUpdate(
      { _id: installation._id, installedVersion: installation.installedVersion, status: { $ne: 'removed' } },
      {
        $set: {
          installedVersion: version,
          previousVersions,
          updatedAt: this.deps.now?.() ?? new Date(),
        },
      },
    );
  }
}
