import { z } from 'zod';

/**
 * Inputs of the event primitives `events_publish`, `events_subscribe`, `events_unsubscribe` and
 * `events_list_topics` (docs/tool-router.md, "Events"). Topics are shared by the agents of one
 * operator account (a self-registered agent has topics of its own).
 */

export const EVENTS_LIMITS = Object.freeze({
  maxTopicLength: 200,
  /** JSON text of a payload, in UTF-8 bytes. */
  maxPayloadBytes: 64 * 1024,
  /** Events retained per topic (older ones are dropped as new ones arrive). */
  retainedPerTopic: 100,
  /** How long a retained event (and a subscription) is kept, in seconds. */
  retentionSec: 7 * 24 * 3600,
  /** Topics `events_list_topics` reports. */
  maxListedTopics: 1000,
});

export const EVENT_TOPIC_PATTERN = /^[a-zA-Z0-9_.\-/:]+$/;

export const TopicSchema = z
  .string()
  .min(1)
  .max(EVENTS_LIMITS.maxTopicLength)
  .regex(EVENT_TOPIC_PATTERN, 'topic may only contain letters, digits and _ . - / :')
  .describe('Topic name: letters, digits and _ . - / : (at most 200 characters).');

const utf8Bytes = (s: string) => Buffer.byteLength(s, 'utf8');

export const EventsPublishInputSchema = z.object({
  topic: TopicSchema,
  payload: z
    .unknown()
    .refine((v) => v !== undefined, { message: 'payload is required (any JSON value)' })
    .refine((v) => v === undefined || utf8Bytes(JSON.stringify(v) ?? '') <= EVENTS_LIMITS.maxPayloadBytes, {
      message: `payload must be at most ${EVENTS_LIMITS.maxPayloadBytes} bytes of JSON`,
    })
    .describe('Any JSON value, at most 64 KB of JSON.'),
});

export const EventsSubscribeInputSchema = z.object({
  topic: TopicSchema,
  since: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      'Return only events with a sequence number above this cursor (default 0: every retained event).',
    ),
  limit: z
    .number()
    .int()
    .min(1)
    .max(EVENTS_LIMITS.retainedPerTopic)
    .optional()
    .describe(`Most events returned, the oldest first (default ${EVENTS_LIMITS.retainedPerTopic}).`),
});

export const EventsUnsubscribeInputSchema = z.object({ topic: TopicSchema });
export const EventsListTopicsInputSchema = z.object({});

/** One retained event, as the tools return it. */
export const ToolEventSchema = z.object({
  topic: z.string(),
  /** Position in the topic, from 1, increasing. */
  seq: z.number().int().positive(),
  payload: z.unknown(),
  /** agentRef of the publisher. */
  publishedBy: z.string(),
  publishedAt: z.string(),
});
export type ToolEvent = z.infer<typeof ToolEventSchema>;

/** Broadcast type sent to every node when an event is published (for live delivery). */
export const TOOL_EVENT_BROADCAST = 'tools.eventPublished';

/** Body of `tools.eventPublished`: the topic's scope (internal: an account or agent id) and the event. */
export const ToolEventBroadcastSchema = z.object({ scope: z.string(), event: ToolEventSchema });
export type ToolEventBroadcast = z.infer<typeof ToolEventBroadcastSchema>;
