import { randomBytes } from 'node:crypto';
import { AppDiscovery, DISCOVERY_REUSE_MS } from '../../../actors/apps/app-discovery';
import { seedApps } from '../../../actors/apps/app-seed';
import { SEED_APPS } from '../../../actors/apps/app-seed-catalog';
import { appInstallationsCollection, appsCollection } from '../../../actors/apps/apps.collection';
import { NotificationsRepo } from '../../../actors/notifications/notifications.repo';
import { developersCollection } from '../../../actors/skills/skills.collection';
import { errors } from '../../../schemas/errors';
import { startVaultHarness, type Account, type VaultHarness } from '../vault/support/vault-harness';

/**
 * The app store's seed catalog and what an install does besides the installation (docs/apps.md):
 * the APP_INSTALL execution with its logs, the library entry, the package cache, the activity
 * line and the notification; device installs and their removal; updates as executions; ratings
 * and the `rating` sort; active users in developer profiles. One runtime, in-process transport.
 */

let h: VaultHarness;
let user: Account;
let other: Account;
let dev: Account;
const suffix = randomBytes(3).toString('hex');
const count = (collection: string, filter: object) =>
  h.runtime.documents.db.collection(collection).countDocuments(filter);
const seed = (seeds: typeof SEED_APPS = SEED_APPS) =>
  seedApps(
    {
      apps: h.runtime.documents.repository(appsCollection),
      developers: h.runtime.documents.repository(developersCollection),
      logger: h.logs.logger(),
    },
    seeds,
  );

beforeAll(async () => {
  h = await startVaultHarness();
  [user, other, dev] = [await h.account(), await h.account(), await h.account()];
}, 60_000);
afterAll(async () => {
  await h?.stop();
  h?.cleanup();
});

describe('the seed catalog', () => {
  it('a fresh store lists at least 8 apps in the four categories, built on seeded skills', async () => {
    const list = await h.api.get('/api/apps?limit=50');
    expect(list.status).toBe(200);
    expect(list.body.pagination.total).toBeGreaterThanOrEqual(8);
    expect(list.body.categories.map((c: { name: string }) => c.name)).toEqual([
      'Data',
      'Finance',
      'Operations',
      'Research',
    ]);
    const skills = new Set(
      (await h.api.get('/api/skills?limit=50')).body.skills.map((s: { slug: string }) => s.slug),
    );
    for (const app of list.body.apps) {
      const detail = (await h.api.get(`/api/apps/${app.slug}`)).body.app;
      expect(detail.developer).toBe('platform');
      for (const required of detail.manifest.requiredSkills) expect(skills.has(required)).toBe(true);
    }
    const discovery = await h.api.get('/api/apps/discovery');
    expect(discovery.body.hero).not.toBeNull();
    expect(discovery.body.sections.find((s: { id: string }) => s.id === 'new-releases').apps).toHaveLength(8);
  });

  it('seeding again changes nothing', async () => {
    const report = await seed();
    expect(report).toMatchObject({ inserted: 0, updated: 0, unpublished: 0, skipped: [] });
    expect(report.unchanged).toBeGreaterThanOrEqual(8);
  });
});

