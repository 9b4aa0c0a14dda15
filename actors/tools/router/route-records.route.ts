import type { ToolRouterRouteServices } from './tool-invoke';
import { FfpRoutesQuerySchema, FfpRoutesResponseSchema } from '../../../schemas/http/mcp';
import type { RouteModule } from '../../../src/http/app.types';
import { requirePrincipal } from '../../../src/http/auth';
import { toolRouterOf } from './tool-invoke';
import { parseQuery } from '../../../src/http/validation';

/**
 * `GET /api/ffp/routes?limit=` (SB): how the caller's tool calls were routed. `routes`: the latest
 * route records (default 50, at most 200, newest first) of the calling agent, or of every agent of
 * the calling account; `primitives`: executions per primitive (`fallbackCount` stays 0: the FFP
 * fallback is disabled in this version). A plain read of `route_records` and `route_stats`
 * (written in batches, so a call shows up within about half a second).
 */
export const routeRecordsRoute: RouteModule<ToolRouterRouteServices> = (router, deps) => {
  router.get('/api/ffp/routes', deps.requireAuth, async (req, res) => {
    const principal = requirePrincipal(res);
    const { limit } = parseQuery(FfpRoutesQuerySchema, req);
    const answer = await toolRouterOf(deps).routes.forCaller(principal, limit);
    res.json(FfpRoutesResponseSchema.parse(answer));
  });
};
