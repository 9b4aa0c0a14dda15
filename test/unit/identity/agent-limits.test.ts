import { domainsBeyond, fitListsWithin, fitToolsWithin } from '../../../actors/identity/agent-limits';
import { BUILTIN_PRIMITIVES } from '../../../schemas/tools/primitives';

describe("an agent's lists within another's (subagents)", () => {
  it('accepts exact names the ceiling allows, by name or pattern', () => {
    expect(fitToolsWithin(['mem_get', 'mcp.gh.search'], ['mem_*', 'mcp.gh.*'])).toEqual({
      tools: ['mem_get', 'mcp.gh.search'],
      beyond: [],
    });
    expect(fitToolsWithin(['mem_get', 'mcp.gh.search', 'net_http_get'], ['mem_get']).beyond).toEqual([
      'mcp.gh.search',
      'net_http_get',
    ]);
  });

  it('accepts a pattern within a broader ceiling pattern, not the reverse', () => {
    expect(fitToolsWithin(['mcp.gh.*'], ['mcp.*']).beyond).toEqual([]);
    expect(fitToolsWithin(['mcp.*'], ['mcp.gh.*']).beyond).toEqual(['mcp.*']);
    expect(fitToolsWithin(['mem_*', 'platform.db_*'], ['platform.*']).tools).toEqual([
      'mem_*',
      'platform.db_*',
    ]);
    expect(fitToolsWithin(['platform.*'], [...BUILTIN_PRIMITIVES]).beyond).toEqual(['platform.*']);
    expect(fitToolsWithin(['mcp.*'], [...BUILTIN_PRIMITIVES]).beyond).toEqual(['mcp.*']);
  });

  it('expands a primitives-only pattern that the ceiling allows name by name', () => {
    const mem = BUILTIN_PRIMITIVES.filter((n) => n.startsWith('mem_'));
    expect(fitToolsWithin(['mem_*'], [...BUILTIN_PRIMITIVES])).toEqual({ tools: mem, beyond: [] });
    expect(fitToolsWithin(['mem_*'], ['mem_get', 'mem_set']).beyond).toEqual(['mem_*']);
  });

  it('domains: [] ceiling allows all; exact names, wildcards and IPs', () => {
    expect(domainsBeyond([], [])).toEqual([]);
    expect(domainsBeyond(['x.com'], [])).toEqual([]);
    expect(domainsBeyond([], ['x.com'])).toHaveLength(1);
    const ceiling = ['*.example.com', 'api.other.org', '1.2.3.4'];
    expect(
      domainsBeyond(
        ['a.example.com', '*.b.example.com', '*.example.com', 'api.other.org', '1.2.3.4'],
        ceiling,
      ),
    ).toEqual([]);
    expect(domainsBeyond(['example.com', '*.other.org', 'x.other.org', '1.2.3.5'], ceiling)).toEqual([
      'example.com',
      '*.other.org',
      'x.other.org',
      '1.2.3.5',
    ]);
  });

  it('fitListsWithin: refuses with a 400 naming the entries and the ceiling', () => {
    expect(() =>
      fitListsWithin({ allowedTools: ['mcp.*'], allowedDomains: [] }, [
        { lists: { allowedTools: ['mem_*'], allowedDomains: ['a.com'] }, what: 'the parent agent' },
      ]),
    ).toThrow(
      expect.objectContaining({
        code: 'VALIDATION_ERROR',
        message: expect.stringMatching(/allowedTools: not allowed to the parent agent: mcp\.\*/),
        details: expect.objectContaining({
          details: [
            { path: 'allowedTools', message: expect.any(String) },
            { path: 'allowedDomains', message: expect.any(String) },
          ],
        }),
      }),
    );
    expect(
      fitListsWithin({}, [{ lists: { allowedTools: [], allowedDomains: ['a.com'] }, what: 'x' }]),
    ).toEqual({});
  });
});