describe('installing a seeded app', () => {
  const slug = 'csv-explorer';
  const install = (who: Account, body: object = {}) =>
    h.api.post('/api/apps/install', who.auth, { slug, permissionsApproved: ['files:read'], ...body });

  it('a refused install leaves no ownership, library entry, package, execution or notification', async () => {
    expect((await install(user)).body.code).toBe('SKILL_REQUIRED');
    expect((await h.api.post('/api/skills/install', user.auth, { slug: 'csv-toolkit' })).status).toBe(201);
    const foreign = await install(user, { workspaceId: other.workspaceId });
    expect(foreign.status).toBe(404);
    expect(foreign.body.field).toBe('workspaceId');
    for (const collection of ['app_installations', 'app_library', 'app_package_cache', 'app_activity'])
      expect(await count(collection, { accountId: user.accountId })).toBe(0);
    expect(await count('notifications', { accountId: user.accountId })).toBe(0);
    expect(await count('executions', { accountId: user.accountId, appSlug: slug })).toBe(0);
  });

  it('an install records an APP_INSTALL execution with logs, activity, a notification, the library entry and the package', async () => {
    const res = await install(user, { workspaceId: user.workspaceId });
    expect(res.status).toBe(201);
    const execution = res.body.execution;
    expect(execution).toMatchObject({ type: 'APP_INSTALL', status: 'COMPLETED', sourceType: 'app' });
    expect(execution.logs.map((l: { message: string }) => l.message).join('\n')).toContain(
      'Package cached for offline install',
    );
    const listed = await h.api.get(`/api/executions?appSlug=${slug}`, user.auth);
    expect(listed.body.executions.map((e: { id: string }) => e.id)).toContain(execution.id);
    const notifications = (await h.api.get('/api/notifications', user.auth)).body.notifications;
    expect(notifications).toContainEqual(
      expect.objectContaining({ title: 'App installed: CSV Explorer', executionId: execution.id }),
    );
    const activity = (await h.api.get('/api/apps/activity', user.auth)).body.activity;
    expect(activity[0]).toMatchObject({ slug, kind: 'install', executionId: execution.id });
    expect(await count('app_library', { accountId: user.accountId, slug })).toBe(1);
    const cached = await h.runtime.documents.db
      .collection('app_package_cache')
      .findOne({ accountId: user.accountId, slug });
    expect(cached).toMatchObject({ version: '1.0.0', package: { schema: 'platform.app.v1' } });
  });

  it('a side effect failing after the write puts everything back', async () => {
    const third = await h.account();
    await h.api.post('/api/skills/install', third.auth, { slug: 'csv-toolkit' });
    const spy = jest
      .spyOn(NotificationsRepo.prototype, 'create')
      .mockRejectedValueOnce(errors.unavailable('notifications are down'));
    try {
      const res = await install(third);
      expect(res.status).toBe(503);
    } finally {
      spy.mockRestore();
    }
    for (const collection of ['app_installations', 'app_library', 'app_package_cache', 'app_activity'])
      expect(await count(collection, { accountId: third.accountId })).toBe(0);
    expect(await count('executions', { accountId: third.accountId, appSlug: slug })).toBe(0);
    expect((await h.api.get(`/api/apps/${slug}`)).body.app.installCount).toBe(1);
    // The next try succeeds: nothing was left in its way.
    expect((await install(third)).status).toBe(201);
    await h.api.del(`/api/apps/${slug}/installation`, third.auth);
  });

  it('device installs: unknown target 400, unsupported 409, desktop installed then removed, ownership kept', async () => {
    const device = (body: object, who = user) =>
      h.api.post(`/api/apps/${slug}/device-install`, who.auth, body);
    expect((await device({ target: 'toaster' })).status).toBe(400);
    expect((await device({})).status).toBe(400);
    expect((await device({ target: 'desktop' }, other)).status).toBe(404);
    const android = await device({ target: 'android' });
    expect(android.status).toBe(409);
    expect(android.body.supportedTargets).toEqual(['desktop', 'pwa']);
    const desktop = await device({ target: 'desktop', workspaceId: user.workspaceId });
    expect(desktop.status).toBe(201);
    expect(desktop.body).toMatchObject({
      workspaceInstalled: true,
      deviceInstalled: true,
      target: 'desktop',
      packageCachedForOfflineInstall: true,
      execution: { type: 'APP_DEVICE_INSTALL', status: 'COMPLETED' },
    });
    expect((await device({ target: 'pwa' })).status).toBe(201);
    // Two device installs: which one to remove must be said.
    expect((await h.api.del(`/api/apps/${slug}/device-install`, user.auth)).status).toBe(400);
    const removed = await h.api.del(`/api/apps/${slug}/device-install?target=desktop`, user.auth);
    expect(removed.body).toEqual({
      removed: true,
      ownershipPreserved: true,
      target: 'desktop',
      installation: expect.objectContaining({ status: 'active' }),
    });
    expect((await h.api.del(`/api/apps/${slug}/device-install?target=desktop`, user.auth)).status).toBe(404);
    const pwa = await h.api.del(`/api/apps/${slug}/device-install`, user.auth, { target: 'pwa' });
    expect(pwa.body).toMatchObject({ removed: true, target: 'pwa' });
    const installed = (await h.api.get('/api/apps/installed', user.auth)).body.installedApps;
    expect(installed.map((i: { slug: string }) => i.slug)).toEqual([slug]);
  });

  it('ratings: installed callers only, average and count on the app, sort=rating', async () => {
    const rate = (who: Account, stars: unknown) =>
      h.api.post(`/api/apps/${slug}/rating`, who.auth, { stars });
    expect((await rate(other, 5)).status).toBe(403);
    expect((await rate(user, 6)).status).toBe(400);
    expect((await rate(user, 5)).body.rating).toEqual({ stars: 5, average: 5, count: 1 });
    await h.api.post('/api/skills/install', other.auth, { slug: 'csv-toolkit' });
    expect((await install(other)).status).toBe(201);
    expect((await rate(other, 2)).body.rating).toEqual({ stars: 2, average: 3.5, count: 2 });
    // Rating again replaces the caller's rating.
    expect((await rate(user, 3)).body.rating).toEqual({ stars: 3, average: 2.5, count: 2 });
    const detail = (await h.api.get(`/api/apps/${slug}`)).body.app;
    expect(detail).toMatchObject({ rating: 2.5, ratingCount: 2 });
    const sorted = await h.api.get('/api/apps?sort=rating&limit=3');
    expect(sorted.status).toBe(200);
    expect(sorted.body.apps[0]).toMatchObject({ slug, rating: 2.5, ratingCount: 2 });
    expect(sorted.body.apps[1].rating).toBeNull();
  });
});

