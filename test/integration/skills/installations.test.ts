import { bearer, startSkillsHarness, type SkillsHarness } from './support/harness';

describe('skill store: installations', () => {
  let h: SkillsHarness;
  let token: string;
  beforeAll(async () => {
    h = await startSkillsHarness();
    token = await h.account();
  });
  afterAll(() => h?.stop());

  const installed = async (t: string) => {
    const res = await h.http().get('/api/skills/installed').set(bearer(t));
    expect(res.status).toBe(200);
    return res.body.installed_skills as Array<{
      id: string;
      installed_at: string;
      skill: { slug: string };
      status: string;
    }>;
  };
  const skill = async (slug: string) =>
    (await h.http().get('/api/skills').query({ search: slug })).body.skills.find(
      (s: { slug: string }) => s.slug === slug,
    );

  it('installs a skill with its required dependency first, and the optional ones asked for', async () => {
    const before = await skill('markdown-renderer');
    const res = await h.install(token, { slug: 'report-builder' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      success: true,
      installation: {
        id: expect.stringMatching(/^sin_/),
        installed_at: expect.any(String),
        status: 'active',
        permissionsApproved: [],
        missingPermissions: [],
        skill: { slug: 'report-builder' },
      },
      skill: {
        slug: 'report-builder',
        capabilities: [expect.objectContaining({ paramsSchema: expect.any(Object) })],
      },
      dependenciesInstalled: [expect.objectContaining({ slug: 'markdown-renderer' })],
    });
    expect((await installed(token)).map((i) => i.skill.slug).sort()).toEqual([
      'markdown-renderer',
      'report-builder',
    ]);
    expect((await skill('markdown-renderer')).installs).toBe(before.installs + 1);

    const again = await h.install(token, { slug: 'report-builder', optionalDependencies: ['text-stats'] });
    expect(again.status).toBe(200);
    expect(again.body.dependenciesInstalled.map((d: { slug: string }) => d.slug)).toEqual(['text-stats']);
    const third = await h.install(token, { skill_id: again.body.skill.skill_id, slug: 'report-builder' });
    expect(third.status).toBe(200);
    expect(third.body.dependenciesInstalled).toEqual([]);
  });

  it('records permissions the skill needs but the caller did not approve as missing (installed, active)', async () => {
    const res = await h.install(token, { slug: 'memo-pad' });
    expect(res.status).toBe(201);
    expect(res.body.installation).toMatchObject({
      status: 'active',
      permissionsApproved: [],
      missingPermissions: ['mem'],
    });
    const approved = await h.install(token, { slug: 'memo-pad', permissionsApproved: ['mem', 'mem'] });
    expect(approved.body.installation).toMatchObject({
      permissionsApproved: ['mem'],
      missingPermissions: [],
    });
  });

  it('refuses what it cannot install, before writing anything', async () => {
    const t = await h.account();
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{}, 400, 'VALIDATION_ERROR'],
      [{ slug: 'no-such-skill' }, 404, 'NOT_FOUND'],
      [{ skill_id: '00000000-0000-4000-8000-000000000000' }, 404, 'NOT_FOUND'],
      [{ slug: 'Not A Slug' }, 400, 'VALIDATION_ERROR'],
      [{ slug: 'csv-toolkit', permissionsApproved: ['root'] }, 400, 'VALIDATION_ERROR'],
      [{ slug: 'report-builder', optionalDependencies: ['csv-toolkit'] }, 400, 'VALIDATION_ERROR'],
      [{ slug: 'report-builder', skill_id: (await skill('csv-toolkit')).skill_id }, 400, 'VALIDATION_ERROR'],
      [{ slug: 'report-builder', installDependencies: false }, 409, 'CONFLICT'],
    ];
    for (const [body, status, code] of cases) {
      const res = await h.install(t, body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status, code });
      expect(res.body.error).toEqual(expect.any(String));
    }
    const conflict = await h.install(t, { slug: 'report-builder', installDependencies: false });
    expect(conflict.body.missingSkills).toEqual(['markdown-renderer']);
    expect(await installed(t)).toEqual([]);
    // With the dependency there, installDependencies: false installs the skill alone.
    await h.install(t, { slug: 'markdown-renderer' });
    const alone = await h.install(t, { slug: 'report-builder', installDependencies: false });
    expect(alone.status).toBe(201);
    expect(alone.body.dependenciesInstalled).toEqual([]);
  });

  it('changes status and approved permissions; removed skills leave the installed list', async () => {
    const t = await h.account();
    await h.install(t, { slug: 'http-json-fetch', permissionsApproved: ['net'] });
    const patch = (ref: string, body: unknown) =>
      h
        .http()
        .patch(`/api/skills/${ref}/installation`)
        .set(bearer(t))
        .send(body as object);

    const revoked = await patch('http-json-fetch', { permissionsApproved: [] });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({
      skill: { slug: 'http-json-fetch' },
      installation: { status: 'active', permissionsApproved: [], missingPermissions: ['net'] },
    });
    const before = await skill('http-json-fetch');
    const disabled = await patch(before.skill_id, { status: 'disabled' });
    expect(disabled.body.installation.status).toBe('disabled');
    expect((await skill('http-json-fetch')).activeInstalls).toBe(before.activeInstalls - 1);
    expect((await installed(t)).map((i) => [i.skill.slug, i.status])).toEqual([
      ['http-json-fetch', 'disabled'],
    ]);
    const removed = await patch('http-json-fetch', { status: 'removed' });
    expect(removed.body.installation.status).toBe('removed');
    expect(await installed(t)).toEqual([]);
    const back = await patch('http-json-fetch', { status: 'active', permissionsApproved: ['net'] });
    expect(back.body.installation).toMatchObject({ status: 'active', missingPermissions: [] });

    expect((await patch('http-json-fetch', {})).status).toBe(400);
    expect((await patch('http-json-fetch', { status: 'paused' })).status).toBe(400);
    expect((await patch('csv-toolkit', { status: 'active' })).status).toBe(404);
    expect((await patch('no-such-skill', { status: 'active' })).status).toBe(404);
  });

  it("installations are the account's: its deployed agents install for it, others see nothing", async () => {
    const t = await h.account();
    const agentKey = await h.agent(t);
    const res = await h.install(agentKey, { slug: 'text-diff' });
    expect(res.status).toBe(201);
    expect(res.body.installation.installedBy).toEqual({
      kind: 'agent',
      agentRef: expect.stringMatching(/^agref-/),
    });
    expect((await installed(t)).map((i) => i.skill.slug)).toEqual(['text-diff']);
    expect((await installed(await h.account())).length).toBe(0);
    const discovery = await h.http().get('/api/skills/discovery').set(bearer(t));
    expect(discovery.body.installedSlugs).toEqual(['text-diff']);
  });

  it('rates installed skills: the average and the rating sort follow', async () => {
    const [a, b] = [await h.account(), await h.account()];
    const rate = (t: string, slug: string, stars: unknown) =>
      h.http().post(`/api/skills/${slug}/rating`).set(bearer(t)).send({ stars });
    expect((await rate(a, 'unit-converter', 5)).status).toBe(403); // not installed
    await h.install(a, { slug: 'unit-converter' });
    await h.install(b, { slug: 'unit-converter' });
    await h.install(a, { slug: 'semver-tools' });
    expect((await rate(a, 'unit-converter', 5)).body).toMatchObject({
      skill: { rating: 5, ratingCount: 1 },
      installation: { rating: 5 },
    });
    expect((await rate(b, 'unit-converter', 2)).body.skill).toMatchObject({ rating: 3.5, ratingCount: 2 });
    expect((await rate(b, 'unit-converter', 4)).body.skill).toMatchObject({ rating: 4.5, ratingCount: 2 });
    await rate(a, 'semver-tools', 3);
    const sorted = await h.http().get('/api/skills').query({ sort: 'rating', limit: 2 });
    expect(sorted.body.skills.map((s: { slug: string; rating: number }) => [s.slug, s.rating])).toEqual([
      ['unit-converter', 4.5],
      ['semver-tools', 3],
    ]);
    expect((await rate(a, 'unit-converter', 6)).status).toBe(400);
    expect((await rate(a, 'unit-converter', 'five')).status).toBe(400);
    const discovery = await h.http().get('/api/skills/discovery');
    expect(discovery.body.sections.find((s: { id: string }) => s.id === 'top-rated').skills[0].slug).toBe(
      'unit-converter',
    );
  });

  it('needs credentials, and an account', async () => {
    expect((await h.http().post('/api/skills/install').send({ slug: 'text-diff' })).status).toBe(401);
    expect((await h.http().get('/api/skills/installed')).status).toBe(401);
    const registered = await h
      .http()
      .post('/register')
      .send({ name: `self-${Date.now()}` });
    const self = registered.body.token as string;
    const res = await h.install(self, { slug: 'text-diff' });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/operator account/);
  });
});
