import { z } from 'zod';

/** Requests of the optional social connector (docs/social.md). */

/**
 * Where the browser goes after connecting: a path of this service only. Absolute URLs, `//host`,
 * backslashes (browsers read `/\host` as `//host`), schemes, spaces and control characters are
 * refused, so the callback can never become an open redirect.
 */
export const InAppPathSchema = z
  .string()
  .max(2000)
  .refine(
    (p) =>
      p.startsWith('/') &&
      !p.startsWith('//') &&
      !p.includes('\\') &&
      ![...p].some((c) => c.charCodeAt(0) < 0x21 || c.charCodeAt(0) === 0x7f) &&
      !/%(2f|5c)/i.test(p.split(/[?#]/)[0]!) &&
      new URL(p, 'http://in-app.invalid').origin === 'http://in-app.invalid',
    { message: 'must be a path of this service, starting with a single "/" (no scheme, host or backslash)' },
  );

export const ConnectXBodySchema = z.strictObject({
  redirectTo: InAppPathSchema.default('/'),
});
export type ConnectXBody = z.infer<typeof ConnectXBodySchema>;

/** X's redirect back: `state` and `code`, or `error` when the user declined. */
export const XCallbackQuerySchema = z.object({
  state: z.string().min(32).max(64),
  code: z.string().min(1).max(2000).optional(),
  error: z.string().max(200).optional(),
});

export const SocialIdParamsSchema = z.object({ id: z.uuid() });

export const CreateDraftBodySchema = z.strictObject({
  /** The connected X account (`GET /api/x/accounts` id). */
  accountId: z.uuid(),
  /** At most 280 as X counts (URLs 23, emoji and CJK 2): longer texts are drafted and blocked. */
  text: z.string().trim().min(1).max(2000),
  kind: z.enum(['post', 'reply']).default('post'),
  /** A reply's target post id (X ids are decimal). */
  inReplyTo: z
    .string()
    .regex(/^\d{1,19}$/, 'must be an X post id')
    .optional(),
});
export type CreateDraftBody = z.infer<typeof CreateDraftBodySchema>;

export const ApproveDraftBodySchema = z.strictObject({
  /** When to publish (ISO 8601 with offset); absent = now. */
  scheduledFor: z.iso.datetime({ offset: true }).optional(),
});

export const RejectDraftBodySchema = z.strictObject({
  reason: z.string().trim().min(1).max(500).optional(),
});

export const QueueQuerySchema = z.object({
  status: z.enum(['queued', 'published', 'failed', 'canceled']).optional(),
});

export const PublishBodySchema = z
  .strictObject({
    draftId: z.uuid().optional(),
    queueId: z.uuid().optional(),
  })
  .refine((b) => b.draftId !== undefined || b.queueId !== undefined, {
    message: 'give draftId or queueId',
  });
export type PublishBody = z.infer<typeof PublishBodySchema>;
