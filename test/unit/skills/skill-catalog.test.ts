import { SkillCatalog, COUNT_REUSE_MS } from '../../../actors/skills/skill-catalog';

/** A repository whose listing finds nothing and whose count is scripted. */
function fakeSkills(count: () => Promise<number>) {
  return {
    name: 'skills',
    raw: { find: () => ({ toArray: async () => [] }) },
    count: jest.fn(count),
  };
}

const query = { page: 1, limit: 20, sort: 'popular' as const };

describe('SkillCatalog: listing totals', () => {
  it('reuses a total for COUNT_REUSE_MS, per filter, then counts again', async () => {
    let now = 1_000_000;
    const skills = fakeSkills(async () => 7);
    const catalog = new SkillCatalog(skills as never, () => now);
    expect((await catalog.list(query)).pagination.total).toBe(7);
    expect((await catalog.list({ ...query, page: 3 })).pagination.total).toBe(7);
    expect(skills.count).toHaveBeenCalledTimes(1);
    await catalog.list({ ...query, category: 'Security' } as never);
    expect(skills.count).toHaveBeenCalledTimes(2); // another filter: its own count
    now += COUNT_REUSE_MS;
    await catalog.list(query);
    expect(skills.count).toHaveBeenCalledTimes(3);
  });

  it('does not keep a failed count', async () => {
    let fail = true;
    const skills = fakeSkills(async () => {
      if (fail) throw new Error('store down');
      return 3;
    });
    const catalog = new SkillCatalog(skills as never, () => 5);
    await expect(catalog.list(query)).rejects.toThrow('store down');
    fail = false;
    expect((await catalog.list(query)).pagination.total).toBe(3);
  });
});
