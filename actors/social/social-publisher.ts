import { randomUUID } from 'node:crypto';
import { isAppError } from '../../schemas/errors';
import type { Logger } from '../../src/logging/logger';
import type { CachePort } from '../../src/store/cache';
import type { Repository } from '../../src/store/mongo';
import type { ExecutionsService } from '../executions/executions';
import { classifyFailure, type AttemptOutcome } from './publish-outcomes';
import { recordPublishAttempt } from './publish-executions';
import type { SocialAccounts } from './social-accounts';
import type { SocialDrafts } from './social-drafts';
import type { SocialAccountDocument, SocialQueueDocument } from './social.collection';
import { XApiError, type XApi } from './x-api';

export { publishFailure, type AttemptOutcome } from './publish-outcomes';

/** Longest one attempt may hold its claim: X's call (15 s), a token refresh, the records. */
const CLAIM_MS = 2 * 60_000;
/** Due items one pass takes at most (the next pass takes the rest). */
const BATCH = 25;

export interface PublisherSettings {
  maxAttempts: number;
  retryBaseMs: number;
}

export interface PublisherDeps {
  queue: Repository<SocialQueueDocument>;
  accounts: Repository<SocialAccountDocument>;
  socialAccounts: SocialAccounts;
  drafts: SocialDrafts;
  x: XApi;
  executions: ExecutionsService;
  cache: CachePort;
  logger: Logger;
  settings: PublisherSettings;
}

/**
 * The social publisher (docs/social.md, "Publishing"). The duty (`social-publisher`, run by its
 * crew's active node and by `POST /api/ops/crew/cron`) takes due queue items; `POST /api/x/publish`
 * forces one. Either way an item is first **claimed** with one atomic conditional update (queued,
 * due unless forced, no live claim) that sets a claim token and lease: of any number of nodes
 * trying, one gets it, so a post is sent once. Every later write is conditional on that token.
 * Transient failures (5xx, network, 429) go back to `queued` with a later `nextAttemptAt`
 * (doubling backoff; X's `x-rate-limit-reset` when later); after the attempt budget, or on a
 * refusal, the item is `failed` with its reason and the owner gets a notification. Each attempt
 * is a `SOCIAL_PUBLISH` execution with logs. A workspace in panic lockdown publishes nothing.
 */
export class SocialPublisher {
  private readonly rateLimits: CachePort;

  constructor(private readonly deps: PublisherDeps) {
    this.rateLimits = deps.cache.namespace('social:rate-limited:');
  }

  /** One pass of the duty: refresh expiring tokens, then publish what is due. Resolves the items handled. */
  async runDue(): Promise<number> {
    await this.deps.socialAccounts.refreshExpiring();
    const now = new Date();
    const due = await this.deps.queue.find(
      { publish_status: 'queued', nextAttemptAt: { $lte: now } },
      { sort: { nextAttemptAt: 1, _id: 1 }, limit: BATCH },
    );
    let handled = 0;
    for (const candidate of due) {
      const claimed = await this.claim(candidate._id, false);
      if (!claimed) continue;
      const outcome = await this.attempt(claimed);
      if (outcome.status !== 'held') handled++;
    }
    return handled;
  }

  /**
   * Takes an item for one attempt: an atomic conditional update that only one caller can win.
   * `force` (POST /api/x/publish) ignores `nextAttemptAt`.
   */
  async claim(id: string, force: boolean): Promise<SocialQueueDocument | null> {
    const now = new Date();
    return this.deps.queue.findOneAndUpdate(
      {
        _id: id,
        publish_status: 'queued',
        ...(force ? {} : { nextAttemptAt: { $lte: now } }),
        $or: [{ claim: { $exists: false } }, { 'claim.until': { $lte: now } }],
      },
      { $set: { claim: { token: randomUUID(), until: new Date(now.getTime() + CLAIM_MS) }, updatedAt: now } },
    );
  }

