import type { ToolRouterRouteServices } from './tool-invoke';
import { PLATFORM_TOOLS } from '../platform-tools';
import { ToolRegistry } from './tool-registry';
import type { RouteModule } from '../../../src/http/app.types';
import { principalOf } from '../../../src/http/auth';
import { listingFor } from './tool-listing';

let fallbackRegistry: ToolRegistry | undefined;

/**
 * `GET /tools` (no auth needed): the registry of built-in tools, `{tools: [{name: 'platform.<x>',
 * description, inputSchema}]}` sorted by name. Anonymous callers get the public body, computed
 * once per process and sent as is (its length is what `GET /health` reports as `tools`). A caller
 * with a valid bearer token or session (`optionalAuth`) also gets its account's connector tools
 * (`mcp.<slug>.<tool>`) that its agent's `allowedTools` permit, in the same sorted list, with a
 * private cache policy.
 */
export const toolsRoute: RouteModule<ToolRouterRouteServices> = (router, deps) => {
  const registry = () =>
    deps.services?.toolRouter?.registry ?? (fallbackRegistry ??= new ToolRegistry(PLATFORM_TOOLS));
  router.get('/tools', deps.optionalAuth, async (_req, res) => {
    // The answer depends on the credentials: shared caches must key on them.
    res.vary('Authorization').vary('Cookie');
    const principal = principalOf(res);
    const listing = principal ? await listingFor(deps, principal, registry()) : undefined;
    if (!listing?.personal) {
      // The same for every anonymous caller until the next deploy: let clients and proxies keep it a while.
      res
        .set('Cache-Control', principal ? 'private, no-cache' : 'public, max-age=60')
        .type('application/json')
        .send(registry().listingJson);
      return;
    }
    res.set('Cache-Control', 'private, no-cache').json({ tools: listing.tools });
  });
};
