import type { Principal } from '../../schemas/auth';
import { errors } from '../../schemas/errors';
import type { Services } from '../../src/boot/services';
import type { Duty } from '../operations/operations';
import type { HttpEgress } from '../tools/net/http-egress';
import { SocialAccounts } from './social-accounts';
import { SocialDrafts } from './social-drafts';
import { publishFailure, SocialPublisher } from './social-publisher';
import { SocialTokenCipher } from './social-tokens';
import {
  oauthStatesCollection,
  socialAccountsCollection,
  socialDraftsCollection,
  socialQueueCollection,
} from './social.collection';
import { XApi } from './x-api';

/** Platforms listed besides X: shown, not connectable (no connector yet). */
const SCAFFOLDED_PLATFORMS = ['linkedin', 'bluesky', 'mastodon', 'threads'] as const;

export interface PlatformView {
  id: string;
  status: 'live' | 'scaffolded';
  connectorReady: boolean;
  connectedCount: number;
}

export interface PublishedView {
  draftId: string;
  queueId: string;
  postId: string;
  publishedAt: string;
}

/**
 * The optional social connector of one process (docs/social.md): `services.social`, built by
 * `buildServices`. Absent when SOCIAL_ENABLED=false (its routes, tool and duty are then absent too).
 */
export interface SocialService {
  readonly accounts: SocialAccounts;
  readonly drafts: SocialDrafts;
  readonly publisher: SocialPublisher;
  /** The publisher duty, run by the crew (actors/operations). */
  readonly duty: Duty;
  /** Where X sends the browser back (`PUBLIC_BASE_URL/api/x/callback`). */
  readonly callbackUrl: string;
  platforms(ownerAccountId: string): Promise<PlatformView[]>;
  /** `POST /api/x/publish`: an approved draft now, or a queued item forced. */
  publishNow(
    owner: Principal & { accountId: string },
    ids: { draftId?: string; queueId?: string },
  ): Promise<PublishedView>;
}

export function createSocialService(
  services: Pick<Services, 'config' | 'secrets' | 'documents' | 'cache' | 'logger' | 'executions'>,
  options: { egress: HttpEgress },
): SocialService {
  const { config, documents, cache } = services;
  const logger = services.logger.child({ component: 'social' });
  const x = new XApi(options.egress, {
    apiBaseUrl: config.X_API_BASE_URL,
    authBaseUrl: config.X_AUTH_BASE_URL,
    clientId: config.X_CLIENT_ID,
    clientSecret: config.X_CLIENT_SECRET,
  });
  const accountsRepo = documents.repository(socialAccountsCollection);
  const queue = documents.repository(socialQueueCollection);
  const callbackUrl = `${config.PUBLIC_BASE_URL}/api/x/callback`;
  const accounts = new SocialAccounts({
    accounts: accountsRepo,
    states: documents.repository(oauthStatesCollection),
    cipher: new SocialTokenCipher(services.secrets),
    x,
    cache,
    callbackUrl,
    logger,
  });
  const drafts = new SocialDrafts({
    drafts: documents.repository(socialDraftsCollection),
    queue,
    accounts,
    policy: {
      dailyCap: config.SOCIAL_DAILY_CAP,
      similarityReview: config.SOCIAL_SIMILARITY_REVIEW,
      similarityBlock: config.SOCIAL_SIMILARITY_BLOCK,
      blockedWords: config.SOCIAL_BLOCKED_WORDS,
      blockedTopics: config.SOCIAL_BLOCKED_TOPICS,
      blockedDomains: config.SOCIAL_BLOCKED_DOMAINS,
    },
    workspaceOf: async (ownerAccountId) => {
      const id = await services.executions.workspaces.defaultWorkspaceOf(ownerAccountId);
      if (!id) throw errors.notFound('Workspace not found');
      return id;
    },
  });
  const publisher = new SocialPublisher({
    queue,
    accounts: accountsRepo,
    socialAccounts: accounts,
    drafts,
    x,
    executions: services.executions,
    cache,
    logger,
    settings: { maxAttempts: config.SOCIAL_PUBLISH_MAX_ATTEMPTS, retryBaseMs: config.SOCIAL_RETRY_BASE_MS },
  });

  const forced = async (queueId: string): Promise<PublishedView> => {
    const claimed = await publisher.claim(queueId, true);
    if (!claimed) {
      const current = await queue.findById(queueId);
      if (current?.publish_status === 'queued') {
        throw errors.conflict('This post is being published right now', {
          queueId,
          publish_status: 'queued',
        });
      }
      throw errors.conflict(`This post is already ${current?.publish_status ?? 'gone'}`, {
        queueId,
        publish_status: current?.publish_status ?? null,
      });
    }
    const outcome = await publisher.attempt(claimed);
    if (outcome.status !== 'published') throw publishFailure(outcome);
    return {
      draftId: outcome.item.draftId,
      queueId: outcome.item._id,
      postId: outcome.item.postId!,
      publishedAt: outcome.item.publishedAt!.toISOString(),
    };
  };

  return {
    accounts,
    drafts,
    publisher,
    callbackUrl,
    duty: {
      name: 'social-publisher',
      intervalMs: config.SOCIAL_PUBLISH_INTERVAL_MS,
      run: () => publisher.runDue(),
    },
    platforms: async (ownerAccountId) => {
      const connected = await accountsRepo.count({ ownerAccountId, platform: 'x', status: 'connected' });
      return [
        {
          id: 'x',
          status: x.configured ? 'live' : 'scaffolded',
          connectorReady: x.configured,
          connectedCount: connected,
        },
        ...SCAFFOLDED_PLATFORMS.map((id) => ({
          id,
          status: 'scaffolded' as const,
          connectorReady: false,
          connectedCount: 0,
        })),
      ];
    },
    publishNow: async (owner, ids) => {
      if (ids.queueId) {
        const item = await drafts.queueItem(owner.accountId, ids.queueId);
        if (ids.draftId && ids.draftId !== item.draftId) {
          throw errors.validation('queueId and draftId name different posts');
        }
        return forced(item._id);
      }
      const draft = await drafts.draft(owner.accountId, ids.draftId!);
      if (draft.approval_status !== 'approved') {
        throw errors.conflict(`The draft is not approved (approval_status ${draft.approval_status})`, {
          approval_status: draft.approval_status,
        });
      }
      const items = await queue.find({ draftId: draft._id }, { sort: { createdAt: -1 }, limit: 20 });
      const published = items.find((i) => i.publish_status === 'published');
      if (published) {
        throw errors.conflict('This draft is already published', {
          queueId: published._id,
          postId: published.postId,
        });
      }
      const queued = items.find((i) => i.publish_status === 'queued');
      if (queued) return forced(queued._id);
      // Approved, its earlier item failed or was canceled: a new item, published now.
      const account = await accounts.get(owner.accountId, draft.socialAccountId);
      const workspaceId =
        items[0]?.workspaceId ?? (await services.executions.workspaces.defaultWorkspaceOf(owner.accountId));
      if (!workspaceId) throw errors.notFound('Workspace not found');
      const item = await drafts.enqueue(draft, account.username, workspaceId, new Date());
      return forced(item._id);
    },
  };
}
