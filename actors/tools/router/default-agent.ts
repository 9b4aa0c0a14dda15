import { randomBytes } from 'node:crypto';
import type { Principal } from '../../../schemas/auth';
import type { AccountDocument } from '../../../schemas/documents/account';
import type { AgentDocument } from '../../../schemas/documents/agent';
import { errors, isAppError } from '../../../schemas/errors';
import { BUILTIN_PRIMITIVES } from '../../../schemas/tools/primitives';
import type { Repository } from '../../../src/store/mongo';
import { newAgentRef } from '../../identity/agents.collection';

/**
 * An account calling the tool router (browser session, account token, named token) acts as its
 * **default agent**: an ordinary deployed agent of the account, created on its first call, whose
 * internal id is derived from the account id. Tools always run as an agent (memory namespace,
 * allowedTools, allowedDomains, rate limit, counts), and deriving the id means the front door needs
 * no lookup to address it. The `_` in the id cannot come from a private agent id (`^[a-z0-9-]+$`),
 * so registration can never take it.
 */
export const DEFAULT_AGENT_PREFIX = 'agt_default_';

/** Display name of a default agent (a suffix is added when the operator already uses it). */
export const DEFAULT_AGENT_NAME = 'Default agent';

export const defaultAgentIdOf = (accountId: string) => `${DEFAULT_AGENT_PREFIX}${accountId}`;

/**
 * The default agent's `allowedTools`: every built-in primitive, the account's own connector
 * tools (`mcp.*`) and the capabilities of the skills it installed (`platform.skill.*`). The
 * default agent is the account itself at the router, and the account registered those connectors
 * and installed those skills: it may call them (docs/tool-router.md, "Who the call runs as").
 */
export const DEFAULT_AGENT_TOOLS: readonly string[] = Object.freeze([
  ...BUILTIN_PRIMITIVES,
  'mcp.*',
  'platform.skill.*',
]);

/** Whether `agentId` is an account's default agent. */
export const isDefaultAgentId = (agentId: string) => agentId.startsWith(DEFAULT_AGENT_PREFIX);

export function accountOfDefaultAgent(agentId: string): string | undefined {
  return agentId.startsWith(DEFAULT_AGENT_PREFIX) ? agentId.slice(DEFAULT_AGENT_PREFIX.length) : undefined;
}

/** The agent a caller of the router acts as: the agent of an agent key, else the account's default agent. */
export function callerAgentId(principal: Principal): string {
  if (principal.subjectType === 'agent' && principal.agentId) return principal.agentId;
  if (principal.subjectType === 'account' && principal.accountId)
    return defaultAgentIdOf(principal.accountId);
  throw errors.unauthorized();
}

/** What creating a default agent needs. */
export interface DefaultAgentDeps {
  agents: Repository<AgentDocument>;
  accounts: Repository<AccountDocument>;
  defaultWorkspaceOf?: (accountId: string) => Promise<string | undefined>;
}

/**
 * Creates the default agent `agentId` stands for, when its account exists. Idempotent (the id is
 * fixed: of two nodes racing, one inserts and the other finds it). Resolves false when `agentId`
 * is not a default agent's or the account does not exist.
 */
export async function ensureDefaultAgent(deps: DefaultAgentDeps, agentId: string): Promise<boolean> {
  const accountId = accountOfDefaultAgent(agentId);
  if (!accountId || !(await deps.accounts.findById(accountId))) return false;
  const workspaceId = await deps.defaultWorkspaceOf?.(accountId);
  for (const name of [DEFAULT_AGENT_NAME, `${DEFAULT_AGENT_NAME} ${randomBytes(3).toString('hex')}`]) {
    try {
      await deps.agents.insertIfAbsent({
        _id: agentId,
        version: 0,
        agentRef: newAgentRef(),
        origin: 'deployed',
        ownerKey: accountId,
        accountId,
        ...(workspaceId ? { workspaceId } : {}),
        name,
        nameKey: name.toLowerCase(),
        description: 'Acts for the account when it calls the tool router with its own credentials',
        isSubagent: false,
        status: 'active',
        allowedDomains: [],
        allowedTools: [...DEFAULT_AGENT_TOOLS],
        totalCalls: 0,
        lastActiveAt: null,
        createdAt: new Date(),
      });
      return true;
    } catch (err) {
      // The operator already named an agent "Default agent": take a suffixed name.
      if (isAppError(err) && err.code === 'CONFLICT') continue;
      throw err;
    }
  }
  return false;
}
