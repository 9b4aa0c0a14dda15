import { z } from 'zod';
import { SecretNameSchema, SemverSchema, SkillSlugSchema } from './skill';

/** The app store's documents (docs/apps.md). */

export const APP_CATEGORIES = ['Research', 'Finance', 'Data', 'Operations'] as const;
export const AppCategorySchema = z.enum(APP_CATEGORIES);
export const DEVICE_TARGETS = ['desktop', 'cloud', 'enterprise', 'android', 'ios', 'pwa', 'web'] as const;

/** An app's slug: the same shape as a skill's (it is also the vault subject id of the app). */
export const AppSlugSchema = SkillSlugSchema;

const UrlSchema = z.url({ protocol: /^https?$/ }).max(2000);

const CommandSchema = z.strictObject({
  name: z.string().min(1).max(100),
  description: z.string().max(500).default(''),
});
const DistributionSchema = z.strictObject({
  webUrl: UrlSchema.optional(),
  androidUrl: UrlSchema.optional(),
  iosUrl: UrlSchema.optional(),
});

/** The manifest of one version as published (COMPATIBILITY.md, "Skills and apps"); lists default to empty. */
export const AppManifestSchema = z.strictObject({
  schemaVersion: z.literal(1).default(1),
  version: SemverSchema,
  runtime: z.enum(['web', 'node', 'python', 'native']).default('web'),
  entrypoint: z.string().min(1).max(500),
  primitives: z.array(z.string().min(1).max(100)).max(50).default([]),
  skills: z.array(SkillSlugSchema).max(50).default([]),
  requiredSkills: z.array(SkillSlugSchema).max(50).default([]),
  /** Permissions the installation must approve (besides `secrets:<NAME>` of each required secret). */
  permissions: z
    .array(z.string().regex(/^[a-z][a-z0-9_.:-]{0,99}$/, 'a permission is lower case, 1-100 characters'))
    .max(50)
    .default([]),
  requiredSecrets: z.array(SecretNameSchema).max(50).default([]),
  commands: z.array(CommandSchema).max(50).default([]),
  distribution: DistributionSchema.default({}),
});

/** The manifest as stored: every field present (the defaults were applied on publication). */
const StoredManifestSchema = z.object({
  schemaVersion: z.literal(1),
  version: SemverSchema,
  runtime: z.enum(['web', 'node', 'python', 'native']),
  entrypoint: z.string(),
  primitives: z.array(z.string()),
  skills: z.array(z.string()),
  requiredSkills: z.array(z.string()),
  permissions: z.array(z.string()),
  requiredSecrets: z.array(z.string()),
  commands: z.array(z.object({ name: z.string(), description: z.string() })),
  distribution: z.object({
    webUrl: z.string().optional(),
    androidUrl: z.string().optional(),
    iosUrl: z.string().optional(),
  }),
});
export type AppManifest = z.infer<typeof StoredManifestSchema>;

export const AppVersionSchema = z.object({
  version: SemverSchema,
  manifest: StoredManifestSchema,
  defaultConfig: z.record(z.string(), z.unknown()),
  releaseNotes: z.string().max(2000),
  publishedAt: z.date(),
});
export type AppVersion = z.infer<typeof AppVersionSchema>;

/** `apps`: one per slug (`_id`); every published version is kept in `versions` (oldest first). */
export const AppDocumentSchema = z.object({
  _id: AppSlugSchema,
  name: z.string().min(1).max(100),
  nameKey: z.string(),
  category: AppCategorySchema,
  description: z.string().min(1).max(2000),
  deviceTargets: z.array(z.string()),
  published: z.boolean(),
  ownerAccountId: z.string().min(1),
  /** The developer handle the app is shown under (shared with the skill store's profiles). */
  developer: z.string().min(1),
  latestVersion: SemverSchema,
  versions: z.array(AppVersionSchema).min(1),
  installCount: z.number().int().min(0),
  downloadCount: z.number().int().min(0),
  /**
   * Average of the ratings (1-5, two decimals), null before the first. Optional like the two
   * below: documents written before ratings lack them (read as null and 0).
   */
  rating: z.number().min(1).max(5).nullable().optional(),
  ratingCount: z.number().int().min(0).optional(),
  /** Sum of the ratings: the average is recomputed from it in the same update. */
  ratingSum: z.number().int().min(0).optional(),
  /** `catalog`: the platform's seed (actors/apps/app-seed.ts); absent: an account's publication. */
  source: z.enum(['catalog', 'published']).optional(),
  createdAt: z.date(),
  updatedAt: z.date(),
});
export type AppDocument = z.infer<typeof AppDocumentSchema>;

