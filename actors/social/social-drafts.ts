import { randomUUID } from 'node:crypto';
import { errors } from '../../schemas/errors';
import type { Repository } from '../../src/store/mongo';
import { checkGuardrails, type GuardrailPolicy, type GuardrailVerdict } from './guardrails';
import type { SocialAccounts } from './social-accounts';
import type { SocialDraftDocument, SocialQueueDocument } from './social.collection';
import { draftView, queueView, type DraftView, type QueueView } from './social-views';

/** How far back published posts count for similarity. */
const RECENT_MS = 30 * 24 * 3600_000;
const RECENT_LIMIT = 100;

export interface NewDraft {
  accountId: string;
  text: string;
  kind: SocialDraftDocument['kind'];
  inReplyTo?: string;
}

export interface SocialDraftsDeps {
  drafts: Repository<SocialDraftDocument>;
  queue: Repository<SocialQueueDocument>;
  accounts: SocialAccounts;
  policy: GuardrailPolicy;
  /** The owner's default workspace (where publish attempts are recorded, and whose panic stops them). */
  workspaceOf(ownerAccountId: string): Promise<string>;
}

const startOfUtcDay = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));

/**
 * Drafts and the queue (docs/social.md): drafting with guardrails, review (approve, reject),
 * queueing for `scheduled_for`, cancel. Each change is one conditional write (on the draft's
 * `approval_status` and `version`, on the queue item's `publish_status` and claim), so two
 * racing requests never both succeed.
 */
export class SocialDrafts {
  constructor(private readonly deps: SocialDraftsDeps) {}

  /**
   * What a text is compared with: the account's posts published in the last 30 days and its queued
   * posts (the draft itself and its own queue item excluded), and the drafts awaiting review
   * that were written before it (`before`): of two near-copies the later one is flagged, and the
   * earlier one can still be approved. Publication leaves drafts out (`pending: false`).
   */
  async guardrailsFor(
    text: string,
    socialAccountId: string,
    stage: 'draft' | 'publish',
    exclude: { draftId?: string; pending?: boolean; before?: Date } = {},
  ): Promise<GuardrailVerdict> {
    const now = new Date();
    const notSelf = exclude.draftId ? { draftId: { $ne: exclude.draftId } } : {};
    const [published, queued, pending] = await Promise.all([
      this.deps.queue.find(
        {
          socialAccountId,
          publish_status: 'published',
          publishedAt: { $gte: new Date(now.getTime() - RECENT_MS) },
          ...notSelf,
        },
        { sort: { publishedAt: -1 }, limit: RECENT_LIMIT },
      ),
      this.deps.queue.find(
        { socialAccountId, publish_status: 'queued', ...notSelf },
        { limit: RECENT_LIMIT },
      ),
      exclude.pending === false
        ? Promise.resolve([])
        : this.deps.drafts.find(
            {
              socialAccountId,
              approval_status: 'required',
              ...(exclude.draftId ? { _id: { $ne: exclude.draftId } } : {}),
              ...(exclude.before ? { createdAt: { $lt: exclude.before } } : {}),
            },
            { sort: { createdAt: -1 }, limit: RECENT_LIMIT },
          ),
    ]);
    const dayStart = startOfUtcDay(now);
    const dayEnd = new Date(dayStart.getTime() + 24 * 3600_000);
    const publishedToday = published.filter((p) => p.publishedAt! >= dayStart).length;
    const queuedToday = queued.filter((q) => q.scheduled_for < dayEnd).length;
    return checkGuardrails(
      text,
      {
        recentTexts: [...published, ...queued, ...pending].map((d) => d.text),
        postsToday: stage === 'publish' ? publishedToday : publishedToday + queuedToday,
        stage,
      },
      this.deps.policy,
    );
  }

  async create(ownerAccountId: string, input: NewDraft, createdBy: string): Promise<DraftView> {
    const account = await this.deps.accounts.get(ownerAccountId, input.accountId);
    if (input.kind === 'reply' && !input.inReplyTo) {
      throw errors.validation('A reply needs inReplyTo (the id of the post it answers)');
    }
    const verdict = await this.guardrailsFor(input.text, account._id, 'draft');
    const now = new Date();
    const doc = await this.deps.drafts.insert({
      _id: randomUUID(),
      ownerAccountId,
      socialAccountId: account._id,
      kind: input.kind,
      ...(input.kind === 'reply' && input.inReplyTo ? { inReplyTo: input.inReplyTo } : {}),
      text: input.text,
      approval_status: 'required',
      guardrail_status: verdict.guardrail_status,
      guardrail_reasons: verdict.guardrail_reasons,
      similarity_score: verdict.similarity_score,
      createdBy,
      createdAt: now,
      updatedAt: now,
      version: 0,
    });
    return draftView(doc);
  }

  /** Drafts awaiting review, newest first. */
  async pending(ownerAccountId: string): Promise<DraftView[]> {
    const docs = await this.deps.drafts.find(
      { ownerAccountId, approval_status: 'required' },
      { sort: { createdAt: -1, _id: 1 }, limit: 200 },
    );
    return docs.map(draftView);
  }

  async draft(ownerAccountId: string, draftId: string): Promise<SocialDraftDocument> {
    const doc = await this.deps.drafts.findOne({ _id: draftId, ownerAccountId });
    if (!doc) throw errors.notFound('Draft not found');
    return doc;
  }

