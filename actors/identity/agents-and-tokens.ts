import { AGENT_CHANGED_BROADCAST } from '../../schemas/messages/tools';
import type { Services } from '../../src/boot/services';
import type { AnyActorDefinition } from '../../src/kernel/actor-definition';
import { defaultWorkspaceOf } from '../workspaces/default-workspace';
import { agentDirectoryActor } from './agent-directory.actor';
import { agentActor, type AgentToolHandlers } from './agent.actor';
import { agentsCollection } from './agents.collection';
import { NamedTokenDirectory } from './named-token-directory';
import { namedTokensActor } from './named-tokens.actor';
import { namedTokensCollection } from './named-tokens.collection';

/** Collections of agents and named tokens (indexes ensured at boot). */
export const agentsAndTokensCollections = [agentsCollection, namedTokensCollection] as const;

/** Lookups into other domains' data (workspaces) and the tool router's handlers of the agent actor. */
export interface AgentsAndTokensWiring {
  /** The handlers of `agent.invokeTool` / `agent.listTools` (actors/tools/router/agent-tools.ts). */
  tools?: AgentToolHandlers;
  /** The operator's default workspace id, recorded on deployed agents. */
  defaultWorkspaceOf?: (accountId: string) => Promise<string | undefined>;
  /** Whether the account is a member of the workspace, any role (named tokens' `workspaceId`). */
  isWorkspaceMember?: (accountId: string, workspaceId: string) => Promise<boolean>;
}

/**
 * The lookups into the workspaces: an account's default one (provisioned on first use for an
 * account that has none yet, actors/workspaces/default-workspace.ts), and membership.
 */
export function workspaceLookups(
  services: Services,
): Required<Pick<AgentsAndTokensWiring, 'defaultWorkspaceOf' | 'isWorkspaceMember'>> {
  return {
    defaultWorkspaceOf: (accountId) => defaultWorkspaceOf(services, accountId),
    // The one membership decision of the workspaces domain (docs/workspaces.md).
    isWorkspaceMember: (accountId, workspaceId) =>
      services.workspaces.membership.isMember({ accountId }, workspaceId),
  };
}

/** The actors of agents (`agents`, `agent`) and named tokens (`named-tokens`), from the services. */
export function agentsAndTokensActors(
  services: Services,
  extra: AgentsAndTokensWiring = {},
): AnyActorDefinition[] {
  const wiring = { ...workspaceLookups(services), ...extra };
  const agents = services.documents.repository(agentsCollection);
  const namedTokens = services.documents.repository(namedTokensCollection);
  return [
    agentDirectoryActor({
      agents,
      tokens: services.tokens,
      defaultWorkspaceOf: wiring.defaultWorkspaceOf,
      announceChanged: (agentId) => services.system.broadcast(AGENT_CHANGED_BROADCAST, { agentId }),
    }),
    agentActor({ agents, tools: wiring.tools }),
    namedTokensActor({
      repo: namedTokens,
      tokens: services.tokens,
      directory: new NamedTokenDirectory(namedTokens, services.cache),
      isWorkspaceMember: wiring.isWorkspaceMember,
    }),
  ];
}
