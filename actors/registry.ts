import type { AnyActorDefinition } from '../src/kernel/actor-definition';
import type { Services } from '../src/boot/services';
import { connectorsActors } from './connectors/connectors';
import { executionsActors } from './executions/executions';
import { accountsActors } from './identity/accounts';
import { agentsAndTokensActors } from './identity/agents-and-tokens';
import { memoryActors } from './memory/memory';
import { healthActor } from './ops/health.actor';
import { studioActors } from './studio/studio';
import { withToolRouter } from './tools/router/agent-tools.extension';
import { vaultActors } from './vault/vault';

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
    // The tool router adds `agent.invokeTool` to the agent actor (actors/tools/router/).
    ...withToolRouter(agentsAndTokensActors(services), services),
    ...connectorsActors(services),
    ...executionsActors(services),
    ...studioActors(services),
    ...memoryActors(services),
    ...vaultActors(services),
  ];
}

/** Collections whose indexes are ensured at boot. Add a domain's collection definitions here. */
export { collectionDefinitions } from './collections';
