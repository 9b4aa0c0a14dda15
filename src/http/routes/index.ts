import type { RouteModule } from '../app.types';
import { accountsRoute } from './accounts.route';
import { agentsRoute } from './agents.route';
import { bearerTokensRoute } from './bearer-tokens.route';
import { connectorsRoute } from './connectors.route';
import { ffpRoutesRoute } from './ffp-routes.route';
import { ffpRoute } from './ffp.route';
import { healthRoute } from './health.route';
import { mcpRoute } from './mcp.route';
import { sessionRoute } from './session.route';
import { toolsRoute } from './tools.route';

/** The routes of the front door so far, in registration order. Add new modules here. */
export const coreRoutes: readonly RouteModule[] = [
  healthRoute,
  ffpRoute,
  accountsRoute,
  sessionRoute,
  agentsRoute,
  bearerTokensRoute,
  toolsRoute,
  mcpRoute,
  ffpRoutesRoute,
  connectorsRoute,
];
