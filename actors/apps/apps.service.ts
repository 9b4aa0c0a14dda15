import type { Services } from '../../src/boot/services';
import { accountsCollection } from '../identity/accounts.collection';
import { developersCollection } from '../skills/skills.collection';
import { assignmentsCollection, secretsCollection } from '../vault/vault.collection';
import { AppCatalog } from './app-catalog';
import { AppDiscovery } from './app-discovery';
import { AppInstaller } from './app-installer';
import { AppReadiness } from './app-readiness';
import { AppStorePermissionChecker } from './app-vault-permissions';
import { appInstallationsCollection, appsCollection } from './apps.collection';

/**
 * The app store of one process (docs/apps.md): `services.apps`. Built before the vault and the
 * skill store, which it serves (the vault's app permission check, developer profiles' apps); it
 * reads the skill store's service only when called.
 */
export interface AppsService {
  readonly catalog: AppCatalog;
  readonly installer: AppInstaller;
  readonly discovery: AppDiscovery;
  /** The vault's `AppPermissionChecker` (actors/vault/app-permissions.ts). */
  readonly permissions: AppStorePermissionChecker;
}

export function createAppsService(
  services: Pick<Services, 'documents'> & { readonly skills?: Services['skills'] },
): AppsService {
  const { documents } = services;
  const apps = documents.repository(appsCollection);
  const installations = documents.repository(appInstallationsCollection);
  const catalog = new AppCatalog({
    apps,
    developers: documents.repository(developersCollection),
    accounts: documents.repository(accountsCollection),
  });
  const readiness = new AppReadiness({
    secrets: documents.repository(secretsCollection),
    assignments: documents.repository(assignmentsCollection),
    activeSkills: async (accountId) => {
      const installed = (await services.skills?.installed(accountId)) ?? [];
      return installed.filter((i) => i.status === 'active').map((i) => i.skill.slug);
    },
  });
  return {
    catalog,
    installer: new AppInstaller({ apps, installations, catalog, readiness }),
    discovery: new AppDiscovery({ apps, installations }),
    permissions: new AppStorePermissionChecker({ apps, installations }),
  };
}
