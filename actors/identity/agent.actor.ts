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
import { defineActor, type ActivationContext } from '../../src/kernel';
import type { Repository } from '../../src/store/mongo';
import { agentRecord } from './agents.collection';
import { CallCounts } from './call-counts';

/** What the agent actor needs, wired by `actors/registry.ts`. */
export interface AgentActorOptions {
  agents: Repository<AgentDocument>;
  /**
   * Longest time counted calls wait in memory before they are written, in ms (every agent of the
   * process in one write, call-counts.ts). Default 1000.
   */
  flushIntervalMs?: number;
}

interface AgentState {
  doc: AgentDocument;
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
  const { agents } = options;
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
    },
    activate: async (ctx): Promise<AgentState> => ({ doc: await load(ctx) }),
    passivate: async (ctx) => counts.flushAgent(ctx.id),
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
    },
  });
}
