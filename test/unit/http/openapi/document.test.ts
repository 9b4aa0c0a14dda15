import { z } from 'zod';
import { routeContracts } from '../../../../actors/registry';
import { defineContracts } from '../../../../src/http/openapi/contract';
import { buildOpenApiDocument, openApiPath } from '../../../../src/http/openapi/document';
import { openApiContracts } from '../../../../src/http/openapi/openapi.route';

const info = { title: 'test', version: '0.0.0' };

describe('the OpenAPI document built from the route contracts', () => {
  const all = [...routeContracts, ...openApiContracts];

  it('builds from every contract, one operation each', () => {
    const doc = buildOpenApiDocument(info, all);
    const operations = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    expect(operations).toBe(all.length);
    expect(doc.paths['/api/executions/{id}']?.get).toBeDefined();
  });

  it('refuses two contracts for one route', () => {
    const twice = defineContracts('T', [
      { method: 'get', path: '/x', summary: 'x', auth: 'none', responses: { 200: z.object({}) } },
      { method: 'get', path: '/x', summary: 'again', auth: 'none', responses: { 200: z.object({}) } },
    ]);
    expect(() => buildOpenApiDocument(info, twice)).toThrow('Two contracts describe GET /x');
  });

  it.each(all.filter((c) => c.bodyExample !== undefined).map((c) => [`${c.method} ${c.path}`, c] as const))(
    'the body example of %s is a valid body',
    (_name, c) => {
      const result = c.body!.safeParse(c.bodyExample);
      expect(result.error?.issues ?? []).toEqual([]);
    },
  );

  it('declares a params schema only with the names of the path', () => {
    for (const c of all.filter((x) => x.params)) {
      const names = [...c.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]).sort();
      const json = z.toJSONSchema(c.params!, { io: 'input', unrepresentable: 'any' }) as {
        properties?: Record<string, unknown>;
      };
      expect([c.path, Object.keys(json.properties ?? {}).sort()]).toEqual([c.path, names]);
    }
  });

  it('states auth as security requirements, and path parameters as required', () => {
    const doc = buildOpenApiDocument(info, all);
    const op = doc.paths[openApiPath('/api/skills/:id/preview')]!.get as {
      security: unknown[];
      parameters: Array<{ name: string; in: string; required: boolean }>;
    };
    expect(op.security).toEqual([]);
    expect(op.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
    const mcp = doc.paths['/mcp']!.post as { security: unknown[]; parameters: Array<{ name: string }> };
    expect(mcp.security).toEqual([{ bearer: [] }, { session: [] }]);
    expect(mcp.parameters.map((p) => p.name)).toContain('Idempotency-Key');
    const cron = doc.paths['/api/ops/crew/cron']!.post as { security: unknown[] };
    expect(cron.security).toEqual([{ cronSecret: [] }, { adminToken: [] }]);
  });
});
