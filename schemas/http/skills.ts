import { z } from 'zod';
import {
  CapabilityDocumentSchema,
  CapabilityNameSchema,
  DependenciesSchema,
  DeveloperHandleSchema,
  SecretNameSchema,
  SemverSchema,
  InstallationStatusSchema,
  SKILL_CATEGORIES,
  SKILL_LIMITS,
  SkillPermissionSchema,
  SkillSlugSchema,
  type SkillCategory,
} from '../documents/skill';

/** Requests and answers of the skill store (docs/skills.md). */

export const SKILL_SORTS = ['popular', 'recent', 'rating', 'name'] as const;

/** Limits of the listing (COMPATIBILITY: default 20, max 50). */
export const SKILL_LIST_LIMITS = Object.freeze({ defaultLimit: 20, maxLimit: 50, maxPage: 1000 });

const byLowerName = new Map<string, SkillCategory>(SKILL_CATEGORIES.map((c) => [c.toLowerCase(), c]));

/** A category, matched without regard to case (`data & analytics`). */
export const CategoryQuerySchema = z
  .string()
  .trim()
  .transform((value, ctx) => {
    const category = byLowerName.get(value.toLowerCase());
    if (!category) {
      ctx.addIssue({ code: 'custom', message: `unknown category; one of: ${SKILL_CATEGORIES.join(', ')}` });
      return z.NEVER;
    }
    return category;
  });

const intParam = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/** `GET /api/skills` query. */
export const ListSkillsQuerySchema = z.object({
  category: CategoryQuerySchema.optional(),
  search: z.string().trim().max(200).optional(),
  sort: z.enum(SKILL_SORTS).default('popular'),
  page: intParam(1, SKILL_LIST_LIMITS.maxPage, 1),
  limit: intParam(1, SKILL_LIST_LIMITS.maxLimit, SKILL_LIST_LIMITS.defaultLimit),
  author: DeveloperHandleSchema.optional(),
});
export type ListSkillsQuery = z.output<typeof ListSkillsQuerySchema>;

/** `{id}` of the routes: a skill_id (UUID) or a slug. */
export const SkillRefParamsSchema = z.object({
  id: z.union([z.uuid(), SkillSlugSchema], { error: 'expected a skill_id (UUID) or a slug' }),
});

const PermissionsSchema = z
  .array(SkillPermissionSchema)
  .max(20)
  .transform((list) => [...new Set(list)]);

/** `POST /api/skills/install`. */
export const InstallSkillBodySchema = z
  .object({
    skill_id: z.uuid().optional(),
    slug: SkillSlugSchema.optional(),
    permissionsApproved: PermissionsSchema.default([]),
    installDependencies: z.boolean().default(true),
    optionalDependencies: z.array(SkillSlugSchema).max(SKILL_LIMITS.maxDependencies).default([]),
  })
  .refine((b) => b.skill_id !== undefined || b.slug !== undefined, {
    message: 'skill_id or slug is required',
    path: ['skill_id'],
  });
export type InstallSkillBody = z.output<typeof InstallSkillBodySchema>;

/** `PATCH /api/skills/{id}/installation`. */
export const PatchInstallationBodySchema = z
  .object({
    permissionsApproved: PermissionsSchema.optional(),
    status: InstallationStatusSchema.optional(),
  })
  .refine((b) => b.permissionsApproved !== undefined || b.status !== undefined, {
    message: 'permissionsApproved or status is required',
    path: ['status'],
  });
export type PatchInstallationBody = z.output<typeof PatchInstallationBodySchema>;

/** `POST /api/skills/use`. */
export const UseSkillBodySchema = z.object({
  skill_slug: SkillSlugSchema,
  capability: CapabilityNameSchema,
  params: z.record(z.string(), z.unknown()).default({}),
});
export type UseSkillBody = z.output<typeof UseSkillBodySchema>;

/** `POST /api/skills/{id}/rating`. */
export const RateSkillBodySchema = z.object({ stars: z.number().int().min(1).max(5) });

/**
 * `POST /api/skills` (enterprise accounts): publishes a skill, or a new version of one of the
 * account's (docs/skills.md, "Publishing"). The example's output is computed by running it.
 */
export const PublishSkillBodySchema = z.object({
  slug: SkillSlugSchema,
  name: z.string().trim().min(1).max(100),
  category: CategoryQuerySchema,
  version: SemverSchema,
  description: z.string().trim().min(1).max(2000),
  permissions_required: z.array(SkillPermissionSchema).max(6).default([]),
  required_secrets: z.array(SecretNameSchema).max(SKILL_LIMITS.maxSecrets).default([]),
  dependencies: DependenciesSchema.default({ required: [], optional: [] }),
  library: CapabilityDocumentSchema.shape.code.optional(),
  capabilities: z
    .array(CapabilityDocumentSchema.extend({ mutating: z.boolean().default(false) }))
    .min(1)
    .max(SKILL_LIMITS.maxCapabilities),
  example: z.object({
    capability: CapabilityNameSchema,
    params: z.record(z.string(), z.unknown()).default({}),
  }),
  /** false: a draft only its publisher's account sees (not listed, not installable). Default true. */
  published: z.boolean().default(true),
  /** The developer handle to publish under, on the account's first publication (docs/skills.md). */
  developerHandle: DeveloperHandleSchema.optional(),
});
export type PublishSkillBody = z.output<typeof PublishSkillBodySchema>;

/** A skill as listings show it. */
export const SkillSummarySchema = z.object({
  skill_id: z.string(),
  slug: z.string(),
  name: z.string(),
  category: z.string(),
  version: z.string(),
  author: z.string(),
  description: z.string(),
  permissions_required: z.array(SkillPermissionSchema),
  required_secrets: z.array(z.string()),
  dependencies: z.object({ required: z.array(z.string()), optional: z.array(z.string()) }),
  capabilities: z.array(
    z.object({ name: z.string(), description: z.string(), mutating: z.boolean(), tool: z.string() }),
  ),
  featured: z.boolean(),
  installs: z.number(),
  activeInstalls: z.number(),
  uses: z.number(),
  rating: z.number().nullable(),
  ratingCount: z.number(),
  publishedAt: z.string(),
  updatedAt: z.string(),
});
export type SkillSummary = z.infer<typeof SkillSummarySchema>;

/** A skill with its capabilities' params schemas (preview, install, use). */
export const SkillDetailSchema = SkillSummarySchema.extend({
  capabilities: z.array(
    z.object({
      name: z.string(),
      description: z.string(),
      mutating: z.boolean(),
      tool: z.string(),
      paramsSchema: z.record(z.string(), z.unknown()),
    }),
  ),
});
export type SkillDetail = z.infer<typeof SkillDetailSchema>;

/** An installation as shown. */
export const InstallationViewSchema = z.object({
  id: z.string(),
  installed_at: z.string(),
  updated_at: z.string(),
  status: z.string(),
  permissionsApproved: z.array(z.string()),
  /** Permissions the skill requires that are not approved: its use is refused until they are. */
  missingPermissions: z.array(z.string()),
  installedBy: z.object({ kind: z.string(), agentRef: z.string().optional() }),
  dependencyOf: z.array(z.string()),
  lastUsedAt: z.string().nullable(),
  uses: z.number(),
  /** The account's own rating, null before it rates. */
  rating: z.number().nullable(),
  skill: SkillSummarySchema,
});
export type InstallationView = z.infer<typeof InstallationViewSchema>;

/** `GET /api/skills`. */
export const SkillListResponseSchema = z.object({
  skills: z.array(SkillSummarySchema),
  pagination: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int() }),
});
