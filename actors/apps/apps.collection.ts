import { randomBytes } from 'node:crypto';
import { AppDocumentSchema, AppInstallationDocumentSchema } from '../../schemas/documents/app';
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
  ],
});

export const appsCollections = [appsCollection, appInstallationsCollection] as const;

/** A new app installation id (`ain_` + 96 random bits). */
export function newAppInstallationId(): string {
  return `ain_${randomBytes(12).toString('hex')}`;
}
