import { SEED_APPS } from '../../../actors/apps/app-seed-catalog';
import { loadCatalog } from '../../../actors/skills/catalog-loader';
import { bearer, startSkillsHarness, type SkillsHarness } from './support/harness';

describe('developer profiles: GET /api/developers/{handle}', () => {
  let h: SkillsHarness;
  const catalog = loadCatalog();
  beforeAll(async () => {
    h = await startSkillsHarness();
  });
  afterAll(() => h?.stop());

  const profile = async (handle: string) => {
    const res = await h.http().get(`/api/developers/${handle}`);
    expect(res.status).toBe(200);
    return res.body.developer;
  };

  it("the platform's own handle authors the seed catalogs; counts come from installs and uses", async () => {
    const before = await profile('platform');
    expect(before).toMatchObject({
      handle: 'platform',
      kind: 'platform',
      appsPublished: SEED_APPS.length,
      skillsPublished: catalog.length,
      followers: 0,
      downloads: 0,
      activeUsers: 0,
    });
    expect(before.skills).toHaveLength(catalog.length);
    expect(before.apps).toHaveLength(SEED_APPS.length);

    const a = await h.account();
    const b = await h.account();
    await h.install(a, { slug: 'report-builder' }); // two installs: the skill and its dependency
    await h.install(b, { slug: 'text-diff' });
    expect((await h.use(a, 'markdown-renderer', 'to_html', { markdown: '# hi' })).status).toBe(200);
    await h.http().patch('/api/skills/text-diff/installation').set(bearer(b)).send({ status: 'disabled' });

    const after = await profile('platform');
    expect(after).toMatchObject({ downloads: 3, followers: 1, activeUsers: 1 });
    expect(after.skills[0].installs).toBe(1);
  });

  it('an unknown handle is 404, a malformed one 400', async () => {
    const unknown = await h.http().get('/api/developers/nobody-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'NOT_FOUND', error: expect.stringContaining('nobody-here') });
    expect((await h.http().get('/api/developers/Not%20Valid')).status).toBe(400);
  });
});
