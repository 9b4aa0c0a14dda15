import { z } from 'zod';

/**
 * The envelope: every message between the front door and the actors, and between nodes.
 * `type` is `<domain>.<verb>` for commands (`execution.pause`) and past tense for events.
 * `to` is an actor address `kind:id` (for example `execution:exe_123`); `kind` picks the queue.
 */
export const ActorAddressSchema = z
  .string()
  .regex(/^[a-z][a-z0-9-]*:[^\s]{1,200}$/, 'an actor address is "kind:id"');

export const EnvelopeAuthSchema = z
  .object({
    accountId: z.string().optional(),
    agentId: z.string().optional(),
    scopes: z.array(z.string()).optional(),
  })
  .passthrough();

export const EnvelopeSchema = z.object({
  v: z.literal(1),
  /** Unique id; duplicates of the same id are handled once. */
  id: z.string().min(1).max(200),
  type: z.string().regex(/^[a-z][a-zA-Z0-9_-]*(\.[a-zA-Z0-9_-]+)+$/, 'type is "<domain>.<verb>"'),
  to: z.string().min(1).max(256),
  from: z.string().max(256).optional(),
  /** For replies and stream items: the id of the request they answer. */
  correlationId: z.string().max(200).optional(),
  /** Node id whose reply queue receives replies; absent for fire-and-forget commands. */
  replyTo: z.string().max(200).optional(),
  /** Epoch milliseconds after which the work is abandoned. */
  deadline: z.number().int().nonnegative(),
  /** 1 on first delivery; incremented when the kernel retries a transient failure. */
  attempt: z.number().int().positive(),
  auth: EnvelopeAuthSchema.optional(),
  /**
   * The W3C trace context of the span that sent it (`00-<trace>-<span>-<flags>`), present only
   * when tracing is on (docs/operations.md, "Traces"): the receiving turn's span is its child.
   */
  traceparent: z.string().max(128).optional(),
  body: z.unknown(),
});

export type Envelope = z.infer<typeof EnvelopeSchema>;

/**
 * Reply envelopes reuse the envelope and carry in `body` one of these. A request gets exactly one
 * `reply` or `error`; a stream gets numbered `next` items closed by `complete` or `error`.
 */
export const ReplyBodySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('reply'), value: z.unknown() }),
  z.object({ kind: z.literal('next'), seq: z.number().int().nonnegative(), value: z.unknown() }),
  z.object({ kind: z.literal('complete'), seq: z.number().int().nonnegative() }),
  z.object({
    kind: z.literal('error'),
    error: z.object({ error: z.string(), code: z.string() }).passthrough(),
  }),
]);

export type ReplyBody = z.infer<typeof ReplyBodySchema>;
