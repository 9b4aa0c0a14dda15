import { errors } from '../../schemas/errors';
import { ListSkillsQuerySchema, SkillRefParamsSchema } from '../../schemas/http/skills';
import type { RouteModule } from '../../src/http/app.types';
import { principalOf } from '../../src/http/auth';
import { parseParams, parseQuery } from '../../src/http/validation';
import { skillDetail, toolNameOf } from './skill-views';
import type { SkillsService } from './skills.service';

/** What the skill store's routes read from the process's services. */
export interface SkillsRouteServices {
  readonly skills: SkillsService;
}

export function skillsOf(deps: { services?: SkillsRouteServices }): SkillsService {
  const skills = deps.services?.skills;
  if (!skills) throw errors.unavailable('The skill store is not available on this node');
  return skills;
}

/**
 * The public routes of the skill store (docs/skills.md): the listing, discovery and previews,
 * without credentials (discovery also reads the caller's installed slugs when it has some).
 */
export const skillsCatalogRoute: RouteModule<SkillsRouteServices> = (router, deps) => {
  router.get('/api/skills', async (req, res) => {
    const query = parseQuery(ListSkillsQuerySchema, req);
    res.json(await skillsOf(deps).catalog.list(query));
  });

  router.get('/api/skills/discovery', deps.optionalAuth, async (_req, res) => {
    const skills = skillsOf(deps);
    const principal = principalOf(res);
    const [discovery, installedSlugs] = await Promise.all([
      skills.catalog.discovery(),
      principal?.accountId ? skills.installedSlugs(principal.accountId) : Promise.resolve([]),
    ]);
    if (principal) res.set('Cache-Control', 'private, no-cache').vary('Authorization').vary('Cookie');
    res.json({ ...discovery, installedSlugs });
  });

  router.get('/api/skills/:id/preview', async (req, res) => {
    const { id } = parseParams(SkillRefParamsSchema, req);
    const skill = await skillsOf(deps).catalog.get(id);
    const { capability, params, output } = skill.example;
    res.json({
      skill: skillDetail(skill),
      preview: {
        inputExample: { capability, params },
        outputExample: output,
        executionExample: {
          http: {
            method: 'POST',
            path: '/api/skills/use',
            body: { skill_slug: skill.slug, capability, params },
          },
          mcp: { tool: toolNameOf(skill.slug, capability), input: params },
        },
        expectedResults: { success: true, result: output },
      },
    });
  });
};
