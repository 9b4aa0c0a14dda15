import type { SkillDocument, SkillInstallationDocument } from '../../schemas/documents/skill';
import type { InstallationView, SkillDetail, SkillSummary } from '../../schemas/http/skills';

/** Public views of skills and installations: never the code, the publisher's account or an internal id. */

/** The fields listings leave out (code, schemas, example, internal fields). */
export const UNLISTED_FIELDS = [
  'paramsSchemas',
  'code',
  'library',
  'example',
  'searchText',
  'publisherAccountId',
  'contentHash',
  'ratingSum',
] as const;

/** What a listing reads of a skill document. */
export type ListedSkill = Omit<SkillDocument, (typeof UNLISTED_FIELDS)[number]>;

/**
 * The projection of listings: top-level fields only, so the embedded server answers it without
 * a copy of each document (and MongoDB sends less).
 */
export const LISTING_PROJECTION = Object.freeze(Object.fromEntries(UNLISTED_FIELDS.map((f) => [f, 0])));

export const toolNameOf = (slug: string, capability: string) => `platform.skill.${slug}.${capability}`;

export function skillSummary(doc: ListedSkill): SkillSummary {
  return {
    skill_id: doc._id,
    slug: doc.slug,
    name: doc.name,
    category: doc.category,
    version: doc.semver,
    author: doc.author,
    description: doc.description,
    permissions_required: doc.permissions_required,
    required_secrets: doc.required_secrets,
    dependencies: doc.dependencies,
    capabilities: doc.capabilities.map((c) => ({
      name: c.name,
      description: c.description,
      mutating: c.mutating,
      tool: toolNameOf(doc.slug, c.name),
    })),
    featured: doc.featured,
    installs: doc.installCount,
    activeInstalls: doc.activeInstalls,
    uses: doc.useCount,
    rating: doc.rating,
    ratingCount: doc.ratingCount,
    publishedAt: doc.publishedAt.toISOString(),
    updatedAt: doc.updatedAt.toISOString(),
  };
}

export function skillDetail(doc: SkillDocument): SkillDetail {
  const summary = skillSummary(doc);
  return {
    ...summary,
    capabilities: doc.capabilities.map((c) => ({
      name: c.name,
      description: c.description,
      mutating: c.mutating,
      tool: toolNameOf(doc.slug, c.name),
      paramsSchema: doc.paramsSchemas[c.name] ?? { type: 'object' },
    })),
  };
}

/** The permissions the skill requires that the installation has not approved. */
export const missingPermissions = (
  skill: Pick<SkillDocument, 'permissions_required'>,
  approved: readonly string[],
) => skill.permissions_required.filter((p) => !approved.includes(p));

export function installationView(doc: SkillInstallationDocument, skill: ListedSkill): InstallationView {
  return {
    id: doc._id,
    installed_at: doc.installedAt.toISOString(),
    updated_at: doc.updatedAt.toISOString(),
    status: doc.status,
    permissionsApproved: doc.permissionsApproved,
    missingPermissions: missingPermissions(skill, doc.permissionsApproved),
    installedBy: doc.installedBy,
    dependencyOf: doc.dependencyOf,
    lastUsedAt: doc.lastUsedAt ? doc.lastUsedAt.toISOString() : null,
    uses: doc.useCount,
    rating: doc.rating ?? null,
    skill: skillSummary(skill),
  };
}
