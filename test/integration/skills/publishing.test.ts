import { bearer, startSkillsHarness, type SkillsHarness } from './support/harness';

const greeter = (overrides: Record<string, unknown> = {}) => ({
  slug: 'acme-greeter',
  name: 'Acme Greeter',
  category: 'communication',
  version: '1.0.0',
  description: 'Greets people by name, politely.',
  library: 'function library() { return { greet: (name) => "Hello, " + name + "!" }; }',
  capabilities: [
    {
      name: 'greet',
      description: 'A greeting for name.',
      code: 'function run(params) { return { greeting: lib.greet(params.name) }; }',
      paramsSchema: {
        type: 'object',
        properties: { name: { type: 'string', minLength: 1 } },
        required: ['name'],
        additionalProperties: false,
      },
    },
  ],
  example: { capability: 'greet', params: { name: 'Ada' } },
  ...overrides,
});

describe('skill store: publishing by enterprise accounts (POST /api/skills)', () => {
  let h: SkillsHarness;
  let acme: string;
  const publish = (token: string, body: Record<string, unknown>) =>
    h.http().post('/api/skills').set(bearer(token)).send(body);

  beforeAll(async () => {
    h = await startSkillsHarness();
    acme = await h.account('enterprise_plus', `Acme Labs ${Date.now()}`);
  });
  afterAll(() => h?.stop());

  it('publishes with the same checks as the catalog; the preview shows what the example really returns', async () => {
    const res = await publish(acme, greeter());
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      success: true,
      developer: { handle: expect.stringMatching(/^acme-labs-\d+$/) },
      skill: {
        slug: 'acme-greeter',
        category: 'Communication',
        version: '1.0.0',
        author: res.body.developer.handle,
      },
    });
    const handle = res.body.developer.handle;
    const preview = await h.http().get('/api/skills/acme-greeter/preview');
    expect(preview.body.preview).toMatchObject({
      inputExample: { capability: 'greet', params: { name: 'Ada' } },
      outputExample: { greeting: 'Hello, Ada!' },
    });
    const listed = await h.http().get('/api/skills').query({ author: handle });
    expect(listed.body.skills.map((s: { slug: string }) => s.slug)).toEqual(['acme-greeter']);

    // Anyone installs and uses it; the developer's profile counts it.
    const user = await h.account();
    await h.install(user, { slug: 'acme-greeter' });
    const used = await h.use(user, 'acme-greeter', 'greet', { name: 'Grace' });
    expect(used.body).toMatchObject({ success: true, result: { greeting: 'Hello, Grace!' } });
    const profile = await h.http().get(`/api/developers/${handle}`);
    expect(profile.body.developer).toMatchObject({
      handle,
      kind: 'enterprise',
      skillsPublished: 1,
      downloads: 1,
      followers: 1,
      activeUsers: 1,
    });

    // A new version by its publisher updates it in place (installs kept); the same version is 409.
    expect((await publish(acme, greeter())).status).toBe(409);
    const v2 = await publish(acme, greeter({ version: '1.1.0', description: 'Greets people by name.' }));
    expect(v2.status).toBe(200);
    expect(v2.body.skill).toMatchObject({ version: '1.1.0', installs: 1 });
  });

  it('refuses retail accounts, agents, taken slugs and handles', async () => {
    const retail = await h.account();
    const refused = await publish(retail, greeter({ slug: 'retail-greeter' }));
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('Plan capability required: publish_skill');
    const agent = await h.agent(acme);
    expect((await publish(agent, greeter({ slug: 'agent-greeter' }))).status).toBe(403);
    const other = await h.account('enterprise_plus');
    expect((await publish(other, greeter())).status).toBe(409); // another publisher's slug
    expect((await publish(other, greeter({ slug: 'csv-toolkit' }))).status).toBe(409); // the catalog's
    const handle = await publish(other, greeter({ slug: 'other-greeter', developerHandle: 'platform' }));
    expect(handle.status).toBe(409);
    expect(handle.body.field).toBe('developerHandle');
  });

  it('refuses content that does not check out, with a readable 400', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ capabilities: [] }, /capabilities/],
      [{ category: 'Gardening' }, /category/],
      [{ version: '1.0' }, /major\.minor\.patch/],
      [{ example: { capability: 'wave', params: {} } }, /example names no capability/],
      [{ example: { capability: 'greet', params: {} } }, /example's params do not fit/],
      [{ library: undefined }, /The example failed: TypeError: not a function/],
      [
        { capabilities: [{ ...greeter().capabilities[0], code: 'function run(params) { return {' }] },
        /does not compile/,
      ],
      [
        { capabilities: [{ ...greeter().capabilities[0], paramsSchema: { type: 'array' } }] },
        /object|Invalid/,
      ],
      [{ dependencies: { required: ['no-such-skill'] } }, /Unknown dependencies: no-such-skill/],
      [{ permissions_required: ['root'] }, /permissions_required/],
    ];
    for (const [overrides, message] of cases) {
      const res = await publish(acme, greeter({ slug: 'broken-greeter', ...overrides }));
      expect({ overrides, status: res.status }).toEqual({ overrides, status: 400 });
      expect(res.body.error).toMatch(message);
    }
    expect((await h.http().get('/api/skills/broken-greeter/preview')).status).toBe(404);
  });

  it('dependencies must exist and make no cycle; a draft is not listed', async () => {
    const base = greeter({ slug: 'acme-base', capabilities: greeter().capabilities });
    expect((await publish(acme, base)).status).toBe(201);
    const top = greeter({ slug: 'acme-top', dependencies: { required: ['acme-base'] } });
    expect((await publish(acme, top)).status).toBe(201);
    const cycle = await publish(acme, {
      ...base,
      version: '1.0.1',
      dependencies: { required: ['acme-top'] },
    });
    expect(cycle.status).toBe(409);
    expect(cycle.body.error).toBe('Dependency cycle: acme-base → acme-top → acme-base');
    const draft = await publish(acme, greeter({ slug: 'acme-draft', published: false }));
    expect(draft.status).toBe(201);
    expect((await h.http().get('/api/skills/acme-draft/preview')).status).toBe(404);
    expect((await h.install(acme, { slug: 'acme-draft' })).status).toBe(404);
  });
});
