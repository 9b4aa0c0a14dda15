import type { AppDocument, AppInstallationDocument } from '../../schemas/documents/app';
import { AppError, errors } from '../../schemas/errors';
import type { InstallAppBody, PatchInstallationBody } from '../../schemas/http/apps';
import type { Repository } from '../../src/store/mongo';
import type { AppCatalog } from './app-catalog';
import type { AppReadiness, Readiness } from './app-readiness';
import {
  appView,
  installationView,
  latestOf,
  versionOf,
  type AppView,
  type InstallationView,
} from './app-views';
import { newAppInstallationId } from './apps.collection';

export interface AppInstallerDeps {
  apps: Repository<AppDocument>;
  installations: Repository<AppInstallationDocument>;
  catalog: AppCatalog;
  readiness: AppReadiness;
  now?: () => Date;
}

/** The 400 of a missing requirement, in the order of the install checks. */
function requirementError(r: Readiness): AppError | undefined {
  if (r.missingSecrets.length > 0) {
    return new AppError(
      'SECRET_REQUIRED',
      `Assign the secrets ${r.missingSecrets.join(', ')} to this app in the vault first`,
      { missingSecrets: r.missingSecrets },
    );
  }
  if (r.missingSkills.length > 0) {
    return new AppError('SKILL_REQUIRED', `Install the skills ${r.missingSkills.join(', ')} first`, {
      missingSkills: r.missingSkills,
    });
  }
  if (r.missingPermissions.length > 0) {
    return new AppError(
      'PERMISSION_REQUIRED',
      `Approve the permissions ${r.missingPermissions.join(', ')} (permissionsApproved)`,
      { missingPermissions: r.missingPermissions },
    );
  }
  return undefined;
}

/**
 * Installations of apps per account (docs/apps.md, "Installing"): every check is made before the
 * one write, so a refused install leaves nothing behind; updates and rollback move the
 * installation between the app's kept versions.
 */
