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

/** What the agent actor needs, wired by `actors/registry.ts`. */
export interface AgentActorOptions {
  agents: Repository<AgentDocument>;
  /** Longest time counted calls wait in memory before they are written, in ms. Default 1000. */
  flushIntervalMs?: number;
  /** Counted calls that trigger a write at once. Default 100. */
  flushBatch?: number;
}

interface AgentState {
  doc: AgentDocument;
  /** Calls counted since the last write. */
  pendingCalls: number;
  /** Latest call time (epoch ms) since the last write. */
  pendingLastActiveAt: number | null;
  flushTimer: NodeJS.Timeout | undefined;
}

const DEFAULT_FLUSH_INTERVAL_MS = 1000;
const DEFAULT_FLUSH_BATCH = 100;

/**
 * One agent, `agent:<internal id>`, self-registered or deployed. Its state is its document.
 *
 * `agent.recordCall` is on the tool router's hot path (every `/mcp` call): it only counts in
 * memory, and the counts are written as one `$inc` of `totalCalls` with a `$max` of
 * `lastActiveAt` per agent at most once per `flushIntervalMs` (or every `flushBatch` calls, and at
 * passivation). Both operators commute, so writes from several nodes holding the same agent add
 * up without a version check (and never conflict with versioned changes of the document). A
 * crash loses at most the last interval's counts: they are usage statistics, not billing.
 */
export function agentActor(options: AgentActorOptions) {
  const { agents } = options;
  const flushIntervalMs = options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS;
  const flushBatch = options.flushBatch ?? DEFAULT_FLUSH_BATCH;

  async function load(ctx: ActivationContext): Promise<AgentDocument> {
    const doc = await agents.findById(ctx.id);
    if (!doc) throw errors.notFound('No agent registration for this token');
    return doc;
  }

  async function flush(state: AgentState): Promise<void> {
    if (state.flushTimer) clearTimeout(state.flushTimer);
    state.flushTimer = undefined;
    const calls = state.pendingCalls;
    const at = state.pendingLastActiveAt;
    if (calls === 0 || at === null) return;
    state.pendingCalls = 0;
    state.pendingLastActiveAt = null;
    try {
      await agents.updateOne(
        { _id: state.doc._id },
        { $inc: { totalCalls: calls }, $max: { lastActiveAt: new Date(at) } },
      );
    } catch (err) {
      // Put the counts back: the retry of this message (or the next flush) writes them.
      state.pendingCalls += calls;
      state.pendingLastActiveAt = Math.max(state.pendingLastActiveAt ?? 0, at);
      throw err;
    }
    state.doc = {
      ...state.doc,
      totalCalls: state.doc.totalCalls + calls,
      lastActiveAt: new Date(Math.max(state.doc.lastActiveAt?.getTime() ?? 0, at)),
    };
  }

  const pending = (state: AgentState) => ({
    calls: state.pendingCalls,
    lastActiveAt: state.pendingLastActiveAt,
  });

  return defineActor({
    kind: 'agent',
    messages: {
      'agent.get': AgentGetMessageSchema,
      'agent.policy': AgentPolicyMessageSchema,
      'agent.recordCall': AgentRecordCallMessageSchema,
      'agent.flush': AgentFlushMessageSchema,
    },
    activate: async (ctx): Promise<AgentState> => ({
      doc: await load(ctx),
      pendingCalls: 0,
      pendingLastActiveAt: null,
      flushTimer: undefined,
    }),
    passivate: async (_ctx, state) => flush(state),
    handlers: {
      'agent.get': async (ctx): Promise<AgentRecord> => {
        // Re-read: another node may have written counts or changed the agent since activation.
        ctx.state.doc = await load(ctx);
        return agentRecord(ctx.state.doc, pending(ctx.state));
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

      'agent.recordCall': async (ctx, { at, calls }): Promise<void> => {
        const state = ctx.state;
        state.pendingCalls += calls;
        state.pendingLastActiveAt = Math.max(state.pendingLastActiveAt ?? 0, at ?? Date.now());
        if (state.pendingCalls >= flushBatch) {
          await flush(state);
        } else if (!state.flushTimer) {
          // The write happens in a turn of its own (a message to self), never concurrently with one.
          state.flushTimer = setTimeout(() => {
            state.flushTimer = undefined;
            ctx.self.tell('agent.flush', {}).catch((err: unknown) => {
              ctx.logger.warn({ err }, 'agent: could not schedule the flush of counted calls');
            });
          }, flushIntervalMs);
          state.flushTimer.unref();
        }
      },

      'agent.flush': (ctx) => flush(ctx.state),
    },
  });
}
