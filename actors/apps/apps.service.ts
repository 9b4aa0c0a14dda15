import type { Services } from '../../src/boot/services';
import { accountsCollection } from '../identity/accounts.collection';
import { NotificationsRepo } from '../notifications/notifications.repo';
import { developersCollection } from '../skills/skills.collection';
import { assignmentsCollection, secretsCollection } from '../vault/vault.collection';
import { AppCatalog } from './app-catalog';
import { AppDevices } from './app-devices';
import { AppDiscovery } from './app-discovery';
import { AppEffects } from './app-effects';
import { AppInstaller } from './app-installer';
import { AppRatings } from './app-ratings';
import { AppReadiness } from './app-readiness';
import { seedApps, type AppSeedReport } from './app-seed';
import { createAppUpdateRefresh } from './app-update-refresh';
import { AppUpdater } from './app-updates';
import { AppStorePermissionChecker } from './app-vault-permissions';
import {
  appActivityCollection,
  appInstallationsCollection,
  appLibraryCollection,
  appPackageCacheCollection,
  appsCollection,
} from './apps.collection';

/**
 * The app store of one process (docs/apps.md): `services.apps`. Built before the vault, the
 * executions and the skill store, which it serves (the vault's app permission check, developer
 * profiles' apps); it reads the skill store's and the executions' services only when called.
 */
export interface AppsService {
  readonly catalog: AppCatalog;
  readonly installer: AppInstaller;
  readonly updater: AppUpdater;
  readonly devices: AppDevices;
  readonly ratings: AppRatings;
  readonly discovery: AppDiscovery;
  /** Library entries, package cache, executions, activity and notifications of changes. */
  readonly effects: AppEffects;
  /** The vault's `AppPermissionChecker` (actors/vault/app-permissions.ts). */
  readonly permissions: AppStorePermissionChecker;
  /** Writes the seed apps into the store (idempotent; after the skill catalog's seed). */
  seed(): Promise<AppSeedReport>;
  /**
   * One pass of the `app-update-refresh` duty (app-update-refresh.ts): marks installations behind
   * their app's latest version and notifies each account once per version; resolves how many.
   */
  refreshUpdates(): Promise<number>;
}

export function createAppsService(
  services: Pick<Services, 'documents' | 'logger'> & {
    readonly skills?: Services['skills'];
    readonly executions?: Services['executions'];
  },
): AppsService {
  const { documents } = services;
  const log = services.logger.child({ component: 'apps' });
  const apps = documents.repository(appsCollection);
  const installations = documents.repository(appInstallationsCollection);
  const developers = documents.repository(developersCollection);
  const library = documents.repository(appLibraryCollection);
  const discovery = new AppDiscovery({ apps, installations });
  const onChange = () => discovery.invalidate();
  const catalog = new AppCatalog({
    apps,
    developers,
    accounts: documents.repository(accountsCollection),
    installations,
    onChange,
  });
  const readiness = new AppReadiness({
    secrets: documents.repository(secretsCollection),
    assignments: documents.repository(assignmentsCollection),
    activeSkills: async (accountId) => {
      const installed = (await services.skills?.installed(accountId)) ?? [];
      return installed.filter((i) => i.status === 'active').map((i) => i.skill.slug);
    },
  });
  const notifications = new NotificationsRepo(documents);
  const effects = new AppEffects({
    library,
    packages: documents.repository(appPackageCacheCollection),
    activity: documents.repository(appActivityCollection),
    installations,
    notifications,
    executions: () => services.executions,
  });
  const installer = new AppInstaller({ apps, installations, catalog, readiness, effects, onChange });
  return {
    catalog,
    installer,
    updater: new AppUpdater({ apps, installations, installer, readiness, effects }),
    devices: new AppDevices({ installer, effects, library, apps }),
    ratings: new AppRatings({ apps, installations, catalog, effects, onChange }),
    discovery,
    effects,
    permissions: new AppStorePermissionChecker({ apps, installations, effects }),
    refreshUpdates: createAppUpdateRefresh({ apps, installations, notifications }),
    seed: async () => {
      const report = await seedApps({ apps, developers, logger: log });
      if (report.inserted + report.updated + report.unpublished > 0) onChange();
      log.info({ ...report, skipped: report.skipped.length }, 'app seed written');
      return report;
    },
  };
}
