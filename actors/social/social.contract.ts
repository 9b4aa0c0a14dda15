import { z } from 'zod';
import {
  ApproveDraftBodySchema,
  ConnectXBodySchema,
  CreateDraftBodySchema,
  PublishBodySchema,
  QueueQuerySchema,
  RejectDraftBodySchema,
  SocialIdParamsSchema,
  XCallbackQuerySchema,
} from '../../schemas/http/social';
import { defineContracts } from '../../src/http/openapi/contract';
import { APPROVAL_STATUSES, DRAFT_KINDS, GUARDRAIL_STATUSES, PUBLISH_STATUSES } from './social.collection';

/** A draft (social-views.ts `draftView`): every field the view writes, so clients get it typed. */
const DraftSchema = z.object({
  id: z.string(),
  accountId: z.string(),
  kind: z.enum(DRAFT_KINDS),
  text: z.string(),
  inReplyTo: z.string().optional(),
  weighted_length: z.number().int(),
  approval_status: z.enum(APPROVAL_STATUSES),
  guardrail_status: z.enum(GUARDRAIL_STATUSES),
  guardrail_reasons: z.array(z.string()),
  similarity_score: z.number(),
  createdBy: z.string().describe('`api` or `agent:<agentRef>`'),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});

/** A queue item (social-views.ts `queueView`). */
const QueueItemSchema = z.object({
  id: z.string(),
  draftId: z.string(),
  publish_status: z.enum(PUBLISH_STATUSES),
  scheduled_for: z.string(),
  account: z.object({ id: z.string(), username: z.string() }),
  text: z.string(),
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable().describe('while queued: when the next attempt may run'),
  postId: z.string().nullable(),
  publishedAt: z.string().nullable(),
  reason: z.string().nullable().describe('why the last attempt failed'),
  executionId: z.string().nullable().describe('the last attempt’s SOCIAL_PUBLISH execution'),
});

/** social.route.ts and x-drafts.route.ts (docs/social.md); absent when SOCIAL_ENABLED=false. */
export const socialContracts = defineContracts('Social connector', [
  {
    method: 'get',
    path: '/api/social/platforms',
    summary: 'Platforms, whether their connector is configured, and the caller’s connected accounts',
    auth: 'sb',
    responses: {
      200: z.object({
        platforms: z.array(
          z.looseObject({
            id: z.string(),
            status: z.enum(['live', 'scaffolded']),
            connectorReady: z.boolean(),
            connectedCount: z.number().int(),
          }),
        ),
      }),
    },
  },
  {
    method: 'post',
    path: '/api/x/connect',
    summary: 'Start connecting an X account (OAuth 2.0 with PKCE S256): where to send the browser',
    auth: 'sb',
    body: ConnectXBodySchema,
    bodyExample: { redirectTo: '/settings/social' },
    responses: { 200: z.object({ authorizationUrl: z.string() }) },
    errors: [409],
    idempotent: true,
  },
  {
    method: 'get',
    path: '/api/x/callback',
    summary: 'Where X sends the browser back: exchanges the code, stores the account, redirects',
    auth: 'sb',
    query: XCallbackQuerySchema,
    responses: {
      302: {
        description: 'To the `redirectTo` of the connect call',
        headers: { Location: 'the in-app path' },
      },
    },
    errors: [502],
  },
  {
    method: 'get',
    path: '/api/x/accounts',
    summary: 'The caller’s connected X accounts',
    auth: 'sb',
    responses: {
      200: z.object({
        accounts: z.array(z.looseObject({ id: z.string(), username: z.string(), status: z.string() })),
      }),
    },
  },
  {
    method: 'delete',
    path: '/api/x/accounts/:id',
    summary: 'Disconnect an X account: revoke its tokens at X and remove them',
    auth: 'sb',
    params: SocialIdParamsSchema,
    responses: { 200: z.object({ success: z.boolean(), id: z.string(), revoked: z.boolean() }) },
    errors: [404],
    idempotent: true,
  },
  {
    method: 'get',
    path: '/api/x/drafts',
    summary: 'Drafts awaiting review',
    auth: 'sb',
    responses: { 200: z.object({ drafts: z.array(DraftSchema) }) },
  },
  {
    method: 'post',
    path: '/api/x/drafts',
    summary: 'Draft a post (guardrails run at once)',
    auth: 'sb',
    body: CreateDraftBodySchema,
    responses: { 201: z.object({ draft: DraftSchema }) },
    errors: [404, 409],
    idempotent: true,
  },
  {
    method: 'post',
    path: '/api/x/drafts/:id/approve',
    summary: 'Approve a draft and queue it (guardrails run again; a blocked draft is refused)',
    auth: 'sb',
    params: SocialIdParamsSchema,
    body: ApproveDraftBodySchema,
    responses: { 200: z.looseObject({ draft: DraftSchema, queueItem: QueueItemSchema }) },
    errors: [404, 409],
    idempotent: true,
  },
  {
    method: 'post',
    path: '/api/x/drafts/:id/reject',
    summary: 'Reject a draft',
    auth: 'sb',
    params: SocialIdParamsSchema,
    body: RejectDraftBodySchema,
    responses: { 200: z.object({ draft: DraftSchema }) },
    errors: [404, 409],
    idempotent: true,
  },
  {
    method: 'get',
    path: '/api/x/queue',
    summary: 'The publishing queue',
    auth: 'sb',
    query: QueueQuerySchema,
    responses: { 200: z.object({ queue: z.array(QueueItemSchema) }) },
  },
  {
    method: 'post',
    path: '/api/x/queue/:id/cancel',
    summary: 'Cancel a queued post',
    auth: 'sb',
    params: SocialIdParamsSchema,
    responses: { 200: z.object({ queueItem: QueueItemSchema }) },
    errors: [404, 409],
    idempotent: true,
  },
  {
    method: 'post',
    path: '/api/x/publish',
    summary: 'Publish an approved draft now, or force a queued item',
    auth: 'sb',
    body: PublishBodySchema,
    responses: {
      200: z.looseObject({
        draftId: z.string(),
        queueId: z.string(),
        postId: z.string(),
        publishedAt: z.string(),
      }),
    },
    errors: [404, 409, 502],
    idempotent: true,
  },
]);
