import {
  EVENTS_LIMITS,
  EventsListTopicsInputSchema,
  EventsPublishInputSchema,
  EventsSubscribeInputSchema,
  EventsUnsubscribeInputSchema,
  TOOL_EVENT_BROADCAST,
  type ToolEvent,
  type ToolEventBroadcast,
} from '../../../schemas/tools/events';
import type { CachePort } from '../../../src/store/cache';
import { defineTool, type ToolContext } from '../router/tool-declaration';

/**
 * The event primitives: publish/subscribe between the agents of one operator account (a
 * self-registered agent, which has no account, has topics of its own).
 *
 * Tools are request/response, so delivery is by polling: each topic keeps its last 100 events
 * (7 days) in the cache, numbered from 1; `events_subscribe` records the subscription and returns
 * the retained events after the caller's cursor (`since`) with the new cursor, and calling it
 * again with that cursor is the poll. Every publish is also broadcast to every node
 * (`tools.eventPublished`) for live delivery (SSE, webhooks) built on top later.
 *
 * Cache layout (scope = the account id, or the agent id without an account):
 * `tools:events:<scope>:seq:<topic>` the topic's last sequence number,
 * `tools:events:<scope>:event:<topic>#<seq>` one event (JSON), and
 * `tools:events-subs:<agent id>:<topic>` the agent's subscriptions.
 */

const RETENTION_MS = EVENTS_LIMITS.retentionSec * 1000;

/** Internal: whose topics the calling agent shares. */
const scopeOf = (ctx: ToolContext): string => ctx.agent.accountId ?? ctx.agent.id;
const topicsOf = (ctx: ToolContext): CachePort =>
  ctx.services.cache.namespace(`tools:events:${scopeOf(ctx)}:`);
const subscriptionsOf = (ctx: ToolContext): CachePort =>
  ctx.services.cache.namespace(`tools:events-subs:${ctx.agent.id}:`);

const seqKey = (topic: string) => `seq:${topic}`;
const eventKey = (topic: string, seq: number) => `event:${topic}#${seq}`;

async function lastSeqOf(topics: CachePort, topic: string): Promise<number> {
  const raw = await topics.get(seqKey(topic));
  const n = raw === null ? 0 : Number(raw);
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}

export const eventsPublishTool = defineTool({
  name: 'events_publish',
  description:
    'Publishes a JSON payload on a topic shared by the agents of your account. Each topic keeps its last 100 events for 7 days. Returns {published: true, topic, seq, publishedAt}.',
  input: EventsPublishInputSchema,
  mutating: true,
  run: async ({ topic, payload }, ctx) => {
    const topics = topicsOf(ctx);
    const seq = await topics.incr(seqKey(topic), 1, { ttlMs: RETENTION_MS });
    const event: ToolEvent = {
      topic,
      seq,
      payload,
      publishedBy: ctx.agent.agentRef,
      publishedAt: new Date().toISOString(),
    };
    const dropped = seq - EVENTS_LIMITS.retainedPerTopic;
    await Promise.all([
      topics.set(eventKey(topic, seq), JSON.stringify(event), { ttlMs: RETENTION_MS }),
      // A busy topic lives on; an idle one goes away with its last events.
      topics.expire(seqKey(topic), RETENTION_MS),
      dropped > 0 ? topics.delete(eventKey(topic, dropped)) : undefined,
    ]);
    const broadcast: ToolEventBroadcast = { scope: scopeOf(ctx), event };
    ctx.services.system.broadcast(TOOL_EVENT_BROADCAST, broadcast).catch((err: unknown) => {
      ctx.logger.warn({ err }, 'events_publish: broadcast failed (the event is retained)');
    });
    return { published: true, topic, seq, publishedAt: event.publishedAt };
  },
});

export const eventsSubscribeTool = defineTool({
  name: 'events_subscribe',
  description:
    'Subscribes to a topic and returns its retained events after the cursor `since` (oldest first). Call it again with the returned cursor to poll for new events. Returns {topic, subscribed: true, events: [{topic, seq, payload, publishedBy, publishedAt}], cursor, more, missed}.',
  input: EventsSubscribeInputSchema,
  mutating: true,
  run: async ({ topic, since, limit }, ctx) => {
    const topics = topicsOf(ctx);
    const [last] = await Promise.all([
      lastSeqOf(topics, topic),
      subscriptionsOf(ctx).set(topic, '1', { ttlMs: RETENTION_MS }),
    ]);
    const after = Math.min(since ?? 0, last);
    const oldestKept = Math.max(1, last - EVENTS_LIMITS.retainedPerTopic + 1);
    const from = Math.max(after + 1, oldestKept);
    const to = Math.min(last, from + (limit ?? EVENTS_LIMITS.retainedPerTopic) - 1);
    const events: ToolEvent[] = [];
    let cursor = after;
    if (to >= from) {
      const seqs = Array.from({ length: to - from + 1 }, (_, i) => from + i);
      const raws = await topics.mget(seqs.map((seq) => eventKey(topic, seq)));
      for (let i = 0; i < seqs.length; i++) {
        const raw = raws[i];
        if (raw === null) {
          // One of the newest two may still be being written by its publisher: stop before it
          // (the next poll gets it). Older holes are events that expired or were evicted.
          if (seqs[i] > last - 2) break;
          cursor = seqs[i];
          continue;
        }
        events.push(JSON.parse(raw) as ToolEvent);
        cursor = seqs[i];
      }
    }
    return { topic, subscribed: true, events, cursor, more: cursor < last, missed: after + 1 < oldestKept };
  },
});

export const eventsUnsubscribeTool = defineTool({
  name: 'events_unsubscribe',
  description:
    'Removes your subscription to a topic. Returns {unsubscribed: boolean} (false when you were not subscribed).',
  input: EventsUnsubscribeInputSchema,
  mutating: true,
  run: async ({ topic }, ctx) => ({ unsubscribed: await subscriptionsOf(ctx).delete(topic) }),
});

export const eventsListTopicsTool = defineTool({
  name: 'events_list_topics',
  description:
    'Lists the topics of your account that have retained events, and those you subscribe to. Returns {topics: [{topic, lastSeq, subscribed}]} sorted by topic.',
  input: EventsListTopicsInputSchema,
  mutating: false,
  run: async (_input, ctx) => {
    const topics = topicsOf(ctx);
    const max = EVENTS_LIMITS.maxListedTopics;
    const [seqKeys, subscribed] = await Promise.all([
      topics.list('seq:', { limit: max }),
      subscriptionsOf(ctx).list('', { limit: max }),
    ]);
    const lastSeqs = seqKeys.length > 0 ? await topics.mget(seqKeys) : [];
    const byTopic = new Map<string, { topic: string; lastSeq: number; subscribed: boolean }>();
    seqKeys.forEach((key, i) => {
      const topic = key.slice('seq:'.length);
      byTopic.set(topic, { topic, lastSeq: Number(lastSeqs[i] ?? 0) || 0, subscribed: false });
    });
    for (const topic of subscribed) {
      const entry = byTopic.get(topic);
      if (entry) entry.subscribed = true;
      else byTopic.set(topic, { topic, lastSeq: 0, subscribed: true });
    }
    const list = [...byTopic.values()].sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : 0));
    return { topics: list.slice(0, max) };
  },
});

/** The event primitives, for the list in actors/tools/platform-tools.ts. */
export const eventsTools = [
  eventsPublishTool,
  eventsSubscribeTool,
  eventsUnsubscribeTool,
  eventsListTopicsTool,
] as const;
