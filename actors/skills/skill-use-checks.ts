import type { SkillDocument, SkillInstallationDocument } from '../../schemas/documents/skill';
import { SKILL_LIMITS } from '../../schemas/documents/skill';
import { errors } from '../../schemas/errors';
import { paramsValidator } from './skill-content';
import { missingPermissions } from './skill-views';

/** What a use needs to be allowed: the skill, its installation, and its dependencies' installations. */
export interface UseContext {
  skill: SkillDocument;
  installation: SkillInstallationDocument | null;
  /** The installations of the skill's dependencies (required and optional), by slug. */
  dependencies: ReadonlyMap<string, SkillInstallationDocument>;
}

/**
 * The checks of a use, in the order of docs/skills.md ("Using"), each with its own error:
 * installed and active (403), required permissions approved (403, `missingPermissions`: the spec's
 * "revoked required skill permissions block skill execution"), required dependencies installed
 * and active (403, `missingSkills`), the capability declared (400), the params fitting its schema
 * (400). The skill's existence (404) is checked by whoever loaded it. Resolves the parsed params.
 */
export function checkUse(use: UseContext, capability: string, params: Record<string, unknown>): unknown {
  const { skill, installation } = use;
  if (!installation || installation.status === 'removed') {
    throw errors.forbidden(`${skill.slug} is not installed: install it first (POST /api/skills/install)`, {
      skill: skill.slug,
      reason: 'not_installed',
    });
  }
  if (installation.status !== 'active') {
    throw errors.forbidden(`${skill.slug} is ${installation.status}: set its installation active to use it`, {
      skill: skill.slug,
      reason: 'not_active',
      status: installation.status,
    });
  }
  const missing = missingPermissions(skill, installation.permissionsApproved);
  if (missing.length > 0) {
    throw errors.forbidden(
      `${skill.slug} needs the permissions ${missing.join(', ')}, which are not approved`,
      {
        skill: skill.slug,
        reason: 'permission_not_approved',
        missingPermissions: missing,
      },
    );
  }
  const missingSkills = skill.dependencies.required.filter(
    (slug) => use.dependencies.get(slug)?.status !== 'active',
  );
  if (missingSkills.length > 0) {
    throw errors.forbidden(`${skill.slug} needs ${missingSkills.join(', ')} installed and active`, {
      skill: skill.slug,
      reason: 'dependency_missing',
      missingSkills,
    });
  }
  const declared = skill.capabilities.find((c) => c.name === capability);
  if (!declared) {
    throw errors.validation(`${skill.slug} has no capability ${capability}`, {
      capabilities: skill.capabilities.map((c) => c.name),
    });
  }
  if (JSON.stringify(params).length > SKILL_LIMITS.maxParamsChars) {
    throw errors.validation(`params are at most ${SKILL_LIMITS.maxParamsChars} characters of JSON`);
  }
  const parsed = paramsValidator({
    name: capability,
    paramsSchema: skill.paramsSchemas[capability],
  }).safeParse(params);
  if (!parsed.success) {
    const details = parsed.error.issues
      .slice(0, 20)
      .map((i) => ({ path: i.path.join('.'), message: i.message }));
    const shown = details
      .slice(0, 5)
      .map((d) => (d.path ? `${d.path}: ${d.message}` : d.message))
      .join('; ');
    throw errors.validation(`Invalid params for ${skill.slug}.${capability}: ${shown}`, { details });
  }
  return parsed.data;
}

/** The libraries a use loads: its required dependencies', and its optional ones' that are installed and active. */
export function dependencyLibraries(
  skill: SkillDocument,
  dependencies: ReadonlyMap<string, SkillDocument>,
  installed: ReadonlyMap<string, SkillInstallationDocument>,
): Map<string, string> {
  const libraries = new Map<string, string>();
  for (const slug of skill.dependencies.required) {
    const library = dependencies.get(slug)?.library;
    if (library) libraries.set(slug, library);
  }
  for (const slug of skill.dependencies.optional) {
    const library = dependencies.get(slug)?.library;
    if (library && installed.get(slug)?.status === 'active') libraries.set(slug, library);
  }
  return libraries;
}
