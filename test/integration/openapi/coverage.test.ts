import { registeredRoutes } from '../../../src/http/openapi/registered-routes';
import { routeKey } from '../../../src/http/openapi/contract';
import { openApiPath } from '../../../src/http/openapi/document';
import { startOpenApiHarness, type OpenApiHarness } from './support/openapi-harness';

/** The few fields of an operation these checks read. */
interface Operation {
  security: unknown;
  requestBody?: { content: Record<string, { schema: { required?: string[] } }> };
  responses: Record<string, unknown>;
}

const HOW_TO_ADD =
  'Declare its contract in a `<area>.contract.ts` beside its route module (actors/<domain>/) and list it ' +
  'in `routeContracts` of actors/contracts.ts (docs/openapi.md explains the fields).';

describe('GET /openapi.json documents every registered route', () => {
  let h: OpenApiHarness;
  beforeAll(async () => {
    h = await startOpenApiHarness();
  });
  afterAll(() => h?.stop());

  const documented = () =>
    new Set(
      Object.entries(h.document.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => routeKey(m, p))),
    );

  it('has an operation for each route of the built app', () => {
    const routes = registeredRoutes(h.app);
    // The app really has its routes (a walk that found nothing would pass vacuously).
    expect(routes).toEqual(expect.arrayContaining(['POST /api/signup', 'POST /mcp', 'GET /openapi.json']));
    expect(routes.length).toBeGreaterThan(80);
    const ops = documented();
    const missing = routes.filter((key) => {
      const [method, path] = key.split(' ') as [string, string];
      return !ops.has(routeKey(method, openApiPath(path)));
    });
    if (missing.length > 0) {
      throw new Error(
        `Routes without a contract in /openapi.json:\n  ${missing.join('\n  ')}\n${HOW_TO_ADD}`,
      );
    }
  });

  it('documents no route the app does not have (a contract left behind after a route moved)', () => {
    const routes = new Set(
      registeredRoutes(h.app).map((key) => {
        const [method, path] = key.split(' ') as [string, string];
        return routeKey(method, openApiPath(path));
      }),
    );
    // `PATCH /api/ffp/temp` is answered by a route for every method (router.all): documented, not listed.
    const stale = [...documented()].filter((key) => !routes.has(key) && key !== 'PATCH /api/ffp/temp');
    expect(stale).toEqual([]);
  });

  it('has request and answer schemas that all compile (every reference resolves)', () => {
    const token = (x: string) => x.replace(/~/g, '~0').replace(/\//g, '~1');
    let compiled = 0;
    for (const [p, ops] of Object.entries(h.document.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const base = `#/paths/${token(p)}/${method}`;
        const o = op as unknown as Operation;
        for (const type of Object.keys(o.requestBody?.content ?? {})) {
          h.compile(`${base}/requestBody/content/${token(type)}/schema`);
          compiled++;
        }
        for (const [status, answer] of Object.entries(o.responses)) {
          const content = (answer as { content?: Record<string, unknown> }).content ?? {};
          for (const type of Object.keys(content)) {
            h.compile(`${base}/responses/${status}/content/${token(type)}/schema`);
            compiled++;
          }
        }
      }
    }
    expect(compiled).toBeGreaterThan(100);
  });

  it('is OpenAPI 3.1 with an auth statement, a summary and an error answer on every operation', () => {
    expect(h.document.openapi).toBe('3.1.0');
    for (const [p, ops] of Object.entries(h.document.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const where = `${method} ${p}`;
        expect([where, Array.isArray(op.security)]).toEqual([where, true]);
        expect([where, typeof op.summary]).toEqual([where, 'string']);
        expect([where, (op.responses as Record<string, unknown>).default]).toEqual([
          where,
          { $ref: '#/components/responses/ErrorDefault' },
        ]);
      }
    }
    const signup = h.document.paths['/api/signup']!.post as unknown as Operation;
    expect(signup.security).toEqual([]);
    expect(signup.requestBody!.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['email', 'password']),
    );
    expect(signup.responses['400']).toEqual({ $ref: '#/components/responses/Error400' });
    const files = h.document.paths['/api/files']!.get as unknown as Operation;
    expect(files.security).toEqual([{ bearer: [] }, { session: [] }]);
    expect(files.responses['401']).toEqual({ $ref: '#/components/responses/Error401' });
  });
});
