import { PLATFORM_TOOLS } from '../../../actors/tools/platform-tools';
import { ToolRegistry } from '../../../actors/tools/router/tool-registry';
import type { RouteModule } from '../app.types';

let fallbackRegistry: ToolRegistry | undefined;

/**
 * `GET /tools` (no auth): the registry of built-in tools, `{tools: [{name: 'platform.<x>',
 * description, inputSchema}]}` sorted by name. The body is computed once per process and sent as
 * is; its length is what `GET /health` reports as `tools`.
 */
export const toolsRoute: RouteModule = (router, deps) => {
  const registry = () =>
    deps.services?.toolRouter?.registry ?? (fallbackRegistry ??= new ToolRegistry(PLATFORM_TOOLS));
  router.get('/tools', (_req, res) => {
    // Public and the same for everyone until the next deploy: let clients and proxies keep it a while.
    res.set('Cache-Control', 'public, max-age=60').type('application/json').send(registry().listingJson);
  });
};
