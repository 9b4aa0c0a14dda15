import type { AgentDocument } from '../../schemas/documents/agent';
import { errors } from '../../schemas/errors';
import {
  AgentFlushMessageSchema,
  AgentGetMessageSchema,
  AgentPolicyMessageSchema,
  AgentRecordCallMessageSchema,
  type AgentPolicy,
  type AgentRecord,
} from '../../schemas/messages/agents';
import {
  AgentInvokeToolMessageSchema,
  AgentListToolsMessageSchema,
  type AgentInvokeToolCall,
} from '../../schemas/messages/tools';
import { isAppError } from '../../schemas/errors';
import { defineActor, type ActivationContext, type ActorContext } from '../../src/kernel';
import type { Repository } from '../../src/store/mongo';
import { agentRecord } from './agents.collection';
import { CallCounts } from './call-counts';

/** The agent actor's state: its document (loaded at activation, replaced when reloaded). */
export interface AgentState {
  doc: AgentDocument;
}

/**
 * The tool router's side of the agent (actors/tools/router/agent-tools.ts): the handlers of
 * `agent.invokeTool` and `agent.listTools`, and the hooks they need on the agent's life cycle.
 */
export interface AgentToolHandlers {
  /**
   * `agent.invokeTool`: authorises in the turn, counts the call with `countCall` (this actor's
   * in-memory counts), and runs the tool outside the turn (`ctx.defer`).
   */
  invokeTool(
    ctx: ActorContext<AgentState>,
    body: AgentInvokeToolCall,
    countCall: () => void,
  ): Promise<unknown>;
  /** `agent.listTools`: the connector tools this agent may call (`AgentListToolsReply`, deferred). */
  listTools(ctx: ActorContext<AgentState>): Promise<unknown>;
  /** An agent with no document yet: true when it was created (an account's default agent), so load again. */
  createMissing(agentId: string): Promise<boolean>;
  /** The agent became active on this node, or stopped being (stale-marking on `agent.changed`). */
  activated(agentId: string, state: AgentState): void;
  passivated(agentId: string, state: AgentState): void;
}

/** What the agent actor needs, wired by `actors/registry.ts`. */
export interface AgentActorOptions {
  agents: Repository<AgentDocument>;
  /** The tool router's handlers; without them, tool calls to this actor answer UNAVAILABLE. */
  tools?: AgentToolHandlers;
  /**
   * Longest time counted calls wait in memory before they are written, in ms (every agent of the
   * process in one write, call-counts.ts). Default 1000.
   */
  flushIntervalMs?: number;
}

const DEFAULT_FLUSH_INTERVAL_MS = 1000;

/**
 * One agent, `agent:<internal id>`, self-registered or deployed. Its state is its document.
 *
 * `agent.recordCall` is on the tool router's hot path (every `/mcp` call): it only counts in
 * memory; the counts of every agent of the process are written together, one `bulkWrite` of a
 * `$inc` of `totalCalls` with a `$max` of `lastActiveAt` per agent at most once per
 * `flushIntervalMs` (call-counts.ts), and an agent's own counts at passivation and before
 * `agent.get` answers. Both operators commute, so writes from several nodes holding the same
 * agent add up without a version check (and never conflict with versioned changes of the
 * document). A crash loses at most the last interval's counts: they are usage statistics, not
 * billing.
 */
export function agentActor(options: AgentActorOptions) {
  const { agents, tools } = options;
  const counts = new CallCounts(agents, options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS);

  async function load(ctx: ActivationContext): Promise<AgentDocument> {
    const doc = await agents.findById(ctx.id);
    if (!doc) throw errors.notFound('No agent registration for this token');
    return doc;
  }

  return defineActor({
    kind: 'agent',
    // A tool call that meets an unavailable dependency (the cache down, a database refusing) is
    // retried only briefly (backoff ceilings 50 + 100 + 200 ms): it absorbs a blip, and an outage
    // answers 503 UNAVAILABLE within a second instead of after the default ten attempts (~6 s),
    // so the agent can decide what to do.
    supervision: { maxAttempts: 4 },
    messages: {
      'agent.get': AgentGetMessageSchema,
      'agent.policy': AgentPolicyMessageSchema,
      'agent.recordCall': AgentRecordCallMessageSchema,
      'agent.flush': AgentFlushMessageSchema,
      'agent.invokeTool': AgentInvokeToolMessageSchema,
      'agent.listTools': AgentListToolsMessageSchema,
    },
    activate: async (ctx): Promise<AgentState> => {
      let state: AgentState;
      try {
        state = { doc: await load(ctx) };
      } catch (err) {
        // An account's default agent is created on its first call (the tool router knows how).
        if (!tools || !isAppError(err) || err.code !== 'NOT_FOUND' || !(await tools.createMissing(ctx.id)))
          throw err;
        state = { doc: await load(ctx) };
      }
      tools?.activated(ctx.id, state);
      return state;
    },
    passivate: async (ctx, state: AgentState) => {
      tools?.passivated(ctx.id, state);
      await counts.flushAgent(ctx.id);
    },
    handlers: {
      'agent.get': async (ctx): Promise<AgentRecord> => {
        // Its counts written first, then re-read: another node may have written counts or changed
        // the agent since activation. No call of this agent is counted during this turn. A failed
        // write keeps the counts, which are then answered as pending.
        await counts.flushAgent(ctx.id).catch(() => undefined);
        ctx.state.doc = await load(ctx);
        return agentRecord(ctx.state.doc, counts.pending(ctx.id));
      },

      'agent.policy': (ctx): AgentPolicy => {
        const { doc } = ctx.state;
        return {
          agentRef: doc.agentRef,
          ...(doc.accountId ? { accountId: doc.accountId } : {}),
          ...(doc.workspaceId ? { workspaceId: doc.workspaceId } : {}),
          status: doc.status,
          isSubagent: doc.isSubagent,
          allowedDomains: doc.allowedDomains,
          allowedTools: doc.allowedTools,
        };
      },

      'agent.recordCall': (ctx, { at, calls }): void => {
        counts.add(ctx.id, calls, at ?? Date.now(), ctx.logger);
      },

      'agent.flush': (ctx) => counts.flushAgent(ctx.id),

      'agent.invokeTool': (ctx, body) => {
        if (!tools) throw errors.unavailable('Tool calls are not served on this node');
        return tools.invokeTool(ctx, body, () => counts.add(ctx.id, 1, Date.now(), ctx.logger));
      },

      'agent.listTools': (ctx) => (tools ? tools.listTools(ctx) : { tools: [] }),
    },
  });
}
