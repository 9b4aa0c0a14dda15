import { catalogDirectory, loadCatalog } from '../../../actors/skills/catalog-loader';
import { runCapability } from '../../../actors/skills/capability-script';
import type { SkillContent } from '../../../actors/skills/skill-content';
import { SKILL_CATEGORIES } from '../../../schemas/documents/skill';
import { silentLogger } from '../../../src/logging/logger';
import { createSandbox, type Sandbox } from '../../../src/sandbox';
import { exampleHost } from '../../support/skill-host-fake';

/** The permission a platform call needs (docs/skills.md, "Permissions"). */
const permissionOf = (name: string) =>
  name.startsWith('mcp.') ? 'mcp' : name.startsWith('secret.') ? 'secret' : name.split('_')[0];

describe('the seed catalog', () => {
  const skills = loadCatalog();
  const bySlug = new Map(skills.map((s) => [s.slug, s]));
  let sandbox: Sandbox;
  beforeAll(() => {
    sandbox = createSandbox({ threads: 1, logger: silentLogger });
  });
  afterAll(() => sandbox.close());

  it('has at least 30 skills across every category, each with unique ids, slugs and the platform as author', () => {
    expect(skills.length).toBeGreaterThanOrEqual(30);
    expect(new Set(skills.map((s) => s.category))).toEqual(new Set(SKILL_CATEGORIES));
    expect(new Set(skills.map((s) => s.skill_id)).size).toBe(skills.length);
    expect(new Set(skills.map((s) => s.slug)).size).toBe(skills.length);
    for (const skill of skills) expect(skill.author).toBe('platform');
    expect(catalogDirectory()).toMatch(/actors[/\\]skills[/\\]catalog$/);
  });

  it('uses every primitive family the issue names, a vault secret and dependencies', () => {
    const permissions = new Set(skills.flatMap((s) => s.permissions_required));
    for (const p of ['mem', 'net', 'mcp']) expect(permissions.has(p as never)).toBe(true);
    expect(skills.some((s) => s.required_secrets.length > 0)).toBe(true);
    expect(skills.some((s) => s.dependencies.required.length > 0)).toBe(true);
    expect(skills.some((s) => s.dependencies.optional.length > 0)).toBe(true);
  });

  const libraries = (skill: SkillContent) => {
    const deps = new Map<string, string>();
    for (const slug of [...skill.dependencies.required, ...skill.dependencies.optional]) {
      const library = bySlug.get(slug)?.library;
      if (library) deps.set(slug, library);
    }
    return deps;
  };

  it.each(skills.map((s) => [s.slug, s] as const))(
    '%s: the example really returns the output the preview shows, calling only what it declares',
    async (_slug, skill) => {
      const calls: Array<[string, unknown]> = [];
      const run = await runCapability(sandbox, {
        skill,
        capability: skill.example.capability,
        params: skill.example.params,
        dependencies: libraries(skill),
        host: exampleHost(calls),
      });
      expect(run).toMatchObject({ ok: true });
      expect(run.ok && run.result).toEqual(skill.example.output);
      for (const [name, input] of calls) {
        const permission = permissionOf(name);
        if (permission === 'secret') {
          expect(skill.required_secrets).toContain((input as { secret: string }).secret);
        } else {
          expect(skill.permissions_required).toContain(permission);
        }
      }
    },
  );

  it('a capability without its required dependency fails instead of running half', async () => {
    const skill = bySlug.get('report-builder')!;
    const run = await runCapability(sandbox, {
      skill,
      capability: 'build',
      params: skill.example.params,
      dependencies: new Map(),
    });
    expect(run).toMatchObject({ ok: false, outcome: 'error' });
  });

  it('an optional dependency that is not installed is absent, and the capability still runs', async () => {
    const skill = bySlug.get('report-builder')!;
    const deps = new Map([['markdown-renderer', bySlug.get('markdown-renderer')!.library!]]);
    const run = await runCapability(sandbox, {
      skill,
      capability: 'build',
      params: skill.example.params,
      dependencies: deps,
    });
    expect(run.ok && (run.result as { stats: unknown }).stats).toBeNull();
  });

  it('a capability without host calls has no platform: a skill that needs one fails clearly', async () => {
    const skill = bySlug.get('memo-pad')!;
    const run = await runCapability(sandbox, { skill, capability: 'recall', params: { topic: 'x' } });
    expect(run).toMatchObject({ ok: false, outcome: 'error' });
    expect(!run.ok && run.message).toMatch(/'platform' is not defined/);
  });
});