export const AppInstallationStatusSchema = z.enum(['active', 'disabled', 'removed']);

/**
 * `app_installations`: one per account and app. Its shape is also what the vault's default
 * `InstallationPermissionChecker` reads (accountId, slug, status, permissionsApproved, workspaceId).
 */
export const AppInstallationDocumentSchema = z.object({
  _id: z.string().min(1),
  accountId: z.string().min(1),
  slug: AppSlugSchema,
  workspaceId: z.string().min(1).optional(),
  installedVersion: SemverSchema,
  /** The versions installed before this one, most recent last (rollback pops from here). */
  previousVersions: z.array(SemverSchema),
  status: AppInstallationStatusSchema,
  favorite: z.boolean(),
  permissionsApproved: z.array(z.string()),
  /** The account's rating of the app (1-5), once it rated it. */
  rating: z.number().int().min(1).max(5).optional(),
  /** Last open or runtime use of the app: what developer profiles' active users count. */
  lastActiveAt: z.date().optional(),
  /**
   * The app's newer published version, as the `app-update-refresh` duty last found it (absent:
   * none found, or installed since). `updateAvailable` of reads is still computed on the spot.
   */
  updateAvailableVersion: SemverSchema.optional(),
  /** When the duty last recorded or cleared `updateAvailableVersion`. */
  updateCheckedAt: z.date().optional(),
  installedAt: z.date(),
  updatedAt: z.date(),
});
export type AppInstallationDocument = z.infer<typeof AppInstallationDocumentSchema>;

/** The local installs of a device target (`POST /api/apps/{slug}/device-install`). */
export const APP_DEVICE_TARGETS = ['android', 'ios', 'desktop', 'pwa'] as const;
export const AppDeviceTargetSchema = z.enum(APP_DEVICE_TARGETS);
export type AppDeviceTarget = z.infer<typeof AppDeviceTargetSchema>;

/**
 * `app_library`: the account's library entry of an app, made by its install and dropped by its
 * removal; it holds the device installs (removing one keeps the installation, i.e. ownership).
 */
export const AppLibraryDocumentSchema = z.object({
  _id: z.string().min(1),
  accountId: z.string().min(1),
  slug: AppSlugSchema,
  workspaceId: z.string().min(1),
  devices: z.array(z.object({ target: AppDeviceTargetSchema, version: SemverSchema, installedAt: z.date() })),
  addedAt: z.date(),
  updatedAt: z.date(),
});
export type AppLibraryDocument = z.infer<typeof AppLibraryDocumentSchema>;

/**
 * `app_package_cache`: the package (`platform.app.v1`) of one version kept for an account, so a
 * device can install it offline; `_id` is `<accountId>:<slug>@<version>`.
 */
export const AppPackageCacheDocumentSchema = z.object({
  _id: z.string().min(1),
  accountId: z.string().min(1),
  slug: AppSlugSchema,
  version: SemverSchema,
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().min(0),
  package: z.record(z.string(), z.unknown()),
  cachedAt: z.date(),
});
export type AppPackageCacheDocument = z.infer<typeof AppPackageCacheDocumentSchema>;

export const APP_ACTIVITY_KINDS = [
  'install',
  'uninstall',
  'device_install',
  'device_remove',
  'update',
  'rollback',
  'open',
  'rate',
] as const;

/** `app_activity`: what an account did with its apps, newest first in `GET /api/apps/activity`. */
export const AppActivityDocumentSchema = z.object({
  _id: z.string().min(1),
  accountId: z.string().min(1),
  slug: AppSlugSchema,
  kind: z.enum(APP_ACTIVITY_KINDS),
  summary: z.string().max(300),
  executionId: z.string().optional(),
  workspaceId: z.string().optional(),
  at: z.date(),
});
export type AppActivityDocument = z.infer<typeof AppActivityDocumentSchema>;
