import { PUBLIC_OWNER, type AgentDocument } from '../../schemas/documents/agent';
import { AppError, errors, isAppError } from '../../schemas/errors';
import {
  AgentsCreateMessageSchema,
  AgentsListMessageSchema,
  AgentsRegisterMessageSchema,
  type AgentsCreateReply,
  type AgentsListReply,
  type AgentsRegisterReply,
} from '../../schemas/messages/agents';
import { BUILTIN_PRIMITIVES } from '../../schemas/tools/primitives';
import { defineActor } from '../../src/kernel';
import type { Repository } from '../../src/store/mongo';
import { deployedAgentView, newAgentId, newAgentRef } from './agents.collection';
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
}

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

  return defineActor({
    kind: 'agents',
    messages: {
      'agents.register': AgentsRegisterMessageSchema,
      'agents.create': AgentsCreateMessageSchema,
      'agents.list': AgentsListMessageSchema,
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
        operatorOf(ctx.auth, ctx.id);
        let parent: AgentDocument | null = null;
        if (body.parentAgentRef !== undefined) {
          // Only the operator's own agents: someone else's agentRef is as unknown as a made-up one.
          parent = await agents.findOne({ agentRef: body.parentAgentRef, accountId: ctx.id });
          if (!parent) throw errors.notFound('Parent agent not found', { field: 'parentAgentRef' });
        }
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
            // A subagent starts with its parent's limits; a top-level agent with the defaults.
            allowedDomains: parent ? parent.allowedDomains : [],
            allowedTools: parent ? parent.allowedTools : [...BUILTIN_PRIMITIVES],
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
