import { PublishSkillBodySchema } from '../../schemas/http/skills';
import type { RouteModule } from '../../src/http/app.types';
import { requireAccount } from '../../src/http/auth';
import { parseBody } from '../../src/http/validation';
import type { PublishResult } from './skill-publisher';
import type { SkillsRouteServices } from './skills.route';

/**
 * `POST /api/skills` (SB, enterprise accounts): publishes a skill, or a new version of one of the
 * account's (docs/skills.md, "Publishing"), through the account's `skill-publisher` actor. 201
 * for a new skill, 200 for a new version.
 */
export const skillPublishingRoute: RouteModule<SkillsRouteServices> = (router, deps) => {
  router.post('/api/skills', deps.requireAuth, async (req, res) => {
    const caller = requireAccount(res, 'Skills are published by an enterprise account');
    const body = parseBody(PublishSkillBodySchema, req);
    const { created, ...result } = await deps.system.ask<PublishResult>(
      `skill-publisher:${caller.accountId}`,
      'skill-publisher.publish',
      body,
      { auth: caller, timeoutMs: 60_000 },
    );
    res.status(created ? 201 : 200).json(result);
  });
};