  /**
   * Approves a draft and queues it for `scheduledFor` (default now). The guardrails run again
   * first (posts published or queued since may have changed the answer); a `block` refuses the
   * approval (409) with its reasons. A `review` is what approval is for.
   */
  async approve(
    ownerAccountId: string,
    draftId: string,
    scheduledFor: Date | undefined,
  ): Promise<{ draft: DraftView; queueItem: QueueView }> {
    const draft = await this.draft(ownerAccountId, draftId);
    if (draft.approval_status !== 'required') {
      throw errors.conflict(`The draft is already ${draft.approval_status}`, {
        approval_status: draft.approval_status,
      });
    }
    const account = await this.deps.accounts.get(ownerAccountId, draft.socialAccountId);
    const verdict = await this.guardrailsFor(draft.text, account._id, 'draft', {
      draftId,
      before: draft.createdAt,
    });
    const guardrails = {
      guardrail_status: verdict.guardrail_status,
      guardrail_reasons: verdict.guardrail_reasons,
      similarity_score: verdict.similarity_score,
    };
    if (verdict.guardrail_status === 'block') {
      await this.deps.drafts
        .updateIfVersion(draftId, draft.version, { $set: { ...guardrails, updatedAt: new Date() } })
        .catch(() => undefined);
      throw errors.conflict('The guardrails block this draft: it cannot be approved', {
        guardrail_status: 'block',
        guardrail_reasons: verdict.guardrail_reasons,
        similarity_score: verdict.similarity_score,
      });
    }
    const workspaceId = await this.deps.workspaceOf(ownerAccountId);
    const now = new Date();
    const approved = await this.deps.drafts.transition(draftId, {
      from: ['required'],
      to: 'approved',
      expectedVersion: draft.version,
      set: { ...guardrails, decidedAt: now, updatedAt: now },
    });
    const item = await this.enqueue(approved, account.username, workspaceId, scheduledFor ?? now);
    return { draft: draftView(approved), queueItem: queueView(item) };
  }

  /** A new queue item for an approved draft. */
  async enqueue(
    draft: SocialDraftDocument,
    username: string,
    workspaceId: string,
    scheduledFor: Date,
  ): Promise<SocialQueueDocument> {
    const now = new Date();
    return this.deps.queue.insert({
      _id: randomUUID(),
      ownerAccountId: draft.ownerAccountId,
      workspaceId,
      draftId: draft._id,
      socialAccountId: draft.socialAccountId,
      username,
      text: draft.text,
      ...(draft.inReplyTo ? { inReplyTo: draft.inReplyTo } : {}),
      publish_status: 'queued',
      scheduled_for: scheduledFor,
      nextAttemptAt: scheduledFor,
      attempts: 0,
      createdAt: now,
      updatedAt: now,
    });
  }

  async reject(ownerAccountId: string, draftId: string, reason: string | undefined): Promise<DraftView> {
    const draft = await this.draft(ownerAccountId, draftId);
    if (draft.approval_status !== 'required') {
      throw errors.conflict(`The draft is already ${draft.approval_status}`, {
        approval_status: draft.approval_status,
      });
    }
    const now = new Date();
    const rejected = await this.deps.drafts.transition(draftId, {
      from: ['required'],
      to: 'rejected',
      expectedVersion: draft.version,
      set: {
        decidedAt: now,
        updatedAt: now,
        ...(reason ? { guardrail_reasons: [...draft.guardrail_reasons, `rejected: ${reason}`] } : {}),
      },
    });
    return draftView(rejected);
  }

  async queueOf(
    ownerAccountId: string,
    status?: SocialQueueDocument['publish_status'],
  ): Promise<QueueView[]> {
    const docs = await this.deps.queue.find(
      { ownerAccountId, ...(status ? { publish_status: status } : {}) },
      { sort: { scheduled_for: -1, _id: 1 }, limit: 200 },
    );
    return docs.map(queueView);
  }

  async queueItem(ownerAccountId: string, queueId: string): Promise<SocialQueueDocument> {
    const doc = await this.deps.queue.findOne({ _id: queueId, ownerAccountId });
    if (!doc) throw errors.notFound('Queue item not found');
    return doc;
  }

  /** Cancels a queued item that no publisher holds right now (one being sent cannot be called back). */
  async cancel(ownerAccountId: string, queueId: string): Promise<QueueView> {
    const item = await this.queueItem(ownerAccountId, queueId);
    const now = new Date();
    const canceled = await this.deps.queue.findOneAndUpdate(
      {
        _id: queueId,
        ownerAccountId,
        publish_status: 'queued',
        $or: [{ claim: { $exists: false } }, { 'claim.until': { $lte: now } }],
      },
      { $set: { publish_status: 'canceled', updatedAt: now }, $unset: { claim: '' } },
    );
    if (canceled) return queueView(canceled);
    const current = (await this.deps.queue.findById(queueId)) ?? item;
    if (current.publish_status === 'queued') {
      throw errors.conflict('The post is being published right now; it cannot be canceled', {
        publish_status: 'queued',
      });
    }
    throw errors.conflict(`The post is already ${current.publish_status}`, {
      publish_status: current.publish_status,
    });
  }
}
