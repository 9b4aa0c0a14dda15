import { randomBytes } from 'node:crypto';
import {
  mintCredential,
  secretValue,
  startVaultHarness,
  type Account,
  type VaultHarness,
} from '../vault/support/vault-harness';

/**
 * The app store end to end on one runtime (in-process transport): publishing by enterprise
 * accounts with kept versions, visibility, listing and packages, readiness and install from the
 * caller's real state (vault assignments, installed skills, approved permissions), updates and
 * rollback, and the vault's runtime grants for an installed app.
 */

let h: VaultHarness;
let owner: Account;
let user: Account;
let retail: Account;
const suffix = randomBytes(3).toString('hex');

const manifest = (overrides: Record<string, unknown> = {}) => ({
  version: '1.0.0',
  entrypoint: 'index.html',
  requiredSkills: ['text-stats'],
  requiredSecrets: ['STRIPE_KEY'],
  permissions: ['files:read'],
  commands: [{ name: 'summarize', description: 'Summarizes the ledger.' }],
  distribution: { webUrl: 'https://apps.example.com/ledger' },
  ...overrides,
});
const ledger = (overrides: Record<string, unknown> = {}) => ({
  slug: `ledger-${suffix}`,
  name: 'Ledger Lens',
  category: 'Finance',
  description: 'Reads a ledger and explains it.',
  deviceTargets: ['desktop', 'cloud'],
  manifest: manifest(),
  defaultConfig: { currency: 'EUR', rounding: 2 },
  ...overrides,
});
const slug = `ledger-${suffix}`;
const publish = (who: Account, body: Record<string, unknown>) => h.api.post('/api/apps', who.auth, body);
const install = (who: Account, body: Record<string, unknown> = {}) =>
  h.api.post('/api/apps/install', who.auth, { slug, workspaceId: who.workspaceId, ...body });
const ALL_PERMISSIONS = ['files:read', 'secrets:STRIPE_KEY'];

beforeAll(async () => {
  h = await startVaultHarness();
  [owner, user, retail] = [await h.account(), await h.account(), await h.account('retail_pro')];
}, 60_000);
afterAll(async () => {
  await h?.stop();
  h?.cleanup();
});