describe('updates as executions and active users', () => {
  const slug = `pulse-${suffix}`;
  const publish = (version: string) =>
    h.api.post('/api/apps', dev.auth, {
      slug,
      name: 'Pulse',
      category: 'Operations',
      description: 'Shows the pulse of a team.',
      manifest: { version, entrypoint: 'index.html', distribution: { webUrl: 'https://apps.example.com/p' } },
    });

  it('each update is an APP_UPDATE execution and caches the new package', async () => {
    expect((await publish('1.0.0')).status).toBe(201);
    expect((await h.api.post('/api/apps/install', user.auth, { slug })).status).toBe(201);
    expect((await publish('1.1.0')).status).toBe(200);
    const applied = await h.api.post('/api/apps/updates', user.auth);
    expect(applied.body).toMatchObject({
      total: 1,
      updated: [{ slug, from: '1.0.0', to: '1.1.0', execution: { type: 'APP_UPDATE', status: 'COMPLETED' } }],
    });
    const listed = await h.api.get(`/api/executions?appSlug=${slug}`, user.auth);
    expect(listed.body.executions.map((e: { type: string }) => e.type).sort()).toEqual([
      'APP_INSTALL',
      'APP_UPDATE',
    ]);
    expect(await count('app_package_cache', { accountId: user.accountId, slug })).toBe(2);
  });

  it('the developer profile counts distinct accounts that opened or used one of its apps', async () => {
    const profile = async () => (await h.api.get(`/api/apps/${slug}`)).body.app.developer as string;
    const handle = await profile();
    const active = async () => (await h.api.get(`/api/developers/${handle}`)).body.developer.activeUsers;
    expect(await active()).toBe(0);
    expect((await h.api.post(`/api/apps/${slug}/open`, user.auth)).status).toBe(200);
    expect(await active()).toBe(1);
    expect((await h.api.post(`/api/apps/${slug}/open`, user.auth)).status).toBe(200);
    expect(await active()).toBe(1);
    expect((await h.api.post('/api/apps/install', other.auth, { slug })).status).toBe(201);
    expect(await active()).toBe(1);
    expect((await h.api.post(`/api/apps/${slug}/open`, other.auth)).status).toBe(200);
    expect(await active()).toBe(2);
  });
});

describe('discovery reuse', () => {
  it('shared rows are reused for DISCOVERY_REUSE_MS, dropped by invalidate, and the caller part is always fresh', async () => {
    let now = Date.now();
    const apps = h.runtime.documents.repository(appsCollection);
    const discovery = new AppDiscovery({
      apps,
      installations: h.runtime.documents.repository(appInstallationsCollection),
      now: () => new Date(now),
    });
    const top = async (viewer?: string) => (await discovery.discovery(viewer)).sections[5].apps[0];
    const before = await top();
    const leader = `leader-${suffix}`;
    await h.api.post('/api/apps', dev.auth, {
      slug: leader,
      name: 'Leader',
      category: 'Data',
      description: 'Most installed, suddenly.',
      manifest: { version: '1.0.0', entrypoint: 'index.html' },
    });
    await apps.updateOne({ _id: leader }, { $set: { installCount: 1_000_000 } });
    expect(await top()).toEqual(before);
    now += DISCOVERY_REUSE_MS;
    expect((await top()).slug).toBe(leader);
    await apps.updateOne({ _id: leader }, { $set: { installCount: 0 } });
    expect((await top()).slug).toBe(leader);
    discovery.invalidate();
    expect((await top()).slug).not.toBe(leader);
    expect((await discovery.discovery(user.accountId)).installedSlugs).toContain('csv-explorer');
  });
});

describe('a new seed version', () => {
  it('is recorded as a new version (an update for installs); a slug taken by an account is skipped', async () => {
    const taken = `taken-${suffix}`;
    const published = await h.api.post('/api/apps', dev.auth, {
      slug: taken,
      name: 'Taken',
      category: 'Data',
      description: 'Published by an account first.',
      manifest: { version: '1.0.0', entrypoint: 'index.html' },
    });
    expect(published.status).toBe(201);
    const bumped = SEED_APPS.map((a) =>
      a.slug === 'csv-explorer' ? { ...a, manifest: { ...a.manifest, version: '1.1.0' } } : a,
    );
    const report = await seed([...bumped, { ...SEED_APPS[0], slug: taken }]);
    expect(report).toMatchObject({ inserted: 0, updated: 1, skipped: [taken] });
    const detail = (await h.api.get('/api/apps/csv-explorer')).body.app;
    expect(detail.versions.map((v: { version: string }) => v.version)).toEqual(['1.0.0', '1.1.0']);
    expect((await h.api.get(`/api/apps/${taken}`)).body.app.developer).not.toBe('platform');
    const updates = (await h.api.get('/api/apps/updates', user.auth)).body.updates;
    expect(updates).toContainEqual(
      expect.objectContaining({ currentVersion: '1.1.0', installedVersion: '1.0.0' }),
    );
    // Back to the files' seed: nothing moves back (versions only grow), nothing is unpublished.
    expect(await seed()).toMatchObject({ inserted: 0, updated: 0, unpublished: 0 });
  });
});
