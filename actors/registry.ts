import type { Services } from '../src/boot/services';
import type { RouteModule } from '../src/http/app.types';
import type { AnyActorDefinition } from '../src/kernel/actor-definition';
import { openApiRoute } from '../src/http/openapi/openapi.route';
import { appInstallationsRoute } from './apps/installations.route';
import { appsCatalogRoute } from './apps/apps.route';
import { OPENAPI_INFO, routeContracts } from './contracts';
import { connectorsActors } from './connectors/connectors';
import { connectorsRoute } from './connectors/connectors.route';
import { executionsActors } from './executions/executions';
import { executionEventsRoute } from './executions/execution-events.route';
import { executionsRoute } from './executions/executions.route';
import { panicRoute } from './executions/panic.route';
import { recoveryRoute } from './executions/recovery.route';
import { filesRoute } from './files/files.route';
import { accountsActors } from './identity/accounts';
import { accountsRoute } from './identity/accounts.route';
import { agentsAndTokensActors } from './identity/agents-and-tokens';
import { agentsRoute } from './identity/agents.route';
import { bearerTokensRoute } from './identity/bearer-tokens.route';
import { sessionRoute } from './identity/session.route';
import { memoryRoute } from './memory/memory.route';
import { notificationsRoute } from './notifications/notifications.route';
import { crewRoute } from './operations/crew.route';
import { metricsRoute } from './operations/metrics.route';
import { ffpRoute } from './ops/ffp.route';
import { healthActor } from './ops/health.actor';
import { healthRoute } from './ops/health.route';
import { probesRoute } from './ops/probes.route';
import { developersRoute } from './skills/developers.route';
import { skillInstallationsRoute } from './skills/installations.route';
import { skillPublishingRoute } from './skills/publishing.route';
import { skillsActors } from './skills/skills.service';
import { skillsCatalogRoute } from './skills/skills.route';
import { socialRoute } from './social/social.route';
import { xDraftsRoute } from './social/x-drafts.route';
import { studioRoute } from './studio/studio.route';
import { createAgentToolHandlers } from './tools/router/agent-tools';
import { mcpRoute } from './tools/router/mcp.route';
import { oauthMetadataRoute } from './tools/router/oauth-metadata.route';
import { oauthAuthorizeRoute, oauthRevokeRoute, oauthServerRoute } from './oauth/oauth';
import { routeRecordsRoute } from './tools/router/route-records.route';
import { toolsRoute } from './tools/router/tools.route';
import { vaultActors } from './vault/vault';
import { vaultRuntimeRoute } from './vault/vault-runtime.route';
import { vaultRoute } from './vault/vault.route';
import { workspacesRoute } from './workspaces/workspaces.route';

/**
 * Every actor kind a worker hosts, built from the process's services. Add a domain's actors here
 * (one line each); `startRuntime` registers them all when the ROLE hosts actors.
 */
export function actorDefinitions(services: Services): AnyActorDefinition[] {
  const { config, system, documents, cache } = services;
  return [
    healthActor({
      probes: {
        transport: () => ({ ...system.status().transport, embedded: config.embedded.transport }),
        documents: async () => ({ ...(await documents.status()), embedded: config.embedded.documents }),
        cache: async () => ({ ...(await cache.status()), embedded: config.embedded.cache }),
      },
    }),
    ...accountsActors(services),
    // The agent actor serves tool calls with the tool router's handlers (actors/tools/router/).
    ...agentsAndTokensActors(services, { tools: createAgentToolHandlers(services) }),
    ...connectorsActors(services),
    ...executionsActors(services),
    ...vaultActors(services),
    ...skillsActors(services),
  ];
}

/**
 * The routes of the front door, in registration order (each lives beside its domain). Express
 * tries routes in order, so the hottest paths (the tool router, health) come first.
 */
export const routeModules: readonly RouteModule<Services>[] = [
  // First: its layer times every request the routes below take (actors/operations/metrics.ts).
  metricsRoute,
  mcpRoute,
  // Event streams come in bursts (a thousand intents at once): matched before the other routes,
  // each request walks a few layers instead of sixty (their paths overlap no other route's).
  studioRoute,
  executionEventsRoute,
  oauthMetadataRoute,
  oauthServerRoute,
  oauthAuthorizeRoute,
  oauthRevokeRoute,
  healthRoute,
  probesRoute,
  ffpRoute,
  accountsRoute,
  sessionRoute,
  agentsRoute,
  bearerTokensRoute,
  toolsRoute,
  routeRecordsRoute,
  connectorsRoute,
  executionsRoute,
  recoveryRoute,
  panicRoute,
  notificationsRoute,
  skillsCatalogRoute,
  skillInstallationsRoute,
  skillPublishingRoute,
  developersRoute,
  appInstallationsRoute,
  appsCatalogRoute,
  vaultRoute,
  vaultRuntimeRoute,
  filesRoute,
  memoryRoute,
  workspacesRoute,
  crewRoute,
  // Optional (SOCIAL_ENABLED): registers nothing when the connector is off.
  socialRoute,
  xDraftsRoute,
  // Last: `GET /openapi.json` and `/docs`, built from `routeContracts` (one per route above).
  openApiRoute(OPENAPI_INFO, () => routeContracts),
];

export { OPENAPI_INFO, routeContracts } from './contracts';

/** Collections whose indexes are ensured at boot. Add a domain's collection definitions here. */
export { collectionDefinitions } from './collections';