describe('publishing (POST /api/apps)', () => {
  it('refuses a retail account (403) and bad manifests (400 naming the field)', async () => {
    const refused = await publish(retail, ledger());
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'PERMISSION_DENIED', capability: 'publish_app' });
    const bad = await publish(owner, ledger({ manifest: manifest({ version: 'one' }) }));
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(bad.body)).toContain('version');
    const missing = await publish(owner, { name: 'No category' });
    expect(missing.status).toBe(400);
  });

  it.each([
    [{ apiKey: 'whatever' }, 'defaultConfig.apiKey'],
    [{ nested: { client_secret: 'x' } }, 'defaultConfig.nested.client_secret'],
    [{ endpoint: { auth: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc' } }, 'defaultConfig.endpoint.auth'],
    [{ list: ['ok', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789'] }, 'defaultConfig.list[1]'],
    [{ blob: 'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZg' }, 'defaultConfig.blob'],
  ])('defaultConfig %j holding a secret is refused, naming %s', async (defaultConfig, field) => {
    const res = await publish(owner, ledger({ defaultConfig }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', field });
    expect(res.body.error).toContain(field);
    expect((await h.api.get(`/api/apps/${slug}`, owner.auth)).status).toBe(404);
  });

  it('publishes, keeps versions on a greater manifest.version by the owner only', async () => {
    const first = await publish(owner, ledger());
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      success: true,
      created: true,
      app: { slug, published: true, version: '1.0.0' },
    });
    const taken = await publish(user, ledger());
    expect(taken.status).toBe(409);
    const same = await publish(owner, ledger());
    expect(same.status).toBe(409);
    expect(same.body.field).toBe('manifest.version');
  });

  it('an unpublished app is visible to its owner only', async () => {
    const draft = `draft-${suffix}`;
    const res = await publish(owner, ledger({ slug: draft, published: false }));
    expect(res.status).toBe(201);
    expect((await h.api.get(`/api/apps/${draft}`)).status).toBe(404);
    expect((await h.api.get(`/api/apps/${draft}`, user.auth)).status).toBe(404);
    const mine = await h.api.get(`/api/apps/${draft}`, owner.auth);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ viewerOwnsApp: true, app: { published: false } });
    const listed = await h.api.get(`/api/apps?search=${suffix}`);
    expect(listed.body.apps.map((a: { slug: string }) => a.slug)).toEqual([slug]);
    expect((await h.api.get(`/api/apps/${draft}/download`)).status).toBe(404);
    expect((await install(user, { slug: draft })).status).toBe(404);
  });
});

describe('browsing', () => {
  it('lists by category and search, shows detail and serves the package as an attachment', async () => {
    const list = await h.api.get(`/api/apps?category=Finance&search=ledger%20lens`);
    expect(list.status).toBe(200);
    expect(list.body.pagination.total).toBeGreaterThanOrEqual(1);
    expect(list.body.categories).toContainEqual({ name: 'Finance', count: expect.any(Number) });
    expect((await h.api.get('/api/apps?category=Nope')).status).toBe(400);
    expect((await h.api.get('/api/apps?sort=loudest')).status).toBe(400);
    const detail = await h.api.get(`/api/apps/${slug}`, user.auth);
    expect(detail.body).toMatchObject({
      viewerOwnsApp: false,
      app: { slug, manifest: { requiredSecrets: ['STRIPE_KEY'] } },
    });
    const pkg = await h.api.get(`/api/apps/${slug}/download`);
    expect(pkg.status).toBe(200);
    expect(pkg.headers['content-disposition']).toBe(`attachment; filename=${slug}.app.json`);
    expect(pkg.body).toMatchObject({
      schema: 'platform.app.v1',
      app: { slug },
      manifest: { version: '1.0.0' },
      defaultConfig: { currency: 'EUR' },
    });
    expect((await h.api.get('/api/apps/NOT_A_SLUG')).status).toBe(400);
  });

  it("the developer profile counts the owner's published apps", async () => {
    const handle = (await h.api.get(`/api/apps/${slug}`)).body.app.developer as string;
    const profile = await h.api.get(`/api/developers/${handle}`);
    expect(profile.status).toBe(200);
    expect(profile.body.developer.appsPublished).toBe(1);
    expect(profile.body.developer.apps.map((a: { slug: string }) => a.slug)).toEqual([slug]);
  });
});

describe('readiness, install, updates, rollback and the vault', () => {
  let secretId: string;
  const stripe = secretValue('STRIPE_KEY');

  it('install checks in order and a refusal leaves nothing behind', async () => {
    const before = await h.api.get(`/api/apps/${slug}/readiness`, user.auth);
    expect(before.body).toMatchObject({
      installation: null,
      ready: false,
      missingSecrets: ['STRIPE_KEY'],
      missingSkills: ['text-stats'],
      missingPermissions: ALL_PERMISSIONS,
      requiredPermissions: ALL_PERMISSIONS,
      targets: [{ target: 'web', url: 'https://apps.example.com/ledger' }],
    });
    expect((await install(user)).body.code).toBe('SECRET_REQUIRED');

    const created = await h.api.post('/api/vault', user.auth, { name: 'STRIPE_KEY', value: stripe });
    secretId = created.body.secret.id;
    const assigned = await h.api.post('/api/vault/assignments', user.auth, {
      secretId,
      subjectType: 'app',
      subjectId: slug,
    });
    expect(assigned.status).toBe(201);
    expect((await install(user)).body.code).toBe('SKILL_REQUIRED');

    expect((await h.api.post('/api/skills/install', user.auth, { slug: 'text-stats' })).status).toBe(201);
    const noPerm = await install(user, { permissionsApproved: ['files:read'] });
    expect(noPerm.status).toBe(400);
    expect(noPerm.body).toMatchObject({
      code: 'PERMISSION_REQUIRED',
      missingPermissions: ['secrets:STRIPE_KEY'],
    });
    expect((await h.api.get('/api/apps/installed', user.auth)).body).toEqual({ installedApps: [] });
    expect(
      await h.runtime.documents.db
        .collection('app_installations')
        .countDocuments({ accountId: user.accountId }),
    ).toBe(0);
  });

  it('a runtime grant needs an active installation approving the secret', async () => {
    const access = () =>
      h.api.post('/api/vault/access', user.auth, {
        action: 'runtime',
        workspaceId: user.workspaceId,
        secretName: 'STRIPE_KEY',
        subjectType: 'app',
        subjectId: slug,
        appSlug: slug,
      });
    const notInstalled = await access();
    expect(notInstalled.status).toBe(403);
    expect(notInstalled.body.reason).toBe('app_permission_missing');

    const res = await install(user, { permissionsApproved: ALL_PERMISSIONS });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      app: { slug, installCount: 1 },
      installation: { installedVersion: '1.0.0', status: 'active' },
      readiness: { ready: true, missingSecrets: [], missingSkills: [], missingPermissions: [] },
    });
    expect((await install(user, { permissionsApproved: ALL_PERMISSIONS })).status).toBe(409);

    const granted = await access();
    expect(granted.status).toBe(200);
    const credential = await mintCredential(h.api, user);
    const first = await h.api.consume(`Bearer ${credential}`, { grantId: granted.body.grant.id });
    expect(first.body.secret).toEqual({ name: 'STRIPE_KEY', value: stripe });
    expect((await h.api.consume(`Bearer ${credential}`, { grantId: granted.body.grant.id })).status).toBe(
      403,
    );

    // Disabled: no grant; the owner's installation does not stand in for the user's.
    await h.api.patch(`/api/apps/${slug}/installation`, user.auth, { status: 'disabled' });
    expect((await access()).status).toBe(403);
    expect((await h.api.get(`/api/apps/${slug}/readiness`, user.auth)).body.ready).toBe(false);
    await h.api.patch(`/api/apps/${slug}/installation`, user.auth, { status: 'active' });
    expect((await access()).status).toBe(200);
  });

  it('open re-runs readiness: typed failures for not installed, disabled and stale', async () => {
    const open = (who: Account, body: Record<string, unknown> = {}) =>
      h.api.post(`/api/apps/${slug}/open`, who.auth, body);
    const opened = await open(user);
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({
      app: { slug },
      installation: { status: 'active' },
      openUrl: 'https://apps.example.com/ledger',
      target: 'web',
    });
    expect((await open(owner)).status).toBe(404);
    expect((await open(user, { target: 'android' })).status).toBe(409);
    expect((await open(user, { target: 'desktop' })).status).toBe(400);
    await h.api.patch(`/api/apps/${slug}/installation`, user.auth, { permissionsApproved: ['files:read'] });
    const stale = await open(user);
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'APP_NOT_READY', missingPermissions: ['secrets:STRIPE_KEY'] });
    await h.api.patch(`/api/apps/${slug}/installation`, user.auth, { status: 'disabled' });
    expect((await open(user)).body).toMatchObject({ code: 'CONFLICT', status: 'disabled' });
    await h.api.patch(`/api/apps/${slug}/installation`, user.auth, {
      status: 'active',
      permissionsApproved: ALL_PERMISSIONS,
    });
    expect((await open(user)).status).toBe(200);
  });

  it('a secret the manifest does not require is refused even when assigned and approved', async () => {
    const other = secretValue('OTHER_KEY');
    const created = await h.api.post('/api/vault', user.auth, { name: 'OTHER_KEY', value: other });
    await h.api.post('/api/vault/assignments', user.auth, {
      secretId: created.body.secret.id,
      subjectType: 'app',
      subjectId: slug,
    });
    await h.api.patch(`/api/apps/${slug}/installation`, user.auth, {
      permissionsApproved: [...ALL_PERMISSIONS, 'secrets:OTHER_KEY'],
    });
    const res = await h.api.post('/api/vault/access', user.auth, {
      action: 'runtime',
      workspaceId: user.workspaceId,
      secretName: 'OTHER_KEY',
      subjectType: 'app',
      subjectId: slug,
    });
    expect(res.status).toBe(403);
    expect(res.body.reason).toBe('app_permission_missing');
  });

  it('version 2 is an update; applying it and rolling back move between kept versions', async () => {
    expect((await h.api.post(`/api/apps/${slug}/rollback`, user.auth)).status).toBe(409);
    const v2 = await publish(
      owner,
      ledger({ manifest: manifest({ version: '2.0.0' }), releaseNotes: 'Charts.' }),
    );
    expect(v2.status).toBe(200);
    expect(v2.body.app.versions.map((v: { version: string }) => v.version)).toEqual(['1.0.0', '2.0.0']);
    const updates = await h.api.get('/api/apps/updates', user.auth);
    expect(updates.body).toMatchObject({
      total: 1,
      updates: [
        { app: { slug }, currentVersion: '2.0.0', installedVersion: '1.0.0', releaseNotes: 'Charts.' },
      ],
    });
    expect((await h.api.get(`/api/apps/${slug}/readiness`, user.auth)).body.updateAvailable).toBe(true);
    const applied = await h.api.post('/api/apps/updates', user.auth);
    expect(applied.body).toMatchObject({ total: 1, updated: [{ slug, from: '1.0.0', to: '2.0.0' }] });
    expect((await h.api.get('/api/apps/updates', user.auth)).body.total).toBe(0);
    const back = await h.api.post(`/api/apps/${slug}/rollback`, user.auth);
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({
      rolledBackTo: '1.0.0',
      installation: { installedVersion: '1.0.0', status: 'active' },
    });
    expect((await h.api.post(`/api/apps/${slug}/rollback`, user.auth)).status).toBe(409);
  });

  it("the developer profile's downloads count package downloads and installs", async () => {
    const app = (await h.api.get(`/api/apps/${slug}`)).body.app;
    expect(app).toMatchObject({ installCount: 1, downloadCount: 1 });
    const profile = await h.api.get(`/api/developers/${app.developer}`);
    expect(profile.body.developer).toMatchObject({ appsPublished: 1, downloads: 2 });
  });

  it('discovery computes its sections from installs and versions', async () => {
    const slugs = (section: { apps: { slug: string }[] }) => section.apps.map((a) => a.slug);
    const anonymous = await h.api.get('/api/apps/discovery');
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.installedSlugs).toEqual([]);
    const mine = await h.api.get('/api/apps/discovery', user.auth);
    expect(mine.body.installedSlugs).toEqual([slug]);
    const sections = Object.fromEntries(
      mine.body.sections.map((s: { id: string; apps: { slug: string }[] }) => [s.id, s]),
    );
    // The seed catalog (twelve apps, none installed or updated) fills the rows after this app.
    expect(Object.keys(sections)).toEqual([
      'featured',
      'trending',
      'recommended',
      'new-releases',
      'recently-updated',
      'top-installed',
      'category:Data',
      'category:Finance',
      'category:Operations',
      'category:Research',
      'developer-spotlight',
    ]);
    for (const id of ['featured', 'trending', 'recently-updated'])
      expect(slugs(sections[id])).toEqual([slug]);
    expect(slugs(sections['top-installed'])[0]).toBe(slug);
    expect(slugs(sections['top-installed'])).toHaveLength(8);
    expect(slugs(sections['category:Finance'])).toEqual([slug, 'fx-board', 'iban-checker', 'invoice-studio']);
    // Installed already: not recommended to this account, which gets the rest of its category;
    // recommended to a newcomer, most installed first.
    expect(slugs(sections.recommended)).toEqual(['fx-board', 'iban-checker', 'invoice-studio']);
    const fresh = Object.fromEntries(
      anonymous.body.sections.map((s: { id: string; apps: { slug: string }[] }) => [s.id, s]),
    );
    expect(slugs(fresh.recommended)[0]).toBe(slug);
    expect(sections['developer-spotlight'].developer).toBe(mine.body.hero.developer);
    expect(slugs(sections['developer-spotlight'])).toEqual([slug]);
    expect(mine.body).toMatchObject({
      hero: { slug },
      categories: ['Data', 'Finance', 'Operations', 'Research'],
    });
  });

  it('uninstall removes the installation; the vault refuses afterwards', async () => {
    const removed = await h.api.del(`/api/apps/${slug}/installation`, user.auth);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ removed: true, installation: { status: 'removed' } });
    expect((await h.api.get('/api/apps/installed', user.auth)).body.installedApps).toEqual([]);
    expect((await h.api.del(`/api/apps/${slug}/installation`, user.auth)).status).toBe(404);
    const res = await h.api.post('/api/vault/access', user.auth, {
      action: 'runtime',
      workspaceId: user.workspaceId,
      secretName: 'STRIPE_KEY',
      subjectType: 'app',
      subjectId: slug,
    });
    expect(res.status).toBe(403);
    expect((await h.api.patch(`/api/apps/${slug}/installation`, user.auth, {})).status).toBe(400);
  });
});
