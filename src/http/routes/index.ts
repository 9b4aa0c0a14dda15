import type { RouteModule } from '../app.types';
import { accountsRoute } from './accounts.route';
import { agentsRoute } from './agents.route';
import { bearerTokensRoute } from './bearer-tokens.route';
import { ffpRoute } from './ffp.route';
import { healthRoute } from './health.route';
import { sessionRoute } from './session.route';

/** The routes of the front door so far, in registration order. Add new modules here. */
export const coreRoutes: readonly RouteModule[] = [
  healthRoute,
  ffpRoute,
  accountsRoute,
  sessionRoute,
  agentsRoute,
  bearerTokensRoute,
];
