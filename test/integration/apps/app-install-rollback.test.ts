import { randomBytes } from 'node:crypto';
import { startVaultHarness, type Account, type VaultHarness } from '../vault/support/vault-harness';

/**
 * Rolling back an APP_INSTALL execution uninstalls what it installed (docs/apps.md): the
 * installation is removed, the library entry dropped, and the app no longer listed as installed;
 * an installation moved to another version since is not touched (the rollback reports why).
 */

let h: VaultHarness;
let dev: Account;
const suffix = randomBytes(3).toString('hex');

beforeAll(async () => {
  h = await startVaultHarness();
  dev = await h.account();
}, 60_000);
afterAll(async () => {
  await h?.stop();
  h?.cleanup();
});

const slug = `ledger-${suffix}`;
const publish = (version: string) =>
  h.api.post('/api/apps', dev.auth, {
    slug,
    name: 'Ledger',
    category: 'Finance',
    description: 'Keeps a ledger of a team.',
    manifest: { version, entrypoint: 'index.html', distribution: { webUrl: 'https://apps.example.com/l' } },
  });
const rollback = (who: Account, executionId: string) =>
  h.api.post(`/api/executions/${executionId}/actions`, who.auth, { action: 'rollback' });
const installed = async (who: Account) =>
  (await h.api.get('/api/apps/installed', who.auth)).body.installedApps.map((a: { slug: string }) => a.slug);
const libraryCount = (who: Account) =>
  h.runtime.documents.db.collection('app_library').countDocuments({ accountId: who.accountId, slug });

describe('rolling back an app install', () => {
  beforeAll(async () => {
    expect((await publish('1.0.0')).status).toBe(201);
  });

  it('uninstalls the app: installation removed, library entry dropped; a second rollback finds nothing to undo', async () => {
    const user = await h.account();
    const res = await h.api.post('/api/apps/install', user.auth, { slug });
    expect(res.status).toBe(201);
    expect(await installed(user)).toContain(slug);
    expect(await libraryCount(user)).toBe(1);

    const back = await rollback(user, res.body.execution.id);
    expect(back.status).toBe(200);
    expect(back.body.rollback.undone).toEqual([
      expect.objectContaining({ kind: 'app_install', target: `app:${slug}@1.0.0` }),
    ]);
    expect(back.body.rollback.notUndone).toEqual([]);
    expect(await installed(user)).not.toContain(slug);
    expect(await libraryCount(user)).toBe(0);
    const activity = (await h.api.get('/api/apps/activity', user.auth)).body.activity;
    expect(activity[0]).toMatchObject({ slug, kind: 'uninstall' });

    const again = await rollback(user, res.body.execution.id);
    expect(again.body.rollback).toEqual({ undone: [], notUndone: [] });
  });

  it('never removes a later install of the same app (removed by hand and installed again)', async () => {
    const user = await h.account();
    const first = await h.api.post('/api/apps/install', user.auth, { slug });
    expect((await h.api.del(`/api/apps/${slug}/installation`, user.auth)).status).toBe(200);
    expect((await h.api.post('/api/apps/install', user.auth, { slug })).status).toBe(201);
    const back = await rollback(user, first.body.execution.id);
    expect(back.body.rollback.notUndone).toEqual([
      {
        effect: expect.objectContaining({ kind: 'app_install' }),
        reason: expect.stringContaining('installed again'),
      },
    ]);
    expect(await installed(user)).toContain(slug);
  });

  it('leaves an installation updated since in place and says why', async () => {
    const user = await h.account();
    const res = await h.api.post('/api/apps/install', user.auth, { slug });
    expect(res.status).toBe(201);
    expect((await publish('1.1.0')).status).toBe(200);
    expect((await h.api.post('/api/apps/updates', user.auth)).body.total).toBe(1);

    const back = await rollback(user, res.body.execution.id);
    expect(back.body.rollback.undone).toEqual([]);
    expect(back.body.rollback.notUndone).toEqual([
      {
        effect: expect.objectContaining({ kind: 'app_install' }),
        reason: expect.stringContaining('is at version 1.1.0 now, not 1.0.0'),
      },
    ]);
    expect(await installed(user)).toContain(slug);
  });
});
