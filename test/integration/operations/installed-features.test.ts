import { randomBytes } from 'node:crypto';
import { appInstallationsCollection, appsCollection } from '../../../actors/apps/apps.collection';
import { createAppUpdateRefresh, updateNotificationId } from '../../../actors/apps/app-update-refresh';
import { NotificationsRepo } from '../../../actors/notifications/notifications.repo';
import { notificationsCollection } from '../../../actors/notifications/notifications.collection';
import { waitFor } from '../../support/async';
import { startVaultHarness, type Account, type VaultHarness } from '../vault/support/vault-harness';

/**
 * One process (`npm start`'s shape): installed catalog skills and apps become crew features with
 * the runtime functions they use, and the `app-update-refresh` duty marks an installation behind
 * its app's new version and notifies its account exactly once, however often cron runs it.
 */

const ADMIN_TOKEN = `admin-${randomBytes(12).toString('hex')}`;
const CRON_SECRET = `cron-${randomBytes(12).toString('hex')}`;
const suffix = randomBytes(3).toString('hex');
const slug = `relay-desk-${suffix}`;
let h: VaultHarness;
let dev: Account;
let user: Account;

type Item = { featureSlug: string; kind: string; coverage: string; uses?: string[]; active: unknown };

const publish = (version: string) =>
  h.api.post('/api/apps', dev.auth, {
    slug,
    name: 'Relay Desk',
    category: 'Operations',
    description: 'Fetches status pages and relays them to a connector.',
    manifest: {
      version,
      entrypoint: 'index.html',
      skills: ['http-json-fetch'],
      requiredSkills: [],
      permissions: ['mcp'],
      distribution: { webUrl: 'https://apps.example.com/relay' },
    },
  });
const cron = async () => {
  const res = await h.api.post('/api/ops/crew/cron', `Bearer ${CRON_SECRET}`);
  expect(res.status).toBe(200);
  const ran = res.body.result.ran as Array<{ duty: string; ok: boolean; items: number; ms: number }>;
  return ran.find((r) => r.duty === 'app-update-refresh');
};

beforeAll(async () => {
  h = await startVaultHarness({ env: { ADMIN_TOKEN, CRON_SECRET, CREW_HEARTBEAT_MS: '200' } });
  [dev, user] = [await h.account(), await h.account()];
}, 60_000);
afterAll(async () => {
  await h?.stop();
  h?.cleanup();
});

describe('installed skills and apps as crew features', () => {
  it('lists each with the runtime functions it uses and its coverage', async () => {
    const installed = await h.api.post('/api/skills/install', user.auth, {
      slug: 'csv-toolkit',
    });
    expect(installed.status).toBe(201);
    const fetcher = await h.api.post('/api/skills/install', user.auth, {
      slug: 'http-json-fetch',
      permissionsApproved: ['net'],
    });
    expect(fetcher.status).toBe(201);
    expect((await publish('1.0.0')).status).toBe(201);
    const app = await h.api.post('/api/apps/install', user.auth, { slug, permissionsApproved: ['mcp'] });
    expect(app.status).toBe(201);

    // Read again from the installations every 5 heartbeats (1 s here).
    let items: Item[] = [];
    await waitFor(
      async () => {
        const res = await h.api.get('/api/ops/crew', `Bearer ${ADMIN_TOKEN}`);
        items = res.body.coverage.items as Item[];
        return items.some((i) => i.featureSlug === `app:${slug}`);
      },
      'the installed app in the crew',
      15_000,
    );
    const node = { nodeId: h.runtime.system.nodeId };
    const of = (s: string) => items.find((i) => i.featureSlug === s);
    expect(of('skill:csv-toolkit')).toMatchObject({
      kind: 'skill',
      uses: ['sandbox'],
      coverage: 'degraded',
      active: node,
    });
    expect(of('skill:http-json-fetch')).toMatchObject({
      kind: 'skill',
      uses: ['http-egress', 'sandbox'],
      coverage: 'degraded',
      active: node,
    });
    // Its skill fetches over HTTP in the sandbox; its `mcp` permission calls connectors.
    expect(of(`app:${slug}`)).toMatchObject({
      kind: 'app',
      uses: ['connectors', 'http-egress', 'sandbox'],
      coverage: 'degraded',
      active: node,
    });
    // A skill nobody installed is no feature.
    expect(of('skill:text-diff')).toBeUndefined();

    const pub = await h.api.get('/api/ops/crew');
    expect(pub.body.coverage.items).toBeUndefined();
    expect(pub.body.summary.byKind).toMatchObject({ skill: 2, app: 1 });
    expect(pub.body.summary.byKind.actor).toBeGreaterThan(0);

    // Failover takes their slugs: no standby on one node (409); one not installed is unknown (404).
    const failover = (featureSlug: string) =>
      h.api.post('/api/ops/crew/failover', `Bearer ${ADMIN_TOKEN}`, { featureSlug, reason: 'drill' });
    expect((await failover('skill:http-json-fetch')).status).toBe(409);
    expect((await failover('app:not-installed-anywhere')).status).toBe(404);
  }, 60_000);
});

