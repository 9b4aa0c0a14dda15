import type { AppDocument, AppInstallationDocument } from '../../schemas/documents/app';
import { appInstallEffect } from './app-install-undoer';
import { AppError, errors } from '../../schemas/errors';
import type { InstallAppBody, PatchInstallationBody } from '../../schemas/http/apps';
import type { Repository } from '../../src/store/mongo';
import type { AppCatalog } from './app-catalog';
import type { AppCaller, AppEffects, AppExecution } from './app-effects';
import type { AppReadiness, Readiness } from './app-readiness';
import { appView, installationView, latestOf, type AppView, type InstallationView } from './app-views';
import { newAppInstallationId } from './apps.collection';

export interface AppInstallerDeps {
  apps: Repository<AppDocument>;
  installations: Repository<AppInstallationDocument>;
  catalog: AppCatalog;
  readiness: AppReadiness;
  effects: AppEffects;
  /** Called after a change of installs (discovery drops its cached rows). */
  onChange?: () => void;
  now?: () => Date;
}

/** The 400 of a missing requirement, in the order of the install checks. */
export function requirementError(r: Readiness): AppError | undefined {
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
  async installed(accountId: string, slug: string) {
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

  /**
   * `POST /api/apps/install`: every check (visibility, published, requirements, workspace,
   * lockdown) before the one write of the installation; then its side effects (AppEffects). When
   * one of those fails the installation is put back as it was, so a failed install leaves no
   * ownership, library entry or notification behind.
   */
  async install(
    caller: AppCaller,
    body: InstallAppBody,
  ): Promise<{
    app: AppView;
    installation: InstallationView;
    readiness: Readiness;
    execution: AppExecution;
  }> {
    const { installations, apps, readiness, effects } = this.deps;
    const { accountId } = caller;
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
    const workspaceId = await effects.workspaceFor(caller, body.workspaceId);
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
      ...(existing?.rating ? { rating: existing.rating } : {}),
      ...(existing?.lastActiveAt ? { lastActiveAt: existing.lastActiveAt } : {}),
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
    let execution: AppExecution | undefined;
    try {
      await effects.addToLibrary(accountId, app._id, workspaceId);
      const cached = await effects.cachePackage(accountId, app, latest);
      execution = await effects.execution(caller, {
        type: 'APP_INSTALL',
        title: `Install ${app.name} ${latest.version}`,
        slug: app._id,
        workspaceId,
        lines: [
          `Requirements met: permissions approved (${check.requiredPermissions.join(', ') || 'none required'}), skills and secrets in place`,
          `Installed ${app._id} ${latest.version} (ownership) and added it to the library`,
          `Package cached for offline install (${cached.bytes} bytes, sha256 ${cached.sha256.slice(0, 12)}…)`,
        ],
        result: { slug: app._id, version: latest.version, workspaceId, packageSha256: cached.sha256 },
        effects: [
          appInstallEffect({
            accountId,
            slug: app._id,
            installationId: doc._id,
            version: latest.version,
            installedAt: now.toISOString(),
          }),
        ],
      });
      const extra = { executionId: execution.id, workspaceId };
      await effects.activity(accountId, app._id, 'install', `Installed ${app.name} ${latest.version}`, extra);
      await effects.notify(accountId, {
        title: `App installed: ${app.name}`,
        body: `${app.name} ${latest.version} is in your library and ready to open.`,
        ...extra,
      });
    } catch (err) {
      await this.undoInstall(doc, existing, execution?.id);
      throw err;
    }
    this.deps.onChange?.();
    const fresh = { ...app, installCount: app.installCount + 1 };
    return {
      app: appView(fresh),
      installation: installationView(doc),
      readiness: await readiness.of(accountId, fresh, doc),
      execution,
    };
  }

  /** Puts the installation back as it was before a failed install (new: deleted; else removed again). */
  private async undoInstall(
    doc: AppInstallationDocument,
    existing: AppInstallationDocument | null,
    executionId?: string,
  ): Promise<void> {
    const { installations, apps, effects } = this.deps;
    if (existing) await installations.raw.replaceOne({ _id: doc._id }, existing);
    else await installations.deleteById(doc._id);
    await apps.updateOne({ _id: doc.slug }, { $inc: { installCount: -1 } });
    await effects.undoInstall(doc.accountId, doc.slug, executionId);
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

  /**
   * `DELETE …/installation`. With `only`, just that install at that version (a rollback of its
   * APP_INSTALL execution): the condition is part of the one write, so an install made again or
   * updated meanwhile is never removed by it (CONFLICT).
   */
  async uninstall(accountId: string, slug: string, only?: { installedAt: Date; installedVersion: string }) {
    const { app, installation } = await this.installed(accountId, slug);
    const updated = await this.deps.installations.findOneAndUpdate(
      { _id: installation._id, status: { $ne: 'removed' }, ...(only ?? {}) },
      { $set: { status: 'removed', updatedAt: this.now() } },
    );
    if (!updated && only) throw errors.conflict(`App ${slug} changed while it was being rolled back`);
    if (!updated) throw errors.notFound(`App ${slug} is not installed`, { slug });
    await this.deps.effects.dropFromLibrary(accountId, slug);
    await this.deps.effects.activity(accountId, slug, 'uninstall', `Removed ${app.name}`);
    this.deps.onChange?.();
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
    await this.deps.effects.markActive(accountId, slug);
    await this.deps.effects.activity(accountId, slug, 'open', `Opened ${app.name} (${target})`);
    return { app: appView(app), installation: installationView(installation), openUrl: url, target };
  }
}
