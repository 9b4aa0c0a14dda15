import { PUBLIC_OWNER, type AgentDocument } from '../../schemas/documents/agent';
import { AppError, errors, isAppError } from '../../schemas/errors';
import type { Principal } from '../../schemas/auth';
import {
  AgentsCreateMessageSchema,
  AgentsListMessageSchema,
  AgentsRegisterMessageSchema,
  AgentsUpdateMessageSchema,
  type AgentsCreateReply,
  type AgentsListReply,
  type AgentsRegisterReply,
  type AgentsUpdateReply,
} from '../../schemas/messages/agents';
import { BUILTIN_PRIMITIVES } from '../../schemas/tools/primitives';
import { defineActor } from '../../src/kernel';
import type { Repository } from '../../src/store/mongo';
import { DEFAULT_AGENT_TOOLS, isDefaultAgentId } from '../tools/router/default-agent';
import { fitListsWithin, type AgentLists } from './agent-limits';
import { agentDetailView, deployedAgentView, newAgentId, newAgentRef } from './agents.collection';
import { operatorOf } from './principal';
import type { TokenService } from './token-service';

/** Most agents `agents.list` returns (an operator with more needs pagination, not in the spec). */
export const MAX_LISTED_AGENTS = 5000;

/** Address of the directory of self-registered agents. */
export const PUBLIC_AGENTS = `agents:${PUBLIC_OWNER}`;

/** What the directory needs, wired by `actors/registry.ts`. */
export interface AgentDirectoryOptions {
  agents: Repository<AgentDocument>;
  tokens: TokenService;
  /**
   * The operator's default workspace, recorded on its deployed agents for the tool router.
   * Default: none known (the field stays absent).
   */
  defaultWorkspaceOf?: (accountId: string) => Promise<string | undefined>;
  /**
   * Tells every node that an agent's `allowedTools`, `allowedDomains` or `status` changed
   * (`agent.changed {agentId}`: the tool router reloads the agent before its next call).
   */
  announceChanged?: (agentId: string) => Promise<void>;
}

/** Attempts of `agents.update` when another write bumps the version in between. */
const UPDATE_ATTEMPTS = 3;

/** Only the account itself (session, account or named token) changes its agents' limits. */
function manager(auth: unknown, accountId: string): Principal {
  const principal = operatorOf(auth, accountId);
  if (principal.subjectType !== 'account') {
    throw errors.forbidden(
      "An agent's limits and status are managed by the account (session or account token), not by an agent key",
    );
  }
  return principal;
}

const notFound = () => errors.notFound('Agent not found', { field: 'agentRef' });

/** Turns a duplicate-key CONFLICT into a message naming what is taken (never the internal id). */
function explainDuplicate(err: unknown, name: string): unknown {
  if (!isAppError(err) || err.code !== 'CONFLICT') return err;
  const fields = Array.isArray(err.details.fields) ? (err.details.fields as string[]) : [];
  if (fields.includes('nameKey'))
    return errors.conflict(`An agent named "${name}" already exists`, { field: 'name' });
  if (fields.includes('_id'))
    return errors.conflict('This private agent id is already registered', { field: 'agentId' });
  // agentRef: 128 random bits colliding is not a real case; report it as a retryable clash.
  return new AppError('CONFLICT', 'Agent could not be created, try again');
}

/**
 * Directories of agents: `agents:public` registers self-registered agents (`POST /register`),
 * `agents:<accountId>` lists and deploys one operator's agents (`/api/agents`). Stateless: the
 * documents are the state, and uniqueness (name per owner, private id) is the unique indexes'
 * job, so two nodes racing on the same name give one 201 and one 409.
 */