describe('the app-update-refresh duty', () => {
  it('marks the installation behind a new version and notifies its account once', async () => {
    const installations = h.runtime.documents.repository(appInstallationsCollection);
    const notifications = h.runtime.documents.repository(notificationsCollection);
    const updateNotes = () =>
      notifications.find({ accountId: user.accountId, title: { $regex: '^Update available: Relay Desk' } });

    // Nothing to do while the installation is on the latest version.
    expect(await cron()).toMatchObject({ ok: true, items: 0 });
    expect(await updateNotes()).toEqual([]);

    expect((await publish('1.1.0')).status).toBe(200);
    expect(await cron()).toMatchObject({ ok: true, items: 1 });
    const doc = await installations.findOne({ accountId: user.accountId, slug });
    expect(doc).toMatchObject({ installedVersion: '1.0.0', updateAvailableVersion: '1.1.0' });
    expect(doc!.updateCheckedAt).toBeInstanceOf(Date);
    const notes = await updateNotes();
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      _id: updateNotificationId(user.accountId, slug, '1.1.0'),
      type: 'task',
      status: 'unread',
      title: 'Update available: Relay Desk 1.1.0',
    });

    // Again: nothing new, no second notification.
    expect(await cron()).toMatchObject({ ok: true, items: 0 });
    expect(await updateNotes()).toHaveLength(1);
    // A pass that stopped after its notification, before its mark: the next one marks, and its
    // notification (same id) is not made twice.
    await installations.raw.updateOne(
      { accountId: user.accountId, slug },
      { $unset: { updateAvailableVersion: '' } },
    );
    expect(await cron()).toMatchObject({ ok: true, items: 1 });
    expect(await installations.findOne({ accountId: user.accountId, slug })).toMatchObject({
      updateAvailableVersion: '1.1.0',
    });
    expect(await updateNotes()).toHaveLength(1);
    // Reads still compute updateAvailable on the spot.
    const updates = await h.api.get('/api/apps/updates', user.auth);
    expect(updates.status).toBe(200);
    expect(JSON.stringify(updates.body)).toContain(slug);

    // A newer version: one more notification, for that version.
    expect((await publish('1.2.0')).status).toBe(200);
    expect(await cron()).toMatchObject({ ok: true, items: 1 });
    expect((await updateNotes()).map((n) => n.title).sort()).toEqual([
      'Update available: Relay Desk 1.1.0',
      'Update available: Relay Desk 1.2.0',
    ]);

    // Updated: the mark is cleared on the next pass, and nothing is notified.
    const applied = await h.api.post('/api/apps/updates', user.auth);
    expect(applied.body.total).toBe(1);
    expect(await cron()).toMatchObject({ ok: true, items: 1 });
    const after = await installations.findOne({ accountId: user.accountId, slug });
    expect(after).toMatchObject({ installedVersion: '1.2.0' });
    expect(after!.updateAvailableVersion).toBeUndefined();
    expect(await updateNotes()).toHaveLength(2);
  }, 60_000);
});

describe('a bounded pass', () => {
  it('marks at most maxItems per run and walks every app over the runs, notifying once each', async () => {
    const slugs = [0, 1, 2].map((i) => `bounded-${i}-${suffix}`);
    const publishOne = (s: string, version: string) =>
      h.api.post('/api/apps', dev.auth, {
        slug: s,
        name: `Bounded ${s}`,
        category: 'Data',
        description: 'One of three.',
        manifest: {
          version,
          entrypoint: 'index.html',
          distribution: { webUrl: 'https://apps.example.com/b' },
        },
      });
    for (const s of slugs) {
      expect((await publishOne(s, '1.0.0')).status).toBe(201);
      expect((await h.api.post('/api/apps/install', user.auth, { slug: s })).status).toBe(201);
      expect((await publishOne(s, '2.0.0')).status).toBe(200);
    }
    const { documents } = h.runtime;
    const pass = createAppUpdateRefresh({
      apps: documents.repository(appsCollection),
      installations: documents.repository(appInstallationsCollection),
      notifications: new NotificationsRepo(documents),
      maxApps: 2,
      maxItems: 1,
    });
    const installations = documents.repository(appInstallationsCollection);
    const marked = async () =>
      (await installations.find({ accountId: user.accountId, slug: { $in: slugs } })).filter(
        (d) => d.updateAvailableVersion === '2.0.0',
      ).length;
    let runs = 0;
    while ((await marked()) < slugs.length) {
      const items = await pass();
      expect(items).toBeLessThanOrEqual(1);
      runs += 1;
      // Every published app is walked within a bounded number of runs.
      expect(runs).toBeLessThan(100);
    }
    expect(runs).toBeGreaterThanOrEqual(slugs.length);
    // A full walk more: nothing new, one notification per app.
    for (let i = 0; i < 20; i++) expect(await pass()).toBe(0);
    const notes = await documents
      .repository(notificationsCollection)
      .find({ accountId: user.accountId, title: { $regex: '^Update available: Bounded' } });
    expect(notes.map((n) => n.title).sort()).toEqual(
      slugs.map((s) => `Update available: Bounded ${s} 2.0.0`),
    );
  }, 60_000);
});
