import { bearer, startSkillsHarness, type SkillsHarness } from '../skills/support/harness';

/** The Studio's `apps` commands against the seeded app store (docs/studio.md, docs/apps.md). */
describe('Studio: apps list, search, install, open', () => {
  let h: SkillsHarness;
  let t: string;
  beforeAll(async () => {
    h = await startSkillsHarness();
    t = await h.account();
  });
  afterAll(() => h?.stop());

  const command = (body: Record<string, unknown>) =>
    h.http().post('/api/studio/command').set(bearer(t)).send(body);

  it('apps list shows the store with the caller’s apps marked; apps search filters it', async () => {
    const list = await command({ command: 'apps list' });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ kind: 'result', snippet: 'GET /api/apps' });
    expect(list.body.result.total).toBeGreaterThanOrEqual(8);
    expect(list.body.result.apps.every((a: { installed: boolean }) => !a.installed)).toBe(true);
    const search = await command({ command: 'apps search invoice' });
    expect(search.body.result.apps.map((a: { slug: string }) => a.slug)).toEqual(['invoice-studio']);
    expect((await command({ command: 'apps search' })).body.result.code).toBe('SYNTAX_ERROR');
    const help = await command({ command: 'help' });
    expect(help.body.result.commands.map((c: { usage: string }) => c.usage)).toContain('apps install <slug>');
  });

  it('apps install previews readiness, refuses while a skill is missing, then installs with the token', async () => {
    const preview = await command({ command: 'apps install iban-checker' });
    expect(preview.body).toMatchObject({
      kind: 'preview',
      confirmToken: expect.any(String),
      result: { app: { slug: 'iban-checker' }, permissionsApproved: [], missingSkills: ['iban-validator'] },
    });
    const refused = await command({
      command: 'apps install iban-checker',
      confirmToken: preview.body.confirmToken,
    });
    expect(refused.body).toMatchObject({ kind: 'error', result: { code: 'SKILL_REQUIRED' } });
    expect((await h.http().get('/api/apps/installed').set(bearer(t))).body.installedApps).toEqual([]);

    await h.http().post('/api/skills/install').set(bearer(t)).send({ slug: 'iban-validator' }).expect(201);
    const again = await command({ command: 'apps install iban-checker' });
    expect(again.body.result.missingSkills).toEqual([]);
    const done = await command({
      command: 'apps install iban-checker',
      confirmToken: again.body.confirmToken,
    });
    expect(done.body).toMatchObject({
      kind: 'result',
      summary: 'IBAN Checker 1.0.0 installed and ready',
      execution: { id: expect.stringMatching(/^exe_/), status: 'COMPLETED' },
    });
    const execution = await h.http().get(`/api/executions/${done.body.execution.id}`).set(bearer(t));
    expect(execution.body.execution).toMatchObject({ type: 'APP_INSTALL', appSlug: 'iban-checker' });
    const list = await command({ command: 'apps list' });
    const mine = list.body.result.apps.find((a: { slug: string }) => a.slug === 'iban-checker');
    expect(mine).toMatchObject({ installed: true, ready: true, installs: 1 });
  });

  it('apps open answers the URL, or the typed failure as an error', async () => {
    const opened = await command({ command: 'apps open iban-checker' });
    expect(opened.body).toMatchObject({
      kind: 'result',
      result: { slug: 'iban-checker', target: 'web', openUrl: 'https://apps.example.com/iban-checker' },
    });
    expect((await command({ command: 'apps open iban-checker ios' })).body.result.code).toBe('CONFLICT');
    expect((await command({ command: 'apps open csv-explorer' })).body.result.code).toBe('NOT_FOUND');
    expect((await command({ command: 'apps open iban-checker desktop' })).body.result.code).toBe(
      'SYNTAX_ERROR',
    );
    expect((await command({ command: 'apps install NOPE' })).body.result.code).toBe('SYNTAX_ERROR');
    expect((await command({ command: 'apps install no-such-app' })).body.result.code).toBe('NOT_FOUND');
  });
});
