import { AppError, errors, isAppError } from '../../schemas/errors';
import type { SocialQueueDocument } from './social.collection';
import { XApiError } from './x-api';

/** Longest wait between two attempts after transient failures. */
const MAX_BACKOFF_MS = 15 * 60_000;

/** How one attempt ended. */
export type AttemptOutcome =
  | { status: 'published'; item: SocialQueueDocument }
  | { status: 'retrying'; item: SocialQueueDocument; reason: string }
  | { status: 'failed'; item: SocialQueueDocument; reason: string }
  /** Not attempted: the workspace is in panic lockdown, or X's rate limit for the account is still on. */
  | { status: 'held'; item: SocialQueueDocument; reason: string };

/**
 * Whether a failed attempt is tried again (and when) or fails the item: X's transient answers and
 * rate limits, and retryable errors of our own, retry; a refusal or anything else fails.
 */
export function classifyFailure(
  err: unknown,
  attemptNo: number,
  retryBaseMs: number,
): { kind: 'retry' | 'fail'; reason: string; code: string; retryAt?: Date } {
  if (err instanceof XApiError) {
    if (err.kind === 'transient' || err.kind === 'rate_limited') {
      const backoff = backoffMs(attemptNo, retryBaseMs);
      const at = Date.now() + backoff;
      const retryAt = new Date(Math.max(at, err.resetAt?.getTime() ?? 0));
      return {
        kind: 'retry',
        reason: err.message,
        code: err.kind === 'rate_limited' ? 'RATE_LIMITED' : 'UNAVAILABLE',
        retryAt,
      };
    }
    return {
      kind: 'fail',
      reason: err.message,
      code: err.kind === 'unauthorized' ? 'UNAUTHORIZED' : 'REJECTED',
    };
  }
  if (isAppError(err) && err.retryable) {
    return {
      kind: 'retry',
      reason: err.message,
      code: err.code,
      retryAt: new Date(Date.now() + backoffMs(attemptNo, retryBaseMs)),
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { kind: 'fail', reason: message, code: isAppError(err) ? err.code : 'INTERNAL_ERROR' };
}

/** Doubling from SOCIAL_RETRY_BASE_MS, at most 15 min, with "equal jitter" (half fixed, half random). */
export function backoffMs(attemptNo: number, retryBaseMs: number): number {
  const full = Math.min(MAX_BACKOFF_MS, retryBaseMs * 2 ** (attemptNo - 1));
  return Math.round(full / 2 + Math.random() * (full / 2));
}

/** The error a forced publish answers when its attempt did not publish. */
export function publishFailure(outcome: Exclude<AttemptOutcome, { status: 'published' }>): AppError {
  const details = {
    queueId: outcome.item._id,
    draftId: outcome.item.draftId,
    publish_status: outcome.item.publish_status,
    reason: outcome.reason,
  };
  if (outcome.status === 'held') {
    return outcome.reason.includes('panic')
      ? errors.forbidden(`Not published: ${outcome.reason}`, details)
      : errors.rateLimited(`Not published: ${outcome.reason}`, 60);
  }
  if (outcome.status === 'retrying') {
    return errors.unavailable(`Not published yet: ${outcome.reason}`, {
      ...details,
      nextAttemptAt: outcome.item.nextAttemptAt.toISOString(),
    });
  }
  return errors.conflict(`Publishing failed: ${outcome.reason}`, details);
}
