import { z } from 'zod';
import { defineCollection } from '../../src/store/mongo';

/**
 * The social connector's documents (docs/social.md). Ids are UUIDs (the spec's `draftId` and
 * `queueId`); `ownerAccountId` is the operator account that connected the X account, internal.
 */

export const SOCIAL_ACCOUNT_STATUSES = ['connected', 'needs_reconnect'] as const;

/** A connected X account. Its tokens are sealed (social-tokens.ts), never returned or logged. */
export const SocialAccountDocumentSchema = z.object({
  _id: z.uuid(),
  ownerAccountId: z.string(),
  platform: z.literal('x'),
  /** X's user id and handle (`users/me`). */
  externalId: z.string().max(64),
  username: z.string().max(64),
  status: z.enum(SOCIAL_ACCOUNT_STATUSES),
  tokens: z.object({
    access: z.string(),
    refresh: z.string().optional(),
    expiresAt: z.date(),
    scope: z.string().max(500),
  }),
  /** Bumped at every token change (a refresh is a conditional write on it). */
  tokenVersion: z.number().int().nonnegative(),
  connectedAt: z.date(),
  updatedAt: z.date(),
});
export type SocialAccountDocument = z.infer<typeof SocialAccountDocumentSchema>;

/** One authorization in flight: single use (deleted when the callback takes it), ten minutes. */
export const OAuthStateDocumentSchema = z.object({
  /** The `state` sent to X (32 random bytes, base64url). */
  _id: z.string().min(32).max(64),
  ownerAccountId: z.string(),
  /** SHA-256 of what identifies the caller's session (social-oauth.ts): the callback must match it. */
  binding: z.string(),
  /** The PKCE verifier, sealed. */
  verifier: z.string(),
  redirectTo: z.string(),
  expiresAt: z.date(),
});
export type OAuthStateDocument = z.infer<typeof OAuthStateDocumentSchema>;

export const DRAFT_KINDS = ['post', 'reply'] as const;
export const APPROVAL_STATUSES = ['required', 'approved', 'rejected'] as const;
export const GUARDRAIL_STATUSES = ['pass', 'review', 'block'] as const;

export const SocialDraftDocumentSchema = z.object({
  _id: z.uuid(),
  ownerAccountId: z.string(),
  socialAccountId: z.uuid(),
  kind: z.enum(DRAFT_KINDS),
  /** For a reply: the post it answers. */
  inReplyTo: z.string().max(32).optional(),
  text: z.string(),
  approval_status: z.enum(APPROVAL_STATUSES),
  guardrail_status: z.enum(GUARDRAIL_STATUSES),
  guardrail_reasons: z.array(z.string()),
  similarity_score: z.number().min(0).max(1),
  /** Who drafted it: `api` or `agent:<agentRef>` (the `social_draft` tool). */
  createdBy: z.string().max(200),
  decidedAt: z.date().optional(),
  createdAt: z.date(),
  updatedAt: z.date(),
  version: z.number().int().nonnegative(),
});
export type SocialDraftDocument = z.infer<typeof SocialDraftDocumentSchema>;

export const PUBLISH_STATUSES = ['queued', 'published', 'failed', 'canceled'] as const;
export type PublishStatus = (typeof PUBLISH_STATUSES)[number];

/** One approved draft on its way out: the unit the publisher claims, one at a time. */
export const SocialQueueDocumentSchema = z.object({
  _id: z.uuid(),
  ownerAccountId: z.string(),
  /** Where its attempts are recorded as executions, and whose panic stops it. */
  workspaceId: z.string(),
  draftId: z.uuid(),
  socialAccountId: z.uuid(),
  username: z.string(),
  /** The draft's text, copied at approval (what is published, and what similarity compares). */
  text: z.string(),
  inReplyTo: z.string().max(32).optional(),
  publish_status: z.enum(PUBLISH_STATUSES),
  scheduled_for: z.date(),
  /** When the next attempt may run: `scheduled_for`, then later after a transient failure. */
  nextAttemptAt: z.date(),
  attempts: z.number().int().nonnegative(),
  /** The claim of the publisher running it (atomic conditional update): token and its lease. */
  claim: z.object({ token: z.string(), until: z.date() }).optional(),
  postId: z.string().optional(),
  publishedAt: z.date().optional(),
  /** Why the last attempt failed (and, once `failed`, why it gave up). */
  lastError: z.string().max(1000).optional(),
  lastExecutionId: z.string().optional(),
  createdAt: z.date(),
  updatedAt: z.date(),
});
export type SocialQueueDocument = z.infer<typeof SocialQueueDocumentSchema>;

export const socialAccountsCollection = defineCollection({
  name: 'social_accounts',
  schema: SocialAccountDocumentSchema,
  indexes: [
    {
      key: { ownerAccountId: 1, platform: 1, externalId: 1 },
      name: 'owner_platform_user_unique',
      unique: true,
    },
  ],
});

export const oauthStatesCollection = defineCollection({
  name: 'social_oauth_states',
  schema: OAuthStateDocumentSchema,
  indexes: [{ key: { expiresAt: 1 }, name: 'expires_ttl', expireAfterSeconds: 0 }],
});

export const socialDraftsCollection = defineCollection({
  name: 'social_drafts',
  schema: SocialDraftDocumentSchema,
  stateField: 'approval_status',
  indexes: [
    { key: { ownerAccountId: 1, approval_status: 1, createdAt: -1 }, name: 'owner_approval' },
    { key: { socialAccountId: 1, approval_status: 1 }, name: 'account_approval' },
  ],
});

export const socialQueueCollection = defineCollection({
  name: 'social_queue',
  schema: SocialQueueDocumentSchema,
  stateField: 'publish_status',
  indexes: [
    // The publisher's scan: due queued items.
    { key: { publish_status: 1, nextAttemptAt: 1 }, name: 'status_due' },
    { key: { ownerAccountId: 1, publish_status: 1, scheduled_for: 1 }, name: 'owner_status' },
    { key: { socialAccountId: 1, publish_status: 1, publishedAt: -1 }, name: 'account_published' },
    { key: { draftId: 1 }, name: 'draft' },
  ],
});

export const socialCollections = [
  socialAccountsCollection,
  oauthStatesCollection,
  socialDraftsCollection,
  socialQueueCollection,
] as const;
