import { randomBytes } from 'node:crypto';
import { startVaultHarness, type Account, type VaultHarness } from '../vault/support/vault-harness';

/** `GET /api/apps/library`: the account's library entries with their devices (docs/apps.md). */

let h: VaultHarness;
let dev: Account;
const suffix = randomBytes(3).toString('hex');
const slug = `atlas-${suffix}`;

beforeAll(async () => {
  h = await startVaultHarness();
  dev = await h.account();
  const published = await h.api.post('/api/apps', dev.auth, {
    slug,
    name: 'Atlas',
    category: 'Research',
    description: 'Maps what a team knows.',
    deviceTargets: ['desktop'],
    manifest: {
      version: '1.0.0',
      entrypoint: 'index.html',
      distribution: { webUrl: 'https://apps.example.com/a' },
    },
  });
  expect(published.status).toBe(201);
}, 60_000);
afterAll(async () => {
  await h?.stop();
  h?.cleanup();
});

describe('the app library', () => {
  it('lists installed apps with their devices, only the caller’s, and drops an entry on removal', async () => {
    const user = await h.account();
    const other = await h.account();
    expect((await h.api.get('/api/apps/library')).status).toBe(401);
    expect((await h.api.get('/api/apps/library', user.auth)).body).toEqual({ library: [], total: 0 });

    expect((await h.api.post('/api/apps/install', user.auth, { slug })).status).toBe(201);
    expect((await h.api.post(`/api/apps/${slug}/device-install`, user.auth, { target: 'pwa' })).status).toBe(
      201,
    );
    const listed = await h.api.get('/api/apps/library', user.auth);
    expect(listed.status).toBe(200);
    expect(listed.body.total).toBe(1);
    expect(listed.body.library).toEqual([
      expect.objectContaining({
        slug,
        name: 'Atlas',
        workspaceId: user.workspaceId,
        devices: [expect.objectContaining({ target: 'pwa', version: '1.0.0' })],
      }),
    ]);
    expect((await h.api.get('/api/apps/library', other.auth)).body.total).toBe(0);

    expect((await h.api.del(`/api/apps/${slug}/installation`, user.auth)).status).toBe(200);
    expect((await h.api.get('/api/apps/library', user.auth)).body).toEqual({ library: [], total: 0 });
  });
});
