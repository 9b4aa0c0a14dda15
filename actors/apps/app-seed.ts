import { AppManifestSchema, type AppDocument, type AppVersion } from '../../schemas/documents/app';
import { PLATFORM_DEVELOPER, type DeveloperDocument } from '../../schemas/documents/skill';
import type { Logger } from '../../src/logging/logger';
import type { Repository } from '../../src/store/mongo';
import { SEED_APPS } from './app-seed-catalog';
import { compareVersions } from './app-views';
import { assertNoSecrets } from './config-secrets';

/** The owner of the seeded apps: no account has it (account ids are `acc_…`), so nobody owns them. */
export const PLATFORM_OWNER = 'platform';

export interface AppSeedReport {
  inserted: number;
  /** Seeded apps whose seed version is greater: a new version recorded. */
  updated: number;
  unchanged: number;
  /** Seeded apps no longer in the seed: unpublished (installations stay). */
  unpublished: number;
  /** Slugs taken by another account's app: not seeded (logged). */
  skipped: string[];
}

type Seed = (typeof SEED_APPS)[number];

function versionOfSeed(seed: Seed, now: Date): AppVersion {
  const { web, mobile, ...rest } = seed.manifest;
  const url = `https://apps.example.com/${seed.slug}`;
  const manifest = AppManifestSchema.parse({
    ...rest,
    distribution: {
      ...(web ? { webUrl: url } : {}),
      ...(mobile ? { androidUrl: `${url}/android`, iosUrl: `${url}/ios` } : {}),
    },
  });
  assertNoSecrets(seed.defaultConfig);
  return {
    version: manifest.version,
    manifest,
    defaultConfig: seed.defaultConfig,
    releaseNotes: seed.releaseNotes,
    publishedAt: now,
  };
}

/**
 * Writes the seed apps into `apps`, idempotently (every process may run it at boot, at once, like
 * the skill catalog's seed): an app is inserted if absent; a seed version greater than the
 * stored one is recorded as a new version, conditionally on the version read (installs, downloads
 * and ratings are kept); seeded apps no longer in the seed are unpublished. Run after the skill
 * catalog's seed (same developer handle).
 */
export async function seedApps(
  deps: { apps: Repository<AppDocument>; developers: Repository<DeveloperDocument>; logger: Logger },
  seeds: readonly Seed[] = SEED_APPS,
  now: Date = new Date(),
): Promise<AppSeedReport> {
  const { apps, developers, logger } = deps;
  await developers.insertIfAbsent({
    _id: PLATFORM_DEVELOPER,
    kind: 'platform',
    displayName: 'Platform',
    createdAt: now,
  });
  const report: AppSeedReport = { inserted: 0, updated: 0, unchanged: 0, unpublished: 0, skipped: [] };
  const existing = new Map(
    (await apps.find({ _id: { $in: seeds.map((s) => s.slug) } }, { limit: 0 })).map((d) => [d._id, d]),
  );
  for (const seed of seeds) {
    const version = versionOfSeed(seed, now);
    const fields = {
      name: seed.name,
      nameKey: seed.name.toLowerCase(),
      category: seed.category,
      description: seed.description,
      deviceTargets: seed.deviceTargets,
      published: true,
      latestVersion: version.version,
      updatedAt: now,
    };
    const current = existing.get(seed.slug);
    if (!current) {
      const inserted = await apps.insertIfAbsent({
        _id: seed.slug,
        ...fields,
        ownerAccountId: PLATFORM_OWNER,
        developer: PLATFORM_DEVELOPER,
        versions: [version],
        installCount: 0,
        downloadCount: 0,
        rating: null,
        ratingCount: 0,
        ratingSum: 0,
        source: 'catalog',
        createdAt: now,
      });
      if (inserted) report.inserted += 1;
      else report.unchanged += 1; // another process inserted it first
      continue;
    }
    if (current.source !== 'catalog' || current.ownerAccountId !== PLATFORM_OWNER) {
      logger.warn({ slug: seed.slug }, 'app seed: the slug is taken by an account; not seeded');
      report.skipped.push(seed.slug);
      continue;
    }
    if (compareVersions(version.version, current.latestVersion) <= 0 && current.published) {
      report.unchanged += 1;
      continue;
    }
    const newer = compareVersions(version.version, current.latestVersion) > 0;
    const moved = await apps.updateOne(
      { _id: seed.slug, latestVersion: current.latestVersion },
      newer ? { $set: fields, $push: { versions: version } } : { $set: { published: true, updatedAt: now } },
    );
    if (moved.modified > 0) report.updated += 1;
    else report.unchanged += 1;
  }
  const gone = await apps.raw.updateMany(
    { source: 'catalog', published: true, _id: { $nin: seeds.map((s) => s.slug) } },
    { $set: { published: false, updatedAt: now } },
  );
  report.unpublished = gone.modifiedCount;
  return report;
}
