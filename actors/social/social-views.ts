import type { SocialDraftDocument, SocialQueueDocument } from './social.collection';
import { weightedLength } from './x-text';

/** A draft as the routes and the `social_draft` tool show it (spec: Draft). */
export function draftView(d: SocialDraftDocument) {
  return {
    id: d._id,
    accountId: d.socialAccountId,
    kind: d.kind,
    text: d.text,
    ...(d.inReplyTo ? { inReplyTo: d.inReplyTo } : {}),
    weighted_length: weightedLength(d.text),
    approval_status: d.approval_status,
    guardrail_status: d.guardrail_status,
    guardrail_reasons: d.guardrail_reasons,
    similarity_score: d.similarity_score,
    createdBy: d.createdBy,
    createdAt: d.createdAt.toISOString(),
    decidedAt: d.decidedAt ? d.decidedAt.toISOString() : null,
  };
}
export type DraftView = ReturnType<typeof draftView>;

/** A queue item as `GET /api/x/queue` shows it (spec: Queue item). */
export function queueView(q: SocialQueueDocument) {
  return {
    id: q._id,
    draftId: q.draftId,
    publish_status: q.publish_status,
    scheduled_for: q.scheduled_for.toISOString(),
    account: { id: q.socialAccountId, username: q.username },
    text: q.text,
    attempts: q.attempts,
    nextAttemptAt: q.publish_status === 'queued' ? q.nextAttemptAt.toISOString() : null,
    postId: q.postId ?? null,
    publishedAt: q.publishedAt ? q.publishedAt.toISOString() : null,
    reason: q.lastError ?? null,
    executionId: q.lastExecutionId ?? null,
  };
}
export type QueueView = ReturnType<typeof queueView>;
