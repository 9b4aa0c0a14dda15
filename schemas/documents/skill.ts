import { z } from 'zod';

/**
 * Stored shapes of the skill store (docs/skills.md): the catalog's skills, the accounts'
 * installations and the developers (handles) that author skills and apps.
 */

/** The product's categories (COMPATIBILITY.md, "Skills and apps"). */
export const SKILL_CATEGORIES = Object.freeze([
  'AI & ML',
  'Cloud & Deploy',
  'Communication',
  'Content',
  'Data & Analytics',
  'Documents',
  'Finance & Crypto',
  'Network',
  'Research',
  'Security',
  'Support',
  'Utilities',
  'Web & Browser',
] as const);
export const SkillCategorySchema = z.enum(SKILL_CATEGORIES);
export type SkillCategory = z.infer<typeof SkillCategorySchema>;

/**
 * What a capability's code may call through `platform.call`: the families of the agent's
 * built-in primitives (`mem_*`, `net_*`, `fs_*`, `db_*`, `events_*`) and, beyond the five of the
 * issue, `mcp` (the account's connector tools `mcp.<server>.<tool>`).
 */
export const SKILL_PERMISSIONS = Object.freeze(['mem', 'net', 'fs', 'db', 'events', 'mcp'] as const);
export const SkillPermissionSchema = z.enum(SKILL_PERMISSIONS);
export type SkillPermission = z.infer<typeof SkillPermissionSchema>;

/** A skill's slug: also a segment of its tools' names (`platform.skill.<slug>.<capability>`). */
export const SkillSlugSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$/, 'a slug is 3-64 characters: a-z, 0-9 and inner dashes');
export const CapabilityNameSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,63}$/, 'a capability name is 1-64 characters: a-z, 0-9 and _ (a letter first)');
export const SecretNameSchema = z
  .string()
  .regex(/^[A-Z0-9_]{2,120}$/, 'a secret name matches ^[A-Z0-9_]{2,120}$');
export const SemverSchema = z
  .string()
  .regex(/^(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})$/, 'a version is major.minor.patch');
export const DeveloperHandleSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{1,38}[a-z0-9]$/, 'a handle is 3-40 characters: a-z, 0-9 and inner dashes');

/** Limits of a skill's content (checked when the catalog loads and when a skill is published). */
export const SKILL_LIMITS = Object.freeze({
  maxCapabilities: 20,
  /** Source of one capability, and of the skill's library, in UTF-8 bytes. */
  maxCodeBytes: 100 * 1024,
  /** The JSON text of a params schema. */
  maxSchemaChars: 20_000,
  /** The JSON text of the params of one use (the execution's input holds them: at most 64 KB). */
  maxParamsChars: 60_000,
  maxDependencies: 10,
  maxSecrets: 10,
  /** A capability's run: the limits of proc_execute's default (docs/sandbox.md). */
  timeoutMs: 10_000,
});

/** JSON Schema of a capability's params: an object schema (MCP clients need `type: "object"`). */
export const ParamsSchemaSchema = z
  .looseObject({ type: z.literal('object') })
  .refine((s) => JSON.stringify(s).length <= SKILL_LIMITS.maxSchemaChars, {
    message: `a params schema is at most ${SKILL_LIMITS.maxSchemaChars} characters of JSON`,
  });

const codeSchema = z
  .string()
  .min(1)
  .refine((s) => Buffer.byteLength(s, 'utf8') <= SKILL_LIMITS.maxCodeBytes, {
    message: `code is at most ${SKILL_LIMITS.maxCodeBytes} bytes`,
  });

export const CapabilityDocumentSchema = z.object({
  name: CapabilityNameSchema,
  description: z.string().min(1).max(500),
  paramsSchema: ParamsSchemaSchema,
  /** JavaScript defining `function run(params)` (docs/skills.md, "Capability code"). */
  code: codeSchema,
  /** Whether a use changes state (Studio previews it; MCP `readOnlyHint`). */
  mutating: z.boolean(),
});
export type CapabilityDocument = z.infer<typeof CapabilityDocumentSchema>;

export const DependenciesSchema = z.object({
  required: z.array(SkillSlugSchema).max(SKILL_LIMITS.maxDependencies).default([]),
  optional: z.array(SkillSlugSchema).max(SKILL_LIMITS.maxDependencies).default([]),
});

/** The example a preview shows: the params of one capability and what it really returns. */
export const SkillExampleSchema = z.object({
  capability: CapabilityNameSchema,
  params: z.record(z.string(), z.unknown()),
  output: z.unknown(),
});

