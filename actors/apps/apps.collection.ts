import { randomBytes } from 'node:crypto';
import {
  AppActivityDocumentSchema,
  AppDocumentSchema,
  AppInstallationDocumentSchema,
  AppLibraryDocumentSchema,
  AppPackageCacheDocumentSchema,
} from '../../schemas/documents/app';
import { defineCollection } from '../../src/store/mongo';
import { APP_INSTALLATIONS_COLLECTION } from '../vault/app-permissions';

/**
 * `apps`: one per slug (`_id`). Listings filter on `published` (and `category`) and sort on a
 * stat; ties break on `_id` so pages do not overlap. `developer_published` serves profiles.
 */
export const appsCollection = defineCollection({
  name: 'apps',
  schema: AppDocumentSchema,
  indexes: [
    { key: { published: 1, installCount: -1, _id: 1 }, name: 'published_popular' },
    { key: { published: 1, updatedAt: -1, _id: 1 }, name: 'published_recent' },
    { key: { published: 1, nameKey: 1, _id: 1 }, name: 'published_name' },
    { key: { published: 1, rating: -1, ratingCount: -1, _id: 1 }, name: 'published_rating' },
    { key: { published: 1, createdAt: -1, _id: 1 }, name: 'published_created' },
    { key: { category: 1, published: 1, installCount: -1, _id: 1 }, name: 'category_popular' },
    { key: { developer: 1, published: 1 }, name: 'developer_published' },
    { key: { ownerAccountId: 1 }, name: 'owner' },
  ],
});

/**
 * `app_installations`: one per account and app (`account_slug_unique` keeps two racing installs
 * from making two). The vault's app permission check reads it through the app store.
 */
export const appInstallationsCollection = defineCollection({
  name: APP_INSTALLATIONS_COLLECTION,
  schema: AppInstallationDocumentSchema,
  indexes: [
    { key: { accountId: 1, slug: 1 }, name: 'account_slug_unique', unique: true },
    { key: { slug: 1, status: 1 }, name: 'slug_status' },
    // Trending (installs of the last days) and developer profiles' active users.
    { key: { installedAt: -1 }, name: 'installed_at' },
    { key: { slug: 1, lastActiveAt: -1 }, name: 'slug_last_active' },
  ],
});

/** `app_library`: one entry per account and app (`_id` = `<accountId>:<slug>`), listed per account. */
export const appLibraryCollection = defineCollection({
  name: 'app_library',
  schema: AppLibraryDocumentSchema,
  indexes: [{ key: { accountId: 1, addedAt: -1 }, name: 'account_added' }],
});

/** `app_package_cache`: one per account, app and version (`_id`); listed per account and app. */
export const appPackageCacheCollection = defineCollection({
  name: 'app_package_cache',
  schema: AppPackageCacheDocumentSchema,
  indexes: [{ key: { accountId: 1, slug: 1 }, name: 'account_slug' }],
});

/** `app_activity`: an account's feed, newest first. */
export const appActivityCollection = defineCollection({
  name: 'app_activity',
  schema: AppActivityDocumentSchema,
  indexes: [{ key: { accountId: 1, at: -1, _id: -1 }, name: 'account_at' }],
});

export const appsCollections = [
  appsCollection,
  appInstallationsCollection,
  appLibraryCollection,
  appPackageCacheCollection,
  appActivityCollection,
] as const;

/** A new app installation id (`ain_` + 96 random bits). */
export function newAppInstallationId(): string {
  return `ain_${randomBytes(12).toString('hex')}`;
}

/** A new id with the given prefix (`aac_` activity lines). */
export function newAppRecordId(prefix: 'aac'): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}
