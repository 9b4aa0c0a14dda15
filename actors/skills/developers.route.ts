import { z } from 'zod';
import { DeveloperHandleSchema } from '../../schemas/documents/skill';
import type { RouteModule } from '../../src/http/app.types';
import { parseParams } from '../../src/http/validation';
import { skillsOf, type SkillsRouteServices } from './skills.route';

const HandleParamsSchema = z.object({ handle: DeveloperHandleSchema });

/**
 * `GET /api/developers/{handle}` (no auth): the public profile of a developer, shared by the
 * skill store and the app store, from real counts (docs/skills.md, "Developers").
 */
export const developersRoute: RouteModule<SkillsRouteServices> = (router, deps) => {
  router.get('/api/developers/:handle', async (req, res) => {
    const { handle } = parseParams(HandleParamsSchema, req);
    res.json(await skillsOf(deps).developers.profile(handle));
  });
};
