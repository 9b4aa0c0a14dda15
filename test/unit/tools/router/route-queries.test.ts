import { RouteQueries } from '../../../../actors/tools/router/route-queries';
import type { Principal } from '../../../../schemas/auth';
import { errors } from '../../../../schemas/errors';

const agent: Principal = { subjectType: 'agent', agentId: 'agt_a', via: 'bearer' };

/** A repository whose reads answer `rows`, or fail as the repository layer does when the store is away. */
const repo = (rows: unknown[] | 'down') =>
  ({
    find: async () => {
      if (rows === 'down') throw errors.unavailable('document store unreachable');
      return rows;
    },
  }) as never;

describe('RouteQueries with the document store away', () => {
  it.each([
    ['the pages', repo('down'), repo([]), repo([])],
    ['the former records', repo([]), repo('down'), repo([])],
    ['the counters', repo([]), repo([]), repo('down')],
  ])(
    'answers UNAVAILABLE when reading %s fails, never a partial listing',
    async (_what, pages, legacy, stats) => {
      const queries = new RouteQueries(pages, legacy, stats);
      await expect(queries.forCaller(agent, 50)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    },
  );

  it('reads nothing for a caller that is neither an agent nor an account', async () => {
    const queries = new RouteQueries(repo('down'), repo('down'), repo('down'));
    const nobody: Principal = { subjectType: 'account', via: 'session' };
    await expect(queries.forCaller(nobody, 50)).resolves.toEqual({ routes: [], primitives: [] });
  });
});
