import { dependencyOrder } from '../../../actors/skills/skill-dependencies';
import { AppError } from '../../../schemas/errors';

const graph = (edges: Record<string, { required?: string[]; optional?: string[] }>) => (slug: string) =>
  edges[slug] ? { required: edges[slug].required ?? [], optional: edges[slug].optional ?? [] } : undefined;

describe('dependencyOrder', () => {
  it('puts dependencies first, each once, and the optional ones asked for', () => {
    const deps = graph({
      app: { required: ['b', 'c'], optional: ['opt'] },
      b: { required: ['d'] },
      c: { required: ['d'] },
      d: {},
      opt: { required: ['d'] },
    });
    expect(dependencyOrder('app', deps)).toEqual(['d', 'b', 'c', 'app']);
    expect(dependencyOrder('app', deps, ['opt'])).toEqual(['d', 'b', 'c', 'opt', 'app']);
  });

  it('refuses a cycle with CONFLICT, naming it', () => {
    const deps = graph({ a: { required: ['b'] }, b: { required: ['c'] }, c: { required: ['a'] } });
    let error: unknown;
    try {
      dependencyOrder('a', deps);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'CONFLICT', message: 'Dependency cycle: a → b → c → a' });
    expect(() => dependencyOrder('x', graph({ x: { required: ['x'] } }))).toThrow('Dependency cycle: x → x');
  });

  it('refuses an unknown skill with NOT_FOUND', () => {
    expect(() => dependencyOrder('a', graph({ a: { required: ['ghost'] } }))).toThrow(
      expect.objectContaining({ code: 'NOT_FOUND' }),
    );
  });
});
