import { bearer, startSkillsHarness, type SkillsHarness } from './support/harness';

/** The Studio's skill commands against the store (docs/studio.md, docs/skills.md). */
describe('Studio: skills search, install, use', () => {
  let h: SkillsHarness;
  let t: string;
  beforeAll(async () => {
    h = await startSkillsHarness();
    t = await h.account();
  });
  afterAll(() => h?.stop());

  const command = (body: Record<string, unknown>) =>
    h.http().post('/api/studio/command').set(bearer(t)).send(body);

  it('skills search finds skills by name, slug and description', async () => {
    const res = await command({ command: 'skills search markdown' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: 'result', snippet: 'GET /api/skills?search=markdown' });
    expect(res.body.result.skills.map((s: { slug: string }) => s.slug)).toEqual(
      expect.arrayContaining(['markdown-renderer', 'report-builder']),
    );
  });

  it('skills install previews (permissions, dependencies), then installs with the confirmToken', async () => {
    const preview = await command({ command: 'skills install memo-pad' });
    expect(preview.body).toMatchObject({
      kind: 'preview',
      confirmToken: expect.any(String),
      result: { skill: { slug: 'memo-pad' }, permissionsApproved: ['mem'], dependencies: [] },
    });
    expect((await h.http().get('/api/skills/installed').set(bearer(t))).body.installed_skills).toEqual([]);
    const done = await command({
      command: 'skills install memo-pad',
      confirmToken: preview.body.confirmToken,
    });
    expect(done.body).toMatchObject({ kind: 'result', summary: 'memo-pad installed' });
    const installed = (await h.http().get('/api/skills/installed').set(bearer(t))).body.installed_skills;
    expect(installed).toEqual([
      expect.objectContaining({
        skill: expect.objectContaining({ slug: 'memo-pad' }),
        missingPermissions: [],
      }),
    ]);
    const reused = await command({
      command: 'skills install memo-pad',
      confirmToken: preview.body.confirmToken,
    });
    expect(reused.body).toMatchObject({ kind: 'error', result: { code: 'INVALID_CONFIRM_TOKEN' } });

    const withDeps = await command({ command: 'skills install seo-audit' });
    expect(withDeps.body.result.dependencies).toEqual(['html-extractor']);
    const ran = await command({
      command: 'skills install seo-audit',
      confirmToken: withDeps.body.confirmToken,
    });
    expect(ran.body.summary).toBe('seo-audit installed with html-extractor');
  });

  it('skills use runs a read-only capability at once and previews a mutating one', async () => {
    const read = await command({ command: 'skills use memo-pad recall --json {"topic":"studio"}' });
    expect(read.body).toMatchObject({
      kind: 'result',
      result: { topic: 'studio', found: false, notes: [] },
      execution: { id: expect.stringMatching(/^exe_/), status: 'COMPLETED' },
    });
    const write = await command({
      command: 'skills use memo-pad remember --json {"topic":"studio","note":"hi"}',
    });
    expect(write.body).toMatchObject({
      kind: 'preview',
      result: { skill: 'memo-pad', capability: 'remember' },
    });
    const done = await command({
      command: 'skills use memo-pad remember --json {"topic":"studio","note":"hi"}',
      confirmToken: write.body.confirmToken,
    });
    expect(done.body).toMatchObject({
      kind: 'result',
      result: { notes: 1 },
      execution: { status: 'COMPLETED' },
    });
    const bad = await command({ command: 'skills use memo-pad recall --json {"topic":"no spaces allowed"}' });
    expect(bad.body).toMatchObject({ kind: 'error', result: { code: 'VALIDATION_ERROR' } });
    const notInstalled = await command({ command: 'skills use csv-toolkit parse --json {"csv":"a"}' });
    expect(notInstalled.body).toMatchObject({ kind: 'error', result: { code: 'PERMISSION_DENIED' } });
  });
});