export class AppInstaller {
  constructor(private readonly deps: AppInstallerDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  private async current(accountId: string, slug: string): Promise<AppInstallationDocument | null> {
    return this.deps.installations.findOne({ accountId, slug });
  }

  /** The account's live (not removed) installation of a visible app, else 404. */
  private async installed(accountId: string, slug: string) {
    const app = await this.deps.catalog.get(slug, accountId);
    const installation = await this.current(accountId, slug);
    if (!installation || installation.status === 'removed') {
      throw errors.notFound(`App ${slug} is not installed`, { slug });
    }
    return { app, installation };
  }

  async readiness(accountId: string, slug: string): Promise<Readiness> {
    const app = await this.deps.catalog.get(slug, accountId);
    return this.deps.readiness.of(accountId, app, await this.current(accountId, slug));
  }

  async install(
    accountId: string,
    body: InstallAppBody,
  ): Promise<{ app: AppView; installation: InstallationView; readiness: Readiness }> {
    const { installations, apps, readiness } = this.deps;
    const app = await this.deps.catalog.get(body.slug, accountId);
    if (!app.published) throw errors.conflict(`App ${app._id} is not published: it cannot be installed`);
    const existing = await this.current(accountId, app._id);
    if (existing && existing.status !== 'removed') {
      throw errors.conflict(`App ${app._id} is already installed (PATCH or DELETE its installation)`, {
        installation: installationView(existing),
      });
    }
    const latest = latestOf(app);
    const approved = [...new Set(body.permissionsApproved)];
    const check = await readiness.of(accountId, app, null, {
      manifest: latest.manifest,
      approved,
      workspaceId: body.workspaceId,
    });
    const refused = requirementError(check);
    if (refused) throw refused;
    const now = this.now();
    const doc: AppInstallationDocument = {
      _id: existing?._id ?? newAppInstallationId(),
      accountId,
      slug: app._id,
      ...(body.workspaceId ? { workspaceId: body.workspaceId } : {}),
      installedVersion: latest.version,
      previousVersions: [],
      status: 'active',
      favorite: existing?.favorite ?? false,
      permissionsApproved: approved,
      installedAt: now,
      updatedAt: now,
    };
    if (existing) {
      // Installed again after a removal: only if it is still removed (a racing install wins once).
      const { _id, ...fields } = doc;
      const replaced = await installations.findOneAndUpdate(
        { _id, status: 'removed' },
        { $set: fields, ...(body.workspaceId ? {} : { $unset: { workspaceId: '' } }) },
      );
      if (!replaced) throw errors.conflict(`App ${app._id} is already installed`);
    } else if (!(await installations.insertIfAbsent(doc))) {
      throw errors.conflict(`App ${app._id} is already installed`);
    }
    await apps.updateOne({ _id: app._id }, { $inc: { installCount: 1 } });
    const fresh = { ...app, installCount: app.installCount + 1 };
    return {
      app: appView(fresh),
      installation: installationView(doc),
      readiness: await readiness.of(accountId, fresh, doc),
    };
  }

  async installedApps(accountId: string) {
    const docs = await this.deps.installations.find(
      { accountId, status: { $ne: 'removed' } },
      { sort: { installedAt: -1, _id: 1 }, limit: 0 },
    );
    const apps = await this.deps.apps.find({ _id: { $in: docs.map((d) => d.slug) } }, { limit: 0 });
    const bySlug = new Map(apps.map((a) => [a._id, a]));
    const installedApps = [];
    for (const doc of docs) {
      const app = bySlug.get(doc.slug);
      if (!app || (!app.published && app.ownerAccountId !== accountId)) continue;
      installedApps.push({
        slug: doc.slug,
        installation: installationView(doc),
        readiness: await this.deps.readiness.of(accountId, app, doc),
      });
    }
    return { installedApps };
  }

  async patch(accountId: string, slug: string, body: PatchInstallationBody) {
    const { app, installation } = await this.installed(accountId, slug);
    const set: Partial<AppInstallationDocument> = { updatedAt: this.now() };
    if (body.favorite !== undefined) set.favorite = body.favorite;
    if (body.permissionsApproved !== undefined)
      set.permissionsApproved = [...new Set(body.permissionsApproved)];
    if (body.status !== undefined) set.status = body.status;
    const updated = await this.deps.installations.findOneAndUpdate({ _id: installation._id }, { $set: set });
    if (!updated) throw errors.notFound(`App ${slug} is not installed`, { slug });
    return { app: appView(app), installation: installationView(updated) };
  }

  async uninstall(accountId: string, slug: string) {
    const { app, installation } = await this.installed(accountId, slug);
    const updated = await this.deps.installations.findOneAndUpdate(
      { _id: installation._id, status: { $ne: 'removed' } },
      { $set: { status: 'removed', updatedAt: this.now() } },
    );
    if (!updated) throw errors.notFound(`App ${slug} is not installed`, { slug });
    return { removed: true, app: appView(app), installation: installationView(updated) };
  }

  /**
   * `POST /api/apps/{slug}/open`: readiness re-run now; 404 not installed, 409 disabled, 409
   * APP_NOT_READY with what is missing (a secret unassigned, a skill removed, an approval
   * withdrawn since install), 409 when the version has no URL for the target.
   */
  async open(accountId: string, slug: string, target: 'web' | 'android' | 'ios') {
    const { app, installation } = await this.installed(accountId, slug);
    if (installation.status === 'disabled')
      throw errors.conflict(`App ${slug} is disabled`, { status: 'disabled' });
    const r = await this.deps.readiness.of(accountId, app, installation);
    if (!r.ready) {
      const { missingSecrets, missingSkills, missingPermissions } = r;
      throw new AppError('APP_NOT_READY', `App ${slug} is not ready to open`, {
        missingSecrets,
        missingSkills,
        missingPermissions,
      });
    }
    const url = r.targets.find((t) => t.target === target)?.url;
    if (!url) throw errors.conflict(`App ${slug} has no ${target} distribution`, { target });
    return { app: appView(app), installation: installationView(installation), openUrl: url, target };
  }

  /** `GET /api/apps/updates`: live installations behind their app's latest version. */
  async updates(accountId: string) {
    const docs = await this.deps.installations.find({ accountId, status: { $ne: 'removed' } }, { limit: 0 });
    const apps = await this.deps.apps.find({ _id: { $in: docs.map((d) => d.slug) } }, { limit: 0 });
    const bySlug = new Map(apps.map((a) => [a._id, a]));
    const updates = docs.flatMap((doc) => {
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
    return updates;
  }

  /**
   * `POST /api/apps/updates`: moves every installation behind to the latest version when the
   * latest version's requirements are met (re-checked); the others are `skipped` with what is missing.
   */
  async applyUpdates(accountId: string) {
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
      const moved = await this.move(u.installation, latest.version, 'update');
      if (moved)
        updated.push({
          slug: app._id,
          from: u.installedVersion,
          to: latest.version,
          installation: installationView(moved),
        });
    }
    return { updated, skipped, total: updated.length };
  }

  /** `POST /api/apps/{slug}/rollback`: back to the version installed before this one. */
  async rollback(accountId: string, slug: string) {
    const { app, installation } = await this.installed(accountId, slug);
    const prior = installation.previousVersions[installation.previousVersions.length - 1];
    if (!prior || !versionOf(app, prior)) {
      throw errors.conflict(`App ${slug} has no prior installed version to roll back to`, {
        installedVersion: installation.installedVersion,
      });
    }
    const moved = await this.move(installation, prior, 'rollback');
    if (!moved) throw errors.conflict('The installation changed meanwhile; try again');
    return { app: appView(app), installation: installationView(moved), rolledBackTo: prior };
  }

  /** Moves an installation to `version`, conditional on the version it was read at. */
  private move(installation: AppInstallationDocument, version: string, how: 'update' | 'rollback') {
    const previousVersions =
      how === 'update'
        ? [...installation.previousVersions, installation.installedVersion]
        : installation.previousVersions.slice(0, -1);
    return this.deps.installations.findOneAndUpdate(
      { _id: installation._id, installedVersion: installation.installedVersion, status: { $ne: 'removed' } },
      { $set: { installedVersion: version, previousVersions, updatedAt: this.now() } },
    );
  }
}
