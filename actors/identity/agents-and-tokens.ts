import { AGENT_CHANGED_BROADCAST } from '../../schemas/messages/tools';
import type { Services } from '../../src/boot/services';
import type { AnyActorDefinition } from '../../src/kernel/actor-definition';
import { workspacesCollection } from './accounts.repo';
import { agentDirectoryActor } from './agent-directory.actor';
import { agentActor } from './agent.actor';
import { agentsCollection } from './agents.collection';
import { NamedTokenDirectory } from './named-token-directory';
import { namedTokensActor } from './named-tokens.actor';
import { namedTokensCollection } from './named-tokens.collection';

/** Collections of agents and named tokens (indexes ensured at boot). */
export const agentsAndTokensCollections = [agentsCollection, namedTokensCollection] as const;

/** Optional lookups into other domains' data (workspaces), when they exist. */
export interface AgentsAndTokensWiring {
  /** The operator's default workspace id, recorded on deployed agents. */
  defaultWorkspaceOf?: (accountId: string) => Promise<string | undefined>;
  /** Whether a workspace belongs to the account (named tokens' `workspaceId`). */
  workspaceOwnedBy?: (accountId: string, workspaceId: string) => Promise<boolean>;
}

/** The lookups on the `workspaces` collection of the accounts domain. */
export function workspaceLookups(services: Services): Required<AgentsAndTokensWiring> {
  const workspaces = services.documents.repository(workspacesCollection);
  return {
    defaultWorkspaceOf: async (accountId) =>
      (await workspaces.findOne({ ownerAccountId: accountId, isDefault: true }))?._id,
    workspaceOwnedBy: async (accountId, workspaceId) =>
      (await workspaces.count({
        _id: workspaceId,
        $or: [{ ownerAccountId: accountId }, { 'members.accountId': accountId }],
      })) > 0,
  };
}

/** The actors of agents (`agents`, `agent`) and named tokens (`named-tokens`), from the services. */
export function agentsAndTokensActors(
  services: Services,
  wiring: AgentsAndTokensWiring = workspaceLookups(services),
): AnyActorDefinition[] {
  const agents = services.documents.repository(agentsCollection);
  const namedTokens = services.documents.repository(namedTokensCollection);
  return [
    agentDirectoryActor({
      agents,
      tokens: services.tokens,
      defaultWorkspaceOf: wiring.defaultWorkspaceOf,
      announceChanged: (agentId) => services.system.broadcast(AGENT_CHANGED_BROADCAST, { agentId }),
    }),
    agentActor({ agents }),
    namedTokensActor({
      repo: namedTokens,
      tokens: services.tokens,
      directory: new NamedTokenDirectory(namedTokens, services.cache),
      workspaceOwnedBy: wiring.workspaceOwnedBy,
    }),
  ];
}
