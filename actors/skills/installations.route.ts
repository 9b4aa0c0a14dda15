import {
  InstallSkillBodySchema,
  PatchInstallationBodySchema,
  RateSkillBodySchema,
  SkillRefParamsSchema,
  UseSkillBodySchema,
} from '../../schemas/http/skills';
import type { RouteModule } from '../../src/http/app.types';
import { requireAccount } from '../../src/http/auth';
import { parseBody, parseParams } from '../../src/http/validation';
import type { InstallResult } from './skill-installer';
import { skillsOf, type SkillsRouteServices } from './skills.route';

/** Installations and uses belong to an operator account (a self-registered agent has none). */
export const ACCOUNT_ONLY =
  'Skills are installed by an operator account: use an account session or token, or a deployed agent key';

/**
 * An account's installations and uses (docs/skills.md, "Installing", "Using"): install (with
 * dependencies), the installed list, changes of status and approved permissions (through the
 * account's `skills` actor; the list reads the documents), and uses (a SKILL_EXECUTION each).
 */
export const skillInstallationsRoute: RouteModule<SkillsRouteServices> = (router, deps) => {
  router.post('/api/skills/install', deps.requireAuth, async (req, res) => {
    const caller = requireAccount(res, ACCOUNT_ONLY);
    const body = parseBody(InstallSkillBodySchema, req);
    const { created, ...result } = await deps.system.ask<InstallResult>(
      `skills:${caller.accountId}`,
      'skills.install',
      body,
      { auth: caller },
    );
    res.status(created ? 201 : 200).json(result);
  });

  router.post('/api/skills/use', deps.requireAuth, async (req, res) => {
    const caller = requireAccount(res, ACCOUNT_ONLY);
    const body = parseBody(UseSkillBodySchema, req);
    res.json(await skillsOf(deps).use(caller, body));
  });

  router.post('/api/skills/:id/rating', deps.requireAuth, async (req, res) => {
    const caller = requireAccount(res, ACCOUNT_ONLY);
    const { id } = parseParams(SkillRefParamsSchema, req);
    const { stars } = parseBody(RateSkillBodySchema, req);
    res.json(
      await deps.system.ask(
        `skills:${caller.accountId}`,
        'skills.rate',
        { skill: id, stars },
        { auth: caller },
      ),
    );
  });

  router.get('/api/skills/installed', deps.requireAuth, async (_req, res) => {
    const caller = requireAccount(res, ACCOUNT_ONLY);
    res.set('Cache-Control', 'private, no-cache');
    res.json({ installed_skills: await skillsOf(deps).installed(caller.accountId) });
  });

  router.patch('/api/skills/:id/installation', deps.requireAuth, async (req, res) => {
    const caller = requireAccount(res, ACCOUNT_ONLY);
    const { id } = parseParams(SkillRefParamsSchema, req);
    const body = parseBody(PatchInstallationBodySchema, req);
    res.json(
      await deps.system.ask(
        `skills:${caller.accountId}`,
        'skills.updateInstallation',
        { skill: id, ...body },
        { auth: caller },
      ),
    );
  });
};
