import {
  APP_DEVICE_TARGETS,
  type AppDeviceTarget,
  type AppDocument,
  type AppLibraryDocument,
  type AppVersion,
} from '../../schemas/documents/app';
import { errors } from '../../schemas/errors';
import { APP_LIBRARY_LIMIT, type AppLibraryResponse } from '../../schemas/http/apps';
import type { Repository } from '../../src/store/mongo';
import type { AppCaller, AppEffects } from './app-effects';
import type { AppInstaller } from './app-installer';
import { installationView, latestOf, versionOf } from './app-views';

/**
 * The device targets a version can be installed on: those its distribution serves (android,
 * ios; pwa from the web URL) and those the app declares in `deviceTargets` (e.g. desktop).
 */
export function deviceTargetsOf(app: AppDocument, version: AppVersion): AppDeviceTarget[] {
  const { androidUrl, iosUrl, webUrl } = version.manifest.distribution;
  const served = new Set<string>(app.deviceTargets);
  if (androidUrl) served.add('android');
  if (iosUrl) served.add('ios');
  if (webUrl) served.add('pwa');
  return APP_DEVICE_TARGETS.filter((t) => served.has(t));
}

/**
 * Device installs (docs/apps.md, "Devices"): a local install of an app the account owns (its
 * installation), from the package cached for offline install; removing one keeps ownership.
 */
export class AppDevices {
  constructor(
    private readonly deps: {
      installer: AppInstaller;
      effects: AppEffects;
      library: Repository<AppLibraryDocument>;
      apps: Repository<AppDocument>;
    },
  ) {}

  /**
   * `GET /api/apps/library`: the account's library (an entry per app it installed and has not
   * removed, in the workspace of its install) with the devices each is installed on, newest first.
   */
  async library(accountId: string): Promise<AppLibraryResponse> {
    const docs = await this.deps.library.find(
      { accountId },
      { sort: { addedAt: -1, _id: 1 }, limit: APP_LIBRARY_LIMIT },
    );
    const apps = await this.deps.apps.find(
      { _id: { $in: [...new Set(docs.map((d) => d.slug))] } },
      { limit: 0 },
    );
    const visible = new Map(
      apps.filter((a) => a.published || a.ownerAccountId === accountId).map((a) => [a._id, a.name]),
    );
    const library = docs.map((d) => ({
      slug: d.slug,
      name: visible.get(d.slug) ?? null,
      workspaceId: d.workspaceId,
      devices: d.devices.map((x) => ({ ...x, installedAt: x.installedAt.toISOString() })),
      addedAt: d.addedAt.toISOString(),
      updatedAt: d.updatedAt.toISOString(),
    }));
    return { library, total: await this.deps.library.count({ accountId }) };
  }

  /** `POST /api/apps/{slug}/device-install`: an `APP_DEVICE_INSTALL` execution. Again on a target: refreshed. */
  async install(caller: AppCaller, slug: string, body: { target: AppDeviceTarget; workspaceId?: string }) {
    const { accountId } = caller;
    const { effects, library } = this.deps;
    const { app, installation } = await this.deps.installer.installed(accountId, slug);
    if (installation.status === 'disabled') {
      throw errors.conflict(`App ${slug} is disabled: enable it before installing it on a device`, {
        status: 'disabled',
      });
    }
    if (body.workspaceId && installation.workspaceId && body.workspaceId !== installation.workspaceId) {
      throw errors.conflict(`App ${slug} is installed in another workspace`, {
        field: 'workspaceId',
        workspaceId: installation.workspaceId,
      });
    }
    const version = versionOf(app, installation.installedVersion) ?? latestOf(app);
    const supported = deviceTargetsOf(app, version);
    if (!supported.includes(body.target)) {
      throw errors.conflict(`App ${slug} ${version.version} cannot be installed on ${body.target}`, {
        target: body.target,
        supportedTargets: supported,
      });
    }
    const workspaceId = await effects.workspaceFor(caller, body.workspaceId ?? installation.workspaceId);
    // Installs made before library entries existed get theirs now.
    const entry = await effects.addToLibrary(accountId, slug, workspaceId);
    const cached = await effects.cachePackage(accountId, app, version);
    const device = { target: body.target, version: version.version, installedAt: effects.now() };
    await library.updateOne(
      { _id: entry._id },
      {
        $set: {
          devices: [...entry.devices.filter((d) => d.target !== body.target), device],
          updatedAt: device.installedAt,
        },
      },
    );
    const execution = await effects.execution(caller, {
      type: 'APP_DEVICE_INSTALL',
      title: `Install ${app.name} ${version.version} on ${body.target}`,
      slug,
      workspaceId,
      lines: [
        `Ownership checked: ${slug} ${version.version} is installed in the workspace`,
        `Package cached for offline install (${cached.bytes} bytes, sha256 ${cached.sha256.slice(0, 12)}…)`,
        `Installed on ${body.target}`,
      ],
      result: { slug, target: body.target, version: version.version },
    });
    await effects.activity(accountId, slug, 'device_install', `Installed ${app.name} on ${body.target}`, {
      executionId: execution.id,
      workspaceId,
    });
    return {
      workspaceInstalled: true,
      deviceInstalled: true,
      target: body.target,
      packageCachedForOfflineInstall: true,
      package: { version: cached.version, sha256: cached.sha256, bytes: cached.bytes },
      execution,
    };
  }

  /**
   * `DELETE /api/apps/{slug}/device-install[?target=]`: removes the local install; the
   * installation (ownership) stays. Without a target, the one device install there is.
   */
  async remove(caller: AppCaller, slug: string, target?: AppDeviceTarget) {
    const { accountId } = caller;
    const { app, installation } = await this.deps.installer.installed(accountId, slug);
    const entry = await this.deps.effects.libraryEntry(accountId, slug);
    const devices = entry?.devices ?? [];
    if (!target && devices.length > 1) {
      throw errors.validation(
        `App ${slug} is installed on ${devices.map((d) => d.target).join(', ')}: name the target`,
        { field: 'target', targets: devices.map((d) => d.target) },
      );
    }
    const chosen = target ?? devices[0]?.target;
    if (!entry || !chosen || !devices.some((d) => d.target === chosen)) {
      throw errors.notFound(`App ${slug} is not installed on ${chosen ?? 'any device'}`, {
        slug,
        ...(chosen ? { target: chosen } : {}),
      });
    }
    const pulled = await this.deps.library.findOneAndUpdate(
      { _id: entry._id, 'devices.target': chosen },
      { $pull: { devices: { target: chosen } }, $set: { updatedAt: this.deps.effects.now() } },
    );
    if (!pulled) throw errors.notFound(`App ${slug} is not installed on ${chosen}`, { slug, target: chosen });
    await this.deps.effects.activity(accountId, slug, 'device_remove', `Removed ${app.name} from ${chosen}`);
    return {
      removed: true,
      ownershipPreserved: true,
      target: chosen,
      installation: installationView(installation),
    };
  }
}
