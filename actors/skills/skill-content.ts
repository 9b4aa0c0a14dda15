import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  CapabilityDocumentSchema,
  DependenciesSchema,
  DeveloperHandleSchema,
  SecretNameSchema,
  SemverSchema,
  SKILL_LIMITS,
  SkillCategorySchema,
  SkillExampleSchema,
  SkillPermissionSchema,
  SkillSlugSchema,
  type CapabilityDocument,
  type SkillDocument,
} from '../../schemas/documents/skill';
import { errors } from '../../schemas/errors';

/**
 * The content of a skill, whoever wrote it (the catalog's files, an enterprise's `POST
 * /api/skills`): what is checked before it is stored, and the hash that says whether it changed.
 */
export const SkillContentSchema = z.object({
  skill_id: z.uuid(),
  slug: SkillSlugSchema,
  name: z.string().trim().min(1).max(100),
  category: SkillCategorySchema,
  version: SemverSchema,
  author: DeveloperHandleSchema,
  description: z.string().trim().min(1).max(2000),
  featured: z.boolean().default(false),
  permissions_required: z.array(SkillPermissionSchema).max(6).default([]),
  required_secrets: z.array(SecretNameSchema).max(SKILL_LIMITS.maxSecrets).default([]),
  dependencies: DependenciesSchema.default({ required: [], optional: [] }),
  library: CapabilityDocumentSchema.shape.code.optional(),
  capabilities: z.array(CapabilityDocumentSchema).min(1).max(SKILL_LIMITS.maxCapabilities),
  example: SkillExampleSchema,
});
export type SkillContent = z.output<typeof SkillContentSchema>;

const compiled = new Map<string, z.ZodType>();

/**
 * The zod schema of a capability's params, from its JSON Schema (`z.fromJSONSchema`), kept per
 * schema text. Throws VALIDATION_ERROR when the JSON Schema cannot be converted.
 */
export function paramsValidator(capability: Pick<CapabilityDocument, 'name' | 'paramsSchema'>): z.ZodType {
  const key = JSON.stringify(capability.paramsSchema);
  let schema = compiled.get(key);
  if (!schema) {
    try {
      schema = z.fromJSONSchema(capability.paramsSchema as Parameters<typeof z.fromJSONSchema>[0]);
    } catch (err) {
      throw errors.validation(
        `The params schema of ${capability.name} is not a usable JSON Schema: ${(err as Error).message}`.slice(
          0,
          500,
        ),
      );
    }
    if (compiled.size > 5000) compiled.clear();
    compiled.set(key, schema);
  }
  return schema;
}

/**
 * Checks what the schema cannot: capability names are unique, the example names a capability and
 * fits its params schema, every params schema converts, a skill does not depend on itself, and a
 * dependency is not both required and optional. Throws VALIDATION_ERROR.
 */
export function checkSkillContent(content: SkillContent): void {
  const names = new Set<string>();
  for (const capability of content.capabilities) {
    if (names.has(capability.name))
      throw errors.validation(`Capability ${capability.name} is declared twice`);
    names.add(capability.name);
    paramsValidator(capability);
  }
  const example = content.capabilities.find((c) => c.name === content.example.capability);
  if (!example)
    throw errors.validation(`The example names no capability of the skill: ${content.example.capability}`);
  const parsed = paramsValidator(example).safeParse(content.example.params);
  if (!parsed.success) {
    throw errors.validation(`The example's params do not fit the schema of ${example.name}`, {
      details: parsed.error.issues.slice(0, 10).map((i) => ({ path: i.path.join('.'), message: i.message })),
    });
  }
  const { required, optional } = content.dependencies;
  for (const slug of [...required, ...optional]) {
    if (slug === content.slug) throw errors.validation('A skill cannot depend on itself');
  }
  if (required.some((slug) => optional.includes(slug))) {
    throw errors.validation('A dependency is either required or optional, not both');
  }
}

/** Hash of everything a use depends on and a listing shows (stats excluded). */
export function contentHashOf(content: SkillContent): string {
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}

/** The document fields that come from the content (the rest are stats and bookkeeping). */
export function contentFields(content: SkillContent) {
  return {
    slug: content.slug,
    name: content.name,
    nameKey: content.name.toLowerCase(),
    category: content.category,
    semver: content.version,
    author: content.author,
    description: content.description,
    permissions_required: [...new Set(content.permissions_required)],
    required_secrets: [...new Set(content.required_secrets)],
    dependencies: content.dependencies,
    capabilities: content.capabilities.map(({ name, description, mutating }) => ({
      name,
      description,
      mutating,
    })),
    paramsSchemas: Object.fromEntries(content.capabilities.map((c) => [c.name, c.paramsSchema])),
    code: Object.fromEntries(content.capabilities.map((c) => [c.name, c.code])),
    ...(content.library === undefined ? {} : { library: content.library }),
    example: content.example,
    featured: content.featured,
    searchText: `${content.name}\n${content.slug}\n${content.description}`.toLowerCase(),
    contentHash: contentHashOf(content),
  } satisfies Partial<SkillDocument>;
}

/** The counters and dates of a skill entering the store (seeded or published): nothing used yet. */
export function newSkillStats(now: Date) {
  return {
    installCount: 0,
    activeInstalls: 0,
    useCount: 0,
    rating: null,
    ratingCount: 0,
    ratingSum: 0,
    publishedAt: now,
    createdAt: now,
    updatedAt: now,
  };
}
