import { createHash } from 'node:crypto';
import type { AppDocument, AppInstallationDocument } from '../../schemas/documents/app';
import type { NotificationsRepo } from '../notifications/notifications.repo';
import type { Repository } from '../../src/store/mongo';
import { compareVersions } from './app-views';

/** At most this many installations are marked or cleared per run (the next run goes on). */
export const APP_UPDATE_REFRESH_MAX_ITEMS = 500;
/** At most this many apps are looked at per run; the next run starts after the last one. */
export const APP_UPDATE_REFRESH_MAX_APPS = 200;

export interface AppUpdateRefreshDeps {
  apps: Repository<AppDocument>;
  installations: Repository<AppInstallationDocument>;
  notifications: NotificationsRepo;
  now?: () => Date;
  maxItems?: number;
  maxApps?: number;
}

/**
 * The notification of one account about one version of one app has a fixed id (a hash of the
 * three), so however many runs or nodes find the same update, one insert wins and the others
 * find it there: one notification per account and new version.
 */
export function updateNotificationId(accountId: string, slug: string, version: string): string {
  const digest = createHash('sha256').update(`app-update\u0000${accountId}\u0000${slug}\u0000${version}`);
  return `ntf_${digest.digest('hex').slice(0, 24)}`;
}

/**
 * The `app-update-refresh` duty (docs/operations.md, "Background duties"): finds installations
 * whose app has a newer published version than the one installed, records it on them
 * (`updateAvailableVersion`, `updateCheckedAt`) and notifies their account once per version;
 * clears the mark of installations that have caught up. Bounded per run (apps and items); the
 * apps are walked in slug order, each run after the last one seen, round and round. Resolves how
 * many installations it marked or cleared.
 */
export function createAppUpdateRefresh(deps: AppUpdateRefreshDeps): () => Promise<number> {
  const maxItems = deps.maxItems ?? APP_UPDATE_REFRESH_MAX_ITEMS;
  const maxApps = deps.maxApps ?? APP_UPDATE_REFRESH_MAX_APPS;
  let after = '';
  return async () => {
    const now = deps.now?.() ?? new Date();
    const apps = await deps.apps.raw
      .find(
        { published: true, ...(after ? { _id: { $gt: after } } : {}) },
        { projection: { name: 1, latestVersion: 1 }, sort: { _id: 1 }, limit: maxApps },
      )
      .toArray();
    let resume = after;
    let items = 0;
    let stopped = false;
    for (const app of apps) {
      if (items >= maxItems) {
        stopped = true;
        break;
      }
      items += await markBehind(deps, app, now, maxItems - items);
      const cleared = await deps.installations.raw.updateMany(
        { slug: app._id, installedVersion: app.latestVersion, updateAvailableVersion: { $exists: true } },
        { $unset: { updateAvailableVersion: '' }, $set: { updateCheckedAt: now } },
      );
      items += cleared.modifiedCount;
      if (items < maxItems) resume = app._id;
    }
    // Out of budget: the next run starts at the app not finished. Else after this page, or, when
    // the page was short (the walk reached the last app), from the first app again.
    if (stopped || items >= maxItems) after = resume;
    else after = apps.length < maxApps ? '' : (apps.at(-1)?._id ?? '');
    return items;
  };
}

/** Marks and notifies the live installations of one app behind its latest version. */
async function markBehind(
  deps: AppUpdateRefreshDeps,
  app: Pick<AppDocument, '_id' | 'name' | 'latestVersion'>,
  now: Date,
  budget: number,
): Promise<number> {
  const latest = app.latestVersion;
  const behind = await deps.installations.find(
    {
      slug: app._id,
      status: { $ne: 'removed' },
      installedVersion: { $ne: latest },
      updateAvailableVersion: { $ne: latest },
    },
    { limit: budget },
  );
  let items = 0;
  for (const inst of behind) {
    if (compareVersions(latest, inst.installedVersion) <= 0) continue;
    // The notification first: if this pass stops before the mark, the next one finds the
    // notification already there (same id) and only marks.
    await deps.notifications.createOnce(
      updateNotificationId(inst.accountId, app._id, latest),
      inst.accountId,
      {
        type: 'task',
        title: `Update available: ${app.name} ${latest}`,
        body: `${app.name} ${latest} is published; ${inst.installedVersion} is installed. POST /api/apps/updates applies it.`,
        ...(inst.workspaceId ? { workspaceId: inst.workspaceId } : {}),
      },
      now,
    );
    const marked = await deps.installations.updateOne(
      { _id: inst._id, updateAvailableVersion: { $ne: latest } },
      { $set: { updateAvailableVersion: latest, updateCheckedAt: now } },
    );
    if (marked.modified > 0) items += 1;
  }
  return items;
}
