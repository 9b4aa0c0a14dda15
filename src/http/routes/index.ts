import { probesRoute } from '../../../actors/ops/probes.route';
import type { RouteModule } from '../app.types';
import { accountsRoute } from './accounts.route';
import { agentsRoute } from './agents.route';
import { bearerTokensRoute } from './bearer-tokens.route';
import { connectorsRoute } from './connectors.route';
import { executionEventsRoute } from './execution-events.route';
import { executionsRoute } from './executions.route';
import { ffpRoutesRoute } from './ffp-routes.route';
import { ffpRoute } from './ffp.route';
import { filesRoute } from './files.route';
import { healthRoute } from './health.route';
import { mcpRoute } from './mcp.route';
import { memoryRoute } from './memory.route';
import { notificationsRoute } from './notifications.route';
import { panicRoute } from './panic.route';
import { recoveryRoute } from './recovery.route';
import { sessionRoute } from './session.route';
import { studioRoute } from './studio.route';
import { toolsRoute } from './tools.route';
import { vaultRuntimeRoute } from './vault-runtime.route';
import { vaultRoute } from './vault.route';
import { workspacesRoute } from './workspaces.route';

/**
 * The routes of the front door, in registration order. Add new modules here. Express tries routes
 * in order, so the hottest paths (the tool router, health) come first.
 */
export const coreRoutes: readonly RouteModule[] = [
  mcpRoute,
  healthRoute,
  probesRoute,
  ffpRoute,
  accountsRoute,
  sessionRoute,
  agentsRoute,
  bearerTokensRoute,
  toolsRoute,
  ffpRoutesRoute,
  connectorsRoute,
  executionsRoute,
  executionEventsRoute,
  recoveryRoute,
  panicRoute,
  notificationsRoute,
  studioRoute,
  vaultRoute,
  vaultRuntimeRoute,
  filesRoute,
  memoryRoute,
  workspacesRoute,
];