export function agentDirectoryActor(options: AgentDirectoryOptions) {
  const { agents, tokens } = options;

  /** The operator's agent `agentRef`, or null (another operator's is as unknown as a made-up one). */
  const ownAgent = (accountId: string, agentRef: string) => agents.findOne({ agentRef, accountId });

  /**
   * The agent key calling `agents.create` for its operator: it must be active, and the lists it
   * gives may not exceed its own. Undefined for account callers.
   */
  async function callingAgent(principal: Principal, accountId: string): Promise<AgentDocument | undefined> {
    if (principal.subjectType !== 'agent' || !principal.agentId) return undefined;
    const caller = await agents.findById(principal.agentId);
    if (!caller || caller.accountId !== accountId) throw errors.forbidden('Not allowed for this account');
    if (caller.status !== 'active') {
      throw errors.forbidden(`This agent is ${caller.status}: it cannot deploy agents`);
    }
    return caller;
  }

  /**
   * The lists of a new agent. Given lists may not exceed the parent's (a subagent); absent ones
   * (and an empty `allowedTools`) are the parent's, else the defaults (every built-in primitive,
   * every domain). An agent key deploys no agent stronger than itself: the result must also fit
   * within the calling agent's lists, whose lists are then the defaults of a top-level agent.
   */
  function effectiveLists(
    body: { allowedTools?: string[]; allowedDomains?: string[] },
    parent: AgentDocument | null,
    caller: AgentDocument | undefined,
  ): { allowedTools: string[]; allowedDomains: string[] } {
    const given = fitListsWithin(
      {
        ...(body.allowedTools && body.allowedTools.length > 0 ? { allowedTools: body.allowedTools } : {}),
        ...(body.allowedDomains ? { allowedDomains: body.allowedDomains } : {}),
      },
      parent ? [{ lists: parent, what: 'the parent agent' }] : [],
    );
    const base: AgentLists | undefined = parent ?? caller;
    const lists = {
      allowedTools: given.allowedTools ?? (base ? [...base.allowedTools] : [...BUILTIN_PRIMITIVES]),
      allowedDomains: given.allowedDomains ?? (base ? [...base.allowedDomains] : []),
    };
    if (!caller || caller._id === parent?._id) return lists;
    const fitted = fitListsWithin(lists, [{ lists: caller, what: 'the calling agent' }]);
    return {
      allowedTools: fitted.allowedTools ?? lists.allowedTools,
      allowedDomains: fitted.allowedDomains ?? lists.allowedDomains,
    };
  }

  /** An agent's default `allowedTools` (what `[]` stands for): see UpdateAgentBodySchema. */
  function defaultToolsOf(doc: AgentDocument, parent: AgentDocument | null): string[] {
    if (parent) return [...parent.allowedTools];
    return isDefaultAgentId(doc._id) ? [...DEFAULT_AGENT_TOOLS] : [...BUILTIN_PRIMITIVES];
  }

  return defineActor({
    kind: 'agents',
    messages: {
      'agents.register': AgentsRegisterMessageSchema,
      'agents.create': AgentsCreateMessageSchema,
      'agents.list': AgentsListMessageSchema,
      'agents.update': AgentsUpdateMessageSchema,
    },
    handlers: {
      'agents.register': async (ctx, body): Promise<AgentsRegisterReply> => {
        if (ctx.id !== PUBLIC_OWNER) throw errors.validation('agents.register goes to agents:public');
        const doc = await agents
          .insertUnique({
            _id: newAgentId(body.agentId),
            version: 0,
            agentRef: newAgentRef(),
            origin: 'registered',
            ownerKey: PUBLIC_OWNER,
            name: body.name,
            nameKey: body.name.toLowerCase(),
            ...(body.description !== undefined ? { description: body.description } : {}),
            ...(body.ownerEmail !== undefined ? { ownerEmail: body.ownerEmail } : {}),
            isSubagent: false,
            status: 'active',
            allowedDomains: body.allowedDomains,
            allowedTools: body.allowedTools,
            totalCalls: 0,
            lastActiveAt: null,
            createdAt: new Date(),
          })
          .catch((err: unknown) => {
            throw explainDuplicate(err, body.name);
          });
        const { token } = tokens.issue({ sub: doc._id, typ: 'agent' });
        return { token, allowedDomains: doc.allowedDomains, allowedTools: doc.allowedTools };
      },

      'agents.create': async (ctx, body): Promise<AgentsCreateReply> => {
        if (ctx.id === PUBLIC_OWNER) throw errors.validation('agents.create goes to agents:<accountId>');
        const principal = operatorOf(ctx.auth, ctx.id);
        const caller = await callingAgent(principal, ctx.id);
        let parent: AgentDocument | null = null;
        if (body.parentAgentRef !== undefined) {
          // Only the operator's own agents: someone else's agentRef is as unknown as a made-up one.
          parent = await ownAgent(ctx.id, body.parentAgentRef);
          if (!parent) throw errors.notFound('Parent agent not found', { field: 'parentAgentRef' });
        }
        const { allowedTools, allowedDomains } = effectiveLists(body, parent, caller);
        const workspaceId = await options.defaultWorkspaceOf?.(ctx.id);
        const doc = await agents
          .insertUnique({
            _id: newAgentId(),
            version: 0,
            agentRef: newAgentRef(),
            origin: 'deployed',
            ownerKey: ctx.id,
            accountId: ctx.id,
            ...(workspaceId ? { workspaceId } : {}),
            name: body.name,
            nameKey: body.name.toLowerCase(),
            ...(body.description !== undefined ? { description: body.description } : {}),
            isSubagent: parent !== null,
            ...(parent ? { parentAgentRef: parent.agentRef } : {}),
            status: 'active',
            allowedDomains,
            allowedTools,
            totalCalls: 0,
            lastActiveAt: null,
            createdAt: new Date(),
          })
          .catch((err: unknown) => {
            throw explainDuplicate(err, body.name);
          });
        const { token } = tokens.issue({ sub: doc._id, typ: 'agent', acc: ctx.id });
        return { agent: deployedAgentView(doc), apiKey: token };
      },

      'agents.update': async (ctx, body): Promise<AgentsUpdateReply> => {
        if (ctx.id === PUBLIC_OWNER) throw errors.validation('agents.update goes to agents:<accountId>');
        manager(ctx.auth, ctx.id);
        for (let attempt = 1; ; attempt++) {
          const doc = await ownAgent(ctx.id, body.agentRef);
          if (!doc) throw notFound();
          const parent =
            doc.isSubagent && doc.parentAgentRef ? await ownAgent(ctx.id, doc.parentAgentRef) : null;
          const requested = {
            ...(body.allowedTools !== undefined
              ? {
                  allowedTools:
                    body.allowedTools.length > 0 ? body.allowedTools : defaultToolsOf(doc, parent),
                }
              : {}),
            ...(body.allowedDomains !== undefined ? { allowedDomains: body.allowedDomains } : {}),
          };
          const fitted = fitListsWithin(
            requested,
            parent ? [{ lists: parent, what: 'the parent agent' }] : [],
          );
          try {
            const updated = await agents.updateIfVersion(doc._id, doc.version, {
              $set: { ...fitted, ...(body.status !== undefined ? { status: body.status } : {}) },
            });
            // Every node holding the agent reloads it before its next tool call.
            await options.announceChanged?.(doc._id);
            return { agent: agentDetailView(updated) };
          } catch (err) {
            // A concurrent change (another PATCH): read again and re-check against the new state.
            if (!isAppError(err) || err.code !== 'CONFLICT' || attempt >= UPDATE_ATTEMPTS) {
              if (isAppError(err) && err.code === 'CONFLICT') {
                throw errors.conflict('The agent changed while it was updated, try again');
              }
              if (isAppError(err) && err.code === 'NOT_FOUND') throw notFound();
              throw err;
            }
          }
        }
      },

      'agents.list': async (ctx): Promise<AgentsListReply> => {
        if (ctx.id === PUBLIC_OWNER) throw errors.validation('agents.list goes to agents:<accountId>');
        operatorOf(ctx.auth, ctx.id);
        const docs = await agents.find(
          { accountId: ctx.id },
          { sort: { createdAt: 1, _id: 1 }, limit: MAX_LISTED_AGENTS },
        );
        return { agents: docs.map(deployedAgentView) };
      },
    },
  });
}
