import type { components, operations } from '../../../client/index';
import { api, call } from './http';

type Json<O extends keyof operations, S extends number = 200> =
  operations[O]['responses'] extends Record<S, { content: { 'application/json': infer T } }> ? T : never;

/** The optional social connector (docs/social.md); every shape comes from its route contracts. */
export type Platform = Json<'getApiSocialPlatforms'>['platforms'][number];
export type SocialAccount = Json<'getApiXAccounts'>['accounts'][number];
export type Draft = Json<'getApiXDrafts'>['drafts'][number];
export type QueueItem = Json<'getApiXQueue'>['queue'][number];
export type PublishStatus = QueueItem['publish_status'];
export type Published = Json<'postApiXPublish'>;
export type { components };

export const social = {
  platforms: () => call(api.GET('/api/social/platforms')),
  /** Where to send the browser to authorize on X; X sends it back to `redirectTo` (an in-app path). */
  connect: (redirectTo: string) => call(api.POST('/api/x/connect', { body: { redirectTo } })),
  accounts: () => call(api.GET('/api/x/accounts')),
  disconnect: (id: string) => call(api.DELETE('/api/x/accounts/{id}', { params: { path: { id } } })),
  drafts: () => call(api.GET('/api/x/drafts')),
  draft: (accountId: string, text: string) => call(api.POST('/api/x/drafts', { body: { accountId, text } })),
  approve: (id: string, scheduledFor?: string) =>
    call(api.POST('/api/x/drafts/{id}/approve', { params: { path: { id } }, body: { scheduledFor } })),
  reject: (id: string, reason?: string) =>
    call(api.POST('/api/x/drafts/{id}/reject', { params: { path: { id } }, body: { reason } })),
  queue: (status?: PublishStatus) =>
    call(api.GET('/api/x/queue', { params: { query: status ? { status } : {} } })),
  cancel: (id: string) => call(api.POST('/api/x/queue/{id}/cancel', { params: { path: { id } } })),
  publishNow: (queueId: string) => call(api.POST('/api/x/publish', { body: { queueId } })),
};
