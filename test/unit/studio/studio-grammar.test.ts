import { planIntent } from '../../../actors/studio/intent-planner';
import { parseStudioCommand, StudioSyntaxError } from '../../../actors/studio/studio-grammar';

describe('parseStudioCommand', () => {
  it.each([
    ['help', { kind: 'help' }, 'help'],
    ['  status', { kind: 'status' }, 'status'],
    ['tools \t list', { kind: 'tools.list' }, 'tools list'],
    ['mcp list', { kind: 'mcp.list' }, 'mcp list'],
    ['skills search pdf  tools', { kind: 'skills.search', query: 'pdf tools' }, 'skills search pdf tools'],
    ['tool run mem_get', { kind: 'tool.run', tool: 'mem_get', input: {} }, 'tool run mem_get'],
    [
      'tool run platform.mem_set --json { "key": "a;b|c", "value": "$(x)" }',
      { kind: 'tool.run', tool: 'platform.mem_set', input: { key: 'a;b|c', value: '$(x)' } },
      'tool run platform.mem_set --json {"key":"a;b|c","value":"$(x)"}',
    ],
    [
      'mcp call github create_issue --json {"title":"t"}',
      { kind: 'mcp.call', server: 'github', tool: 'create_issue', input: { title: 't' } },
      'mcp call github create_issue --json {"title":"t"}',
    ],
    ['skills install pdf-tools', { kind: 'skills.install', slug: 'pdf-tools' }, 'skills install pdf-tools'],
    [
      'skills use pdf-tools extract --json {}',
      { kind: 'skills.use', slug: 'pdf-tools', capability: 'extract', input: {} },
      'skills use pdf-tools extract --json {}',
    ],
    [
      'advanced run javascript --code\nconst a = (1 > 0) ? `x` : "y";\na',
      { kind: 'advanced.run', language: 'javascript', code: 'const a = (1 > 0) ? `x` : "y";\na' },
      'advanced run javascript --code const a = (1 > 0) ? `x` : "y";\na',
    ],
  ])('%j', (raw, command, normalized) => {
    expect(parseStudioCommand(raw)).toEqual({ command, normalized });
  });

  it.each([
    ['', /Empty command/],
    ['tools list; ls', /metacharacter ";"/],
    ['tools list && ls', /metacharacter "&"/],
    ['status\nhelp', /metacharacter "\\n"/],
    ['skills search a\\b', /metacharacter "\\"/],
    ['tool run x{}', /metacharacter "\{"/],
    ['TOOLS LIST', /Unknown command/],
    ['help me', /Unknown command/],
    ['tools list extra', /Unexpected argument/],
    ['tool run', /Missing argument/],
    ['tool run mem_get --json', /Missing payload/],
    ['tool run mem_get --json nope', /not valid JSON/],
    ['tool run mem_get --json "s"', /JSON object/],
    ['tool run mem_get --code 1', /takes --json/],
    ['skills install pdf --json {}', /no --json/],
    ['mcp call GitHub x', /Invalid server/],
    ['advanced run python --code print(1)', /javascript only/],
    ['advanced run javascript', /Missing --code/],
  ])('refuses %j', (raw, message) => {
    expect(() => parseStudioCommand(raw)).toThrow(StudioSyntaxError);
    expect(() => parseStudioCommand(raw)).toThrow(message);
  });

  it('refuses a --json payload nested deeper than the JSON depth limit', () => {
    const deep = `tool run mem_get --json {"key":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    expect(() => parseStudioCommand(deep)).toThrow(StudioSyntaxError);
    expect(() => parseStudioCommand(deep)).toThrow(/nested deeper than 64 levels/);
  });

  it('takes --json only as a whole token', () => {
    expect(() => parseStudioCommand('tool run x--json {}')).toThrow(/metacharacter "\{"/);
  });
});

describe('planIntent', () => {
  it.each([
    ['list tools', 'tools list'],
    ['Show me my tools.', 'tools list'],
    ['list connectors', 'mcp list'],
    ['status', 'status'],
    ['search skills for pdf', 'skills search pdf'],
    ['run mem_get {"key":"k"}', 'tool run mem_get --json {"key":"k"}'],
    ['call mem_get', 'tool run mem_get'],
    ['tool run mem_get --json {}', 'tool run mem_get --json {}'],
  ])('%j → %j', (message, command) => {
    expect(planIntent(message)).toEqual({ kind: 'command', command });
  });

  it('answers help text for anything else (skills install and advanced commands included)', () => {
    for (const message of ['hello', 'help', 'skills install x', 'advanced run javascript --code 1']) {
      expect(planIntent(message)).toMatchObject({ kind: 'reply' });
    }
  });
});
