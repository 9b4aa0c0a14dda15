import {
  PLATFORM_DEVELOPER,
  type DeveloperDocument,
  type SkillDocument,
} from '../../schemas/documents/skill';
import { isAppError } from '../../schemas/errors';
import type { Logger } from '../../src/logging/logger';
import type { Repository } from '../../src/store/mongo';
import { contentFields, newSkillStats, type SkillContent } from './skill-content';

/** What one pass of the seed did. */
export interface SeedReport {
  inserted: number;
  updated: number;
  unchanged: number;
  /** Catalog skills no longer in the files: unlisted (their installations stay). */
  unlisted: number;
  /** Slugs taken by a published skill of another author: not seeded (logged). */
  skipped: string[];
}

/**
 * Writes the catalog into `skills`, idempotently (every process may run it at boot, at once): a
 * skill is inserted by its fixed `skill_id` if absent, its content rewritten only when its hash
 * changed (stats, installs and ratings are kept), and catalog skills no longer in the files are
 * unlisted. The platform's developer handle is created once.
 */
export async function seedCatalog(
  deps: { skills: Repository<SkillDocument>; developers: Repository<DeveloperDocument>; logger: Logger },
  catalog: readonly SkillContent[],
  now: Date = new Date(),
): Promise<SeedReport> {
  const { skills, developers, logger } = deps;
  await developers.insertIfAbsent({
    _id: PLATFORM_DEVELOPER,
    kind: 'platform',
    displayName: 'Platform',
    createdAt: now,
  });
  const report: SeedReport = { inserted: 0, updated: 0, unchanged: 0, unlisted: 0, skipped: [] };
  const existing = new Map(
    (await skills.find({ _id: { $in: catalog.map((c) => c.skill_id) } }, { limit: 0 })).map((d) => [
      d._id,
      d,
    ]),
  );
  for (const content of catalog) {
    const fields = contentFields(content);
    const current = existing.get(content.skill_id);
    if (!current) {
      try {
        const inserted = await skills.insertIfAbsent({
          _id: content.skill_id,
          ...fields,
          source: 'catalog',
          listed: true,
          ...newSkillStats(now),
        });
        if (inserted) report.inserted += 1;
        else report.unchanged += 1; // another process inserted it first
      } catch (err) {
        if (!isAppError(err) || err.code !== 'CONFLICT') throw err;
        logger.warn(
          { slug: content.slug },
          'skill catalog: the slug is taken by a published skill; not seeded',
        );
        report.skipped.push(content.slug);
      }
      continue;
    }
    if (current.contentHash === fields.contentHash && current.listed) {
      report.unchanged += 1;
      continue;
    }
    const { library, ...rest } = fields as typeof fields & { library?: string };
    await skills.updateOne(
      { _id: content.skill_id },
      {
        $set: { ...rest, ...(library === undefined ? {} : { library }), listed: true, updatedAt: now },
        ...(library === undefined ? { $unset: { library: '' } } : {}),
      },
    );
    report.updated += 1;
  }
  const ids = catalog.map((c) => c.skill_id);
  const gone = await skills.raw.updateMany(
    { source: 'catalog', listed: true, _id: { $nin: ids } },
    { $set: { listed: false, updatedAt: now } },
  );
  report.unlisted = gone.modifiedCount;
  return report;
}
