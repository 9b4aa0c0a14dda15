import { AllowedDomainsSchema } from '../../../schemas/http/agents';
import { AllowedToolsSchema, BUILTIN_PRIMITIVES, isToolAllowed } from '../../../schemas/tools/primitives';

describe('allowedTools', () => {
  it('knows the built-in primitives once each', () => {
    expect(new Set(BUILTIN_PRIMITIVES).size).toBe(BUILTIN_PRIMITIVES.length);
    expect(BUILTIN_PRIMITIVES).toEqual(
      expect.arrayContaining(['mem_set', 'db_query', 'net_http_get', 'fs_write', 'proc_execute']),
    );
  });

  it('normalises and accepts primitives, connector and skill tools, and patterns', () => {
    expect(
      AllowedToolsSchema.parse([
        ' Platform.MEM_SET ',
        'mem_*',
        'mcp.github.*',
        'mcp.github.create_issue',
        'platform.*',
        'mem_set',
      ]),
    ).toEqual(['mem_set', 'mem_*', 'mcp.github.*', 'mcp.github.create_issue', 'platform.*']);
  });

  it.each(['rm_rf', '*', 'mem*', 'mcp.github', 'MCP github.x', '', 'platform.nope'])(
    'refuses %j',
    (entry) => {
      expect(AllowedToolsSchema.safeParse([entry]).success).toBe(false);
    },
  );

  it('matches calls against exact names and patterns', () => {
    expect(isToolAllowed('mem_set', ['mem_*'])).toBe(true);
    expect(isToolAllowed('platform.mem_set', ['mem_set'])).toBe(true);
    expect(isToolAllowed('mem_set', ['platform.*'])).toBe(true);
    expect(isToolAllowed('mcp.github.create_issue', ['mcp.github.*'])).toBe(true);
    expect(isToolAllowed('db_query', ['mem_*', 'fs_read'])).toBe(false);
    expect(isToolAllowed('mcp.gitlab.x', ['mcp.github.*'])).toBe(false);
  });
});

describe('allowedDomains', () => {
  it('lower-cases, drops the trailing dot, converts IDN, dedupes', () => {
    expect(
      AllowedDomainsSchema.parse([
        'Example.COM.',
        'example.com',
        '*.Sub.Example.com',
        'münchen.de',
        '8.8.8.8',
      ]),
    ).toEqual(['example.com', '*.sub.example.com', 'xn--mnchen-3ya.de', '8.8.8.8']);
  });

  it.each([
    'https://example.com',
    'example.com:443',
    'example.com/path',
    'exa mple.com',
    '*.8.8.8.8',
    '-x.com',
    'a..b',
    '*',
    '',
  ])('refuses %j', (entry) => {
    expect(AllowedDomainsSchema.safeParse([entry]).success).toBe(false);
  });
});
