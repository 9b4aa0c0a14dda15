import { loadCatalog } from '../../../actors/skills/catalog-loader';
import { seedCatalog } from '../../../actors/skills/catalog-seed';
import { developersCollection, skillsCollection } from '../../../actors/skills/skills.collection';
import { silentLogger } from '../../../src/logging/logger';
import { SKILL_CATEGORIES } from '../../../schemas/documents/skill';
import { startSkillsHarness, type SkillsHarness } from './support/harness';

describe('skill store: listing, discovery and previews (no credentials)', () => {
  let h: SkillsHarness;
  const catalog = loadCatalog();
  beforeAll(async () => {
    h = await startSkillsHarness();
  });
  afterAll(() => h?.stop());

  it('seeds the catalog at boot, idempotently: again changes nothing, a change rewrites only the content', async () => {
    const skills = h.runtime.documents.repository(skillsCollection);
    const developers = h.runtime.documents.repository(developersCollection);
    expect(await skills.count({ listed: true })).toBe(catalog.length);
    expect(await developers.findById('platform')).toMatchObject({ kind: 'platform' });
    const deps = { skills, developers, logger: silentLogger };
    // Another process booting (or ops bootstrap) finds everything in place.
    expect(await seedCatalog(deps, catalog)).toEqual({
      inserted: 0,
      updated: 0,
      unchanged: catalog.length,
      unlisted: 0,
      skipped: [],
    });
    await skills.updateOne({ slug: 'ip-calculator' }, { $set: { installCount: 7 } });
    const changed = catalog.map((s) => (s.slug === 'ip-calculator' ? { ...s, description: 'Subnets.' } : s));
    expect(await seedCatalog(deps, changed)).toMatchObject({ inserted: 0, updated: 1 });
    expect(await skills.findOne({ slug: 'ip-calculator' })).toMatchObject({
      description: 'Subnets.',
      installCount: 7,
    });
    const without = catalog.filter((s) => s.slug !== 'ip-calculator');
    expect(await seedCatalog(deps, without)).toMatchObject({ unlisted: 1 });
    expect((await h.http().get('/api/skills/ip-calculator/preview')).status).toBe(404);
    expect(await seedCatalog(deps, catalog)).toMatchObject({ updated: 1, unlisted: 0 });
    await skills.updateOne({ slug: 'ip-calculator' }, { $set: { installCount: 0 } });
  });

  it('lists 20 by default, most popular first, with pagination', async () => {
    const res = await h.http().get('/api/skills');
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: catalog.length });
    expect(res.body.skills).toHaveLength(20);
    const skill = res.body.skills[0];
    expect(skill).toMatchObject({
      skill_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      slug: expect.any(String),
      author: 'platform',
      version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
      capabilities: expect.arrayContaining([
        expect.objectContaining({ tool: expect.stringMatching(/^platform\.skill\./) }),
      ]),
    });
    expect(JSON.stringify(res.body)).not.toMatch(/function run|"code"|paramsSchema/);
    const page2 = await h.http().get('/api/skills?page=2&limit=20');
    const slugs = new Set(res.body.skills.map((s: { slug: string }) => s.slug));
    expect(page2.body.skills.some((s: { slug: string }) => slugs.has(s.slug))).toBe(false);
    expect(slugs.size + page2.body.skills.length).toBe(catalog.length);
  });

  it('filters by category (any case), author and search, and sorts by name', async () => {
    const data = await h
      .http()
      .get('/api/skills')
      .query({ category: 'data & analytics', sort: 'name', limit: 50 });
    expect(data.status).toBe(200);
    const expected = catalog
      .filter((s) => s.category === 'Data & Analytics')
      .map((s) => s.name)
      .sort();
    expect(data.body.skills.map((s: { name: string }) => s.name)).toEqual(expected);
    expect(data.body.pagination.total).toBe(expected.length);

    const search = await h.http().get('/api/skills').query({ search: 'IBAN' });
    expect(search.body.skills.map((s: { slug: string }) => s.slug)).toEqual(['iban-validator']);
    const bySlug = await h.http().get('/api/skills').query({ search: 'csv-tool' });
    expect(bySlug.body.skills.map((s: { slug: string }) => s.slug)).toEqual(['csv-toolkit']);
    const literal = await h.http().get('/api/skills').query({ search: '.*' });
    expect(literal.body).toMatchObject({ skills: [], pagination: { total: 0 } });

    const author = await h.http().get('/api/skills').query({ author: 'platform', limit: 50 });
    expect(author.body.pagination.total).toBe(catalog.length);
    const nobody = await h.http().get('/api/skills').query({ author: 'nobody-here' });
    expect(nobody.body.pagination.total).toBe(0);
  });

  it('refuses bad queries with a readable 400', async () => {
    for (const query of [
      { limit: '51' },
      { limit: '0' },
      { page: '0' },
      { page: 'x' },
      { sort: 'cheapest' },
      { category: 'Gardening' },
      { author: 'A B' },
      { search: 'x'.repeat(201) },
    ]) {
      const res = await h.http().get('/api/skills').query(query);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.any(String) });
    }
  });

  it('discovery: categories, sections and no installed slugs for an anonymous caller', async () => {
    const res = await h.http().get('/api/skills/discovery');
    expect(res.status).toBe(200);
    expect(res.body.installedSlugs).toEqual([]);
    expect(res.body.categories).toEqual([...SKILL_CATEGORIES]);
    const ids = res.body.sections.map((s: { id: string }) => s.id);
    expect(ids).toEqual(expect.arrayContaining(['featured', 'popular', 'new', 'category:Security']));
    const featured = res.body.sections.find((s: { id: string }) => s.id === 'featured').skills;
    expect(featured.length).toBeGreaterThan(0);
    expect(featured.every((s: { featured: boolean }) => s.featured)).toBe(true);
    expect(res.body.skills.length).toBe(Math.min(50, catalog.length));
  });

  it('previews a skill by slug or id with its real example', async () => {
    const csv = catalog.find((s) => s.slug === 'csv-toolkit')!;
    const bySlug = await h.http().get('/api/skills/csv-toolkit/preview');
    expect(bySlug.status).toBe(200);
    expect(bySlug.body.preview).toEqual({
      inputExample: { capability: csv.example.capability, params: csv.example.params },
      outputExample: csv.example.output,
      executionExample: {
        http: {
          method: 'POST',
          path: '/api/skills/use',
          body: { skill_slug: 'csv-toolkit', capability: csv.example.capability, params: csv.example.params },
        },
        mcp: { tool: `platform.skill.csv-toolkit.${csv.example.capability}`, input: csv.example.params },
      },
      expectedResults: { success: true, result: csv.example.output },
    });
    expect(bySlug.body.skill.capabilities[0].paramsSchema).toMatchObject({ type: 'object' });
    const byId = await h.http().get(`/api/skills/${csv.skill_id}/preview`);
    expect(byId.body.skill.slug).toBe('csv-toolkit');
    const unknown = await h.http().get('/api/skills/no-such-skill/preview');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({
      code: 'NOT_FOUND',
      error: expect.stringContaining('no-such-skill'),
    });
    const malformed = await h.http().get('/api/skills/NOT%20A%20SLUG/preview');
    expect(malformed.status).toBe(400);
  });
});
