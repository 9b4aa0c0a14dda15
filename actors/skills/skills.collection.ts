import { randomBytes } from 'node:crypto';
import {
  DeveloperDocumentSchema,
  SkillDocumentSchema,
  SkillInstallationDocumentSchema,
} from '../../schemas/documents/skill';
import { defineCollection } from '../../src/store/mongo';

/**
 * `skills`: the catalog (seed and published skills). Every listing filters on `listed` (and on
 * `category` or `author` when asked) and sorts on a stat, so each sort has its index
 * (docs/skills.md, "Indexes"); ties break on `slug` so pages do not overlap.
 */
export const skillsCollection = defineCollection({
  name: 'skills',
  schema: SkillDocumentSchema,
  indexes: [
    { key: { slug: 1 }, name: 'slug_unique', unique: true },
    { key: { listed: 1, installCount: -1, slug: 1 }, name: 'listed_popular' },
    { key: { listed: 1, publishedAt: -1, slug: 1 }, name: 'listed_recent' },
    { key: { listed: 1, rating: -1, ratingCount: -1, slug: 1 }, name: 'listed_rating' },
    { key: { listed: 1, nameKey: 1, slug: 1 }, name: 'listed_name' },
    { key: { category: 1, listed: 1, installCount: -1, slug: 1 }, name: 'category_popular' },
    { key: { author: 1, listed: 1, installCount: -1, slug: 1 }, name: 'author_popular' },
    { key: { featured: 1, listed: 1, installCount: -1 }, name: 'featured_popular' },
  ],
});

/**
 * `skill_installations`: one per account and skill (`account_skill_unique` keeps two racing
 * installs from making two). `account_installed` serves `GET /api/skills/installed`;
 * `skill_used` the active users of a developer's skills (developer profiles).
 */
export const skillInstallationsCollection = defineCollection({
  name: 'skill_installations',
  schema: SkillInstallationDocumentSchema,
  indexes: [
    { key: { accountId: 1, skillId: 1 }, name: 'account_skill_unique', unique: true },
    { key: { accountId: 1, slug: 1 }, name: 'account_slug' },
    { key: { accountId: 1, installedAt: -1 }, name: 'account_installed' },
    { key: { skillId: 1, lastUsedAt: -1 }, name: 'skill_used' },
  ],
});

/** `developers`: handles (`_id`); an enterprise account has at most one (`account_unique`). */
export const developersCollection = defineCollection({
  name: 'developers',
  schema: DeveloperDocumentSchema,
  indexes: [
    {
      key: { accountId: 1 },
      name: 'account_unique',
      unique: true,
      partialFilterExpression: { accountId: { $exists: true } },
    },
  ],
});

export const skillsCollections = [
  skillsCollection,
  skillInstallationsCollection,
  developersCollection,
] as const;

/** A new installation id (`sin_` + 96 random bits). */
export function newInstallationId(): string {
  return `sin_${randomBytes(12).toString('hex')}`;
}