  /** One attempt at a claimed item, recorded as an execution. */
  async attempt(item: SocialQueueDocument): Promise<AttemptOutcome> {
    const startedAt = new Date();
    const token = item.claim!.token;
    const logs: Array<{ level: 'info' | 'warn' | 'error'; message: string }> = [];
    const log = (level: 'info' | 'warn' | 'error', message: string) => logs.push({ level, message });
    const attemptNo = item.attempts + 1;

    const held = await this.holdReason(item);
    if (held) {
      const released = await this.release(item, token, held.until);
      return { status: 'held', item: released ?? item, reason: held.reason };
    }
    log('info', `Attempt ${attemptNo} of ${this.deps.settings.maxAttempts} to publish to @${item.username}`);

    let failure: { kind: 'retry' | 'fail'; reason: string; code: string; retryAt?: Date } | undefined;
    let postId: string | undefined;
    try {
      const verdict = await this.deps.drafts.guardrailsFor(item.text, item.socialAccountId, 'publish', {
        draftId: item.draftId,
        pending: false,
      });
      log(
        'info',
        `Guardrails before publishing: ${verdict.guardrail_status} (similarity ${verdict.similarity_score})`,
      );
      if (verdict.guardrail_status === 'block') {
        failure = {
          kind: 'fail',
          code: 'GUARDRAILS',
          reason: `guardrails: ${verdict.guardrail_reasons.join('; ')}`,
        };
      } else {
        const account = await this.deps.accounts.findById(item.socialAccountId);
        if (!account) throw new XApiError('unauthorized', 'the X account was disconnected');
        const accessToken = await this.deps.socialAccounts.accessToken(account);
        log('info', 'Sending the post to X');
        postId = (await this.deps.x.post(accessToken, { text: item.text, inReplyTo: item.inReplyTo })).id;
        log('info', `X accepted the post: ${postId}`);
      }
    } catch (err) {
      failure = classifyFailure(err, attemptNo, this.deps.settings.retryBaseMs);
      log(failure.kind === 'retry' ? 'warn' : 'error', failure.reason);
      if (err instanceof XApiError && err.kind === 'rate_limited' && failure.retryAt) {
        // Every post of this account waits for X's reset, not only this one.
        await this.rateLimits
          .set(item.socialAccountId, String(failure.retryAt.getTime()), {
            ttlMs: Math.max(1000, failure.retryAt.getTime() - Date.now()),
          })
          .catch(() => undefined);
      }
    }

    const now = new Date();
    const title = `Publish to @${item.username}: ${item.text.slice(0, 60)}`;
    if (!failure) {
      // Marked published first: whatever fails after this, the post is never sent again.
      const publishedAt = now;
      const done = await this.finish(item, token, {
        $set: { publish_status: 'published', postId, publishedAt, attempts: attemptNo, updatedAt: now },
        $unset: { claim: '', lastError: '' },
      });
      const executionId = await this.record(item, title, logs, startedAt, undefined, {
        postId: postId!,
        publishedAt: publishedAt.toISOString(),
      });
      await this.deps.queue.updateOne({ _id: item._id }, { $set: { lastExecutionId: executionId } });
      const published = done ?? { ...item, publish_status: 'published' as const, postId, publishedAt };
      return { status: 'published', item: { ...published, lastExecutionId: executionId } };
    }
    const giveUp = failure.kind === 'fail' || attemptNo >= this.deps.settings.maxAttempts;
    if (giveUp && failure.kind === 'retry') {
      log('error', `Giving up after ${attemptNo} attempts`);
    } else if (!giveUp) {
      log('info', `Will retry at ${failure.retryAt!.toISOString()}`);
    }
    const reason =
      giveUp && failure.kind === 'retry'
        ? `${failure.reason} (gave up after ${attemptNo} attempts)`
        : failure.reason;
    const executionId = await this.record(item, title, logs, startedAt, {
      code: failure.code,
      message: reason,
    });
    if (!giveUp) {
      const next = await this.finish(item, token, {
        $set: {
          attempts: attemptNo,
          nextAttemptAt: failure.retryAt!,
          lastError: reason,
          lastExecutionId: executionId,
          updatedAt: now,
        },
        $unset: { claim: '' },
      });
      return { status: 'retrying', item: next ?? item, reason };
    }
    const failed = await this.finish(item, token, {
      $set: {
        publish_status: 'failed',
        attempts: attemptNo,
        lastError: reason,
        lastExecutionId: executionId,
        updatedAt: now,
      },
      $unset: { claim: '' },
    });
    await this.deps.executions.notifications
      .create(item.ownerAccountId, {
        type: 'task',
        title: `A post to @${item.username} failed`,
        body: reason,
        executionId,
        workspaceId: item.workspaceId,
      })
      .catch((err: unknown) =>
        this.deps.logger.warn({ err }, 'social: the failure notification was not written'),
      );
    this.deps.logger.warn({ queueId: item._id, reason }, 'social: post failed');
    return { status: 'failed', item: failed ?? item, reason };
  }

  /** Why the item may not be attempted now: panic lockdown, or X's rate limit for this account. */
  private async holdReason(item: SocialQueueDocument): Promise<{ reason: string; until?: Date } | undefined> {
    try {
      await this.deps.executions.assertNotLockedDown(item.workspaceId);
    } catch (err) {
      if (isAppError(err) && err.code === 'PERMISSION_DENIED')
        return { reason: 'the workspace is in panic lockdown' };
      throw err;
    }
    const until = Number(await this.rateLimits.get(item.socialAccountId).catch(() => null));
    if (until > Date.now()) return { reason: 'X rate limit for this account', until: new Date(until) };
    return undefined;
  }

  /** Gives a claim back without an attempt (held); a rate limit moves the item to X's reset. */
  private release(item: SocialQueueDocument, token: string, until?: Date) {
    return this.finish(item, token, {
      $set: { updatedAt: new Date(), ...(until ? { nextAttemptAt: until } : {}) },
      $unset: { claim: '' },
    });
  }

  /** A write under this attempt's claim: lost if another node took the item after our lease lapsed. */
  private async finish(item: SocialQueueDocument, token: string, update: Record<string, unknown>) {
    const doc = await this.deps.queue.findOneAndUpdate({ _id: item._id, 'claim.token': token }, update);
    if (!doc)
      this.deps.logger.warn(
        { queueId: item._id },
        'social: the claim lapsed before the attempt was recorded',
      );
    return doc;
  }

  private record(
    item: SocialQueueDocument,
    title: string,
    logs: Array<{ level: 'info' | 'warn' | 'error'; message: string }>,
    startedAt: Date,
    failure?: { code: string; message: string },
    result?: Record<string, unknown>,
  ): Promise<string> {
    return recordPublishAttempt(this.deps.executions, {
      ownerAccountId: item.ownerAccountId,
      workspaceId: item.workspaceId,
      title,
      logs,
      startedAt,
      ...(failure ? { failure } : {}),
      ...(result ? { result } : {}),
    });
  }
}
