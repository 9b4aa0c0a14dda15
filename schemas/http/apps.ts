import { z } from 'zod';
import { AppCategorySchema, AppDeviceTargetSchema, AppManifestSchema, AppSlugSchema } from '../documents/app';

/** Requests of the app store (docs/apps.md). */

export const PublishAppBodySchema = z.strictObject({
  /** Optional: derived from the name when absent. */
  slug: AppSlugSchema.optional(),
  name: z.string().trim().min(1).max(100),
  category: AppCategorySchema,
  description: z.string().trim().min(1).max(2000),
  deviceTargets: z.array(z.string().min(1).max(40)).max(10).default([]),
  manifest: AppManifestSchema,
  defaultConfig: z.record(z.string(), z.unknown()).default({}),
  releaseNotes: z.string().max(2000).default(''),
  /** False keeps it visible to its owner only. Default true. */
  published: z.boolean().default(true),
});
export type PublishAppBody = z.infer<typeof PublishAppBodySchema>;

/** `rating`: the average rating, most rated first among equals; unrated apps last. */
export const APP_SORTS = ['popular', 'recent', 'rating', 'name'] as const;

export const ListAppsQuerySchema = z.object({
  category: AppCategorySchema.optional(),
  search: z.string().trim().max(100).optional(),
  sort: z.enum(APP_SORTS).default('popular'),
  limit: z.coerce.number().int().min(1).max(50).default(20),
  page: z.coerce.number().int().min(1).max(1000).default(1),
});
export type ListAppsQuery = z.infer<typeof ListAppsQuerySchema>;

export const AppSlugParamsSchema = z.object({ slug: AppSlugSchema });

export const InstallAppBodySchema = z.strictObject({
  slug: AppSlugSchema,
  workspaceId: z.string().min(1).max(200).optional(),
  permissionsApproved: z.array(z.string().min(1).max(200)).max(100).default([]),
});
export type InstallAppBody = z.infer<typeof InstallAppBodySchema>;

export const OpenAppBodySchema = z.strictObject({
  target: z.enum(['web', 'android', 'ios']).default('web'),
});

export const PatchInstallationBodySchema = z
  .strictObject({
    favorite: z.boolean().optional(),
    permissionsApproved: z.array(z.string().min(1).max(200)).max(100).optional(),
    status: z.enum(['active', 'disabled', 'removed']).optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'give at least one of favorite, permissionsApproved, status');
export type PatchInstallationBody = z.infer<typeof PatchInstallationBodySchema>;

/** `POST /api/apps/{slug}/device-install`. */
export const DeviceInstallBodySchema = z.strictObject({
  target: AppDeviceTargetSchema,
  workspaceId: z.string().min(1).max(200).optional(),
});

/** `DELETE /api/apps/{slug}/device-install`: the target in the query (or body); optional with one device. */
export const DeviceRemoveSchema = z.object({ target: AppDeviceTargetSchema.optional() });

/** `POST /api/apps/{slug}/rating`. */
export const RateAppBodySchema = z.strictObject({ stars: z.number().int().min(1).max(5) });

// ---- responses ----

/** An app as listings show it (actors/apps/app-views.ts `appSummary`). */
export const AppSummarySchema = z.object({
  slug: z.string(),
  name: z.string(),
  category: z.string(),
  description: z.string(),
  developer: z.string(),
  version: z.string(),
  published: z.boolean(),
  installCount: z.number(),
  /** The average of the ratings (two decimals), null while nobody rated it. */
  rating: z.number().nullable(),
  ratingCount: z.number().int(),
  updatedAt: z.string(),
});

/** `GET /api/apps`. */
export const AppListResponseSchema = z.object({
  apps: z.array(AppSummarySchema),
  categories: z.array(z.object({ name: z.string(), count: z.number() })),
  pagination: z.object({ total: z.number().int(), page: z.number().int(), limit: z.number().int() }),
});

/** One entry of `GET /api/apps/library`: an app in the account's library and the devices it is on. */
export const AppLibraryEntrySchema = z.object({
  slug: AppSlugSchema,
  /** The app's name, null when the app is no longer in the catalog (unpublished by its developer). */
  name: z.string().nullable(),
  workspaceId: z.string(),
  devices: z.array(z.object({ target: AppDeviceTargetSchema, version: z.string(), installedAt: z.string() })),
  addedAt: z.string(),
  updatedAt: z.string(),
});

/** `GET /api/apps/library`: newest first, at most `APP_LIBRARY_LIMIT` entries. */
export const AppLibraryResponseSchema = z.object({
  library: z.array(AppLibraryEntrySchema),
  total: z.number().int().min(0),
});

export type AppLibraryResponse = z.infer<typeof AppLibraryResponseSchema>;

/** Most entries `GET /api/apps/library` lists (an account owns at most this many apps in practice). */
export const APP_LIBRARY_LIMIT = 500;
