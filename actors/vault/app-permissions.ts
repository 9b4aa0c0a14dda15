import type { Db } from 'mongodb';
import { mapMongoError } from '../../src/store/mongo';

/** What a runtime grant for an app needs to know about the app's installation. */
export interface AppPermissionQuery {
  accountId: string;
  workspaceId: string;
  appSlug: string;
  /** The permission asked for: `secrets:<NAME>` (see `secretPermission`). */
  permission: string;
}

/**
 * The port between the vault and the app store: whether the account's installation of an app has
 * the permission approved. Pluggable (`startRuntime(config, logger, { vault: { appPermissions } })`)
 * so that the app store can answer from its own records. Must fail closed: an unknown app or
 * installation is "not approved".
 */
export interface AppPermissionChecker {
  isApproved(query: AppPermissionQuery): Promise<boolean>;
}

/** The permission an app needs approved to receive the secret `name` at run time. */
export function secretPermission(name: string): string {
  return `secrets:${name}`;
}

/** The collection the default checker reads. */
export const APP_INSTALLATIONS_COLLECTION = 'app_installations';

/**
 * The default checker, until the app store provides its own: it approves only when a document of
 * `app_installations` says so, i.e. one with `accountId`, `slug` = the app slug, `status:
 * 'active'`, `permissionsApproved` containing the permission, and `workspaceId` either absent
 * (installed for the whole account) or the grant's workspace. Anything else, including a missing
 * collection, refuses; a store outage is UNAVAILABLE.
 */
export class InstallationPermissionChecker implements AppPermissionChecker {
  constructor(private readonly db: Db) {}

  async isApproved(query: AppPermissionQuery): Promise<boolean> {
    try {
      const found = await this.db.collection(APP_INSTALLATIONS_COLLECTION).findOne(
        {
          accountId: query.accountId,
          slug: query.appSlug,
          status: 'active',
          permissionsApproved: query.permission,
          $or: [{ workspaceId: { $exists: false } }, { workspaceId: query.workspaceId }],
        },
        { projection: { _id: 1 } },
      );
      return found !== null;
    } catch (err) {
      // An outage is an outage (503), not a refusal recorded as such.
      throw mapMongoError(err, { collection: APP_INSTALLATIONS_COLLECTION, op: 'findOne' });
    }
  }
}