/** Who may see a skill: `listed` ones are in the store; a draft is its publisher's only. */
export const SkillDocumentSchema = z.object({
  /** `skill_id`, a UUID. */
  _id: z.uuid(),
  slug: SkillSlugSchema,
  name: z.string().min(1).max(100),
  /** The name lower-cased (the `name` sort). */
  nameKey: z.string(),
  category: SkillCategorySchema,
  /** The skill's semantic version (`version` in bodies; this document has no optimistic version). */
  semver: SemverSchema,
  /** The developer handle of its author. */
  author: DeveloperHandleSchema,
  description: z.string().min(1).max(2000),
  permissions_required: z.array(SkillPermissionSchema),
  required_secrets: z.array(SecretNameSchema),
  dependencies: z.object({ required: z.array(SkillSlugSchema), optional: z.array(SkillSlugSchema) }),
  /** What listings show of the capabilities; their schemas and code are kept apart (below). */
  capabilities: z
    .array(CapabilityDocumentSchema.pick({ name: true, description: true, mutating: true }))
    .min(1)
    .max(SKILL_LIMITS.maxCapabilities),
  /**
   * The params schema of each capability, by name. Top-level fields, like `code` and `library`,
   * so that listings leave them out with a plain top-level projection.
   */
  paramsSchemas: z.record(CapabilityNameSchema, ParamsSchemaSchema),
  /** The code of each capability, by name. */
  code: z.record(CapabilityNameSchema, codeSchema),
  /** Code shared by its capabilities and by the skills that depend on it (`lib` / `deps[slug]`). */
  library: codeSchema.optional(),
  example: SkillExampleSchema,
  featured: z.boolean(),
  source: z.enum(['catalog', 'published']),
  /** The account that published it (internal; absent for the catalog's own skills). */
  publisherAccountId: z.string().optional(),
  listed: z.boolean(),
  /** Installations ever made (a removed one installed again counts again): the `popular` sort. */
  installCount: z.number().int().nonnegative(),
  /** Installations currently active. */
  activeInstalls: z.number().int().nonnegative(),
  /** Uses that ran (successful or not). */
  useCount: z.number().int().nonnegative(),
  /** Average of the ratings (1-5, two decimals), null before the first. */
  rating: z.number().min(1).max(5).nullable(),
  ratingCount: z.number().int().nonnegative(),
  /** Sum of the ratings (the average is kept with it in one conditional update). */
  ratingSum: z.number().int().nonnegative(),
  /** name, slug and description lower-cased: what `search` looks in. */
  searchText: z.string(),
  /** Hash of the content (code, schemas, metadata): the catalog is written again only when it changes. */
  contentHash: z.string(),
  publishedAt: z.date(),
  createdAt: z.date(),
  updatedAt: z.date(),
});
export type SkillDocument = z.infer<typeof SkillDocumentSchema>;

export const INSTALLATION_STATUSES = Object.freeze(['active', 'disabled', 'removed'] as const);
export const InstallationStatusSchema = z.enum(INSTALLATION_STATUSES);
export type InstallationStatus = z.infer<typeof InstallationStatusSchema>;

/** One account's installation of one skill (`sin_…`). */
export const SkillInstallationDocumentSchema = z.object({
  _id: z.string().regex(/^sin_[a-f0-9]{24}$/),
  accountId: z.string().min(1),
  skillId: z.uuid(),
  slug: SkillSlugSchema,
  status: InstallationStatusSchema,
  permissionsApproved: z.array(SkillPermissionSchema),
  /** Who installed it: the account, or one of its deployed agents (its public reference). */
  installedBy: z.object({ kind: z.enum(['account', 'agent']), agentRef: z.string().optional() }),
  /** The skills whose installation brought this one in as a dependency. */
  dependencyOf: z.array(SkillSlugSchema),
  installedAt: z.date(),
  updatedAt: z.date(),
  lastUsedAt: z.date().optional(),
  useCount: z.number().int().nonnegative(),
  /** The account's rating of the skill (1-5), once it rated it. */
  rating: z.number().int().min(1).max(5).optional(),
  version: z.number().int().nonnegative(),
});
export type SkillInstallationDocument = z.infer<typeof SkillInstallationDocumentSchema>;

/** A developer: the handle skills and apps are published under (`_id` is the handle). */
export const DeveloperDocumentSchema = z.object({
  _id: DeveloperHandleSchema,
  kind: z.enum(['platform', 'enterprise']),
  /** The enterprise account behind the handle (internal; absent for the platform's own). */
  accountId: z.string().optional(),
  displayName: z.string().min(1).max(100),
  createdAt: z.date(),
});
export type DeveloperDocument = z.infer<typeof DeveloperDocumentSchema>;

/** The platform's own handle: the author of the seed catalog. */
export const PLATFORM_DEVELOPER = 'platform';
