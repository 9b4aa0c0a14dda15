import { randomBytes } from 'node:crypto';
import {
  checkHttpHeaders,
  checkStdioCommand,
  checkStdioEnv,
  matchStdioAllowlist,
} from '../../../actors/connectors/connector-policy';
import {
  ConnectorSealer,
  looksSecret,
  maskArgs,
  maskUrl,
  MASK,
} from '../../../actors/connectors/connector-secrets';
import { normalizeResult } from '../../../actors/connectors/mcp-session';
import { loadConfig } from '../../../src/config/load-config';

describe('stdio allowlist', () => {
  const allowlist = [['/usr/bin/node', '/opt/mcp/server.js'], ['/usr/local/bin/mcp-github']];

  it('matches command lines that start with an entry', () => {
    expect(matchStdioAllowlist(allowlist, '/usr/bin/node', ['/opt/mcp/server.js', '--port', '1'])).toEqual(
      allowlist[0],
    );
    expect(matchStdioAllowlist(allowlist, '/usr/local/bin/mcp-github', [])).toEqual(allowlist[1]);
    expect(matchStdioAllowlist(allowlist, '/usr/bin/node', ['-e', 'x'])).toBeUndefined();
    expect(matchStdioAllowlist(allowlist, '/usr/bin/node', [])).toBeUndefined();
    expect(matchStdioAllowlist(allowlist, 'node', ['/opt/mcp/server.js'])).toBeUndefined();
  });

  it('refuses when the list is empty or does not match (403 with a reason)', () => {
    expect(() => checkStdioCommand([], '/bin/true', [])).toThrow(
      expect.objectContaining({ details: { reason: 'stdio_disabled' } }),
    );
    expect(() => checkStdioCommand(allowlist, '/bin/sh', ['-c', 'id'])).toThrow(
      expect.objectContaining({ code: 'PERMISSION_DENIED', details: { reason: 'stdio_not_allowlisted' } }),
    );
  });

  it('is read from MCP_STDIO_ALLOWLIST (JSON), empty by default, refused when malformed', () => {
    expect(loadConfig({}).MCP_STDIO_ALLOWLIST).toEqual([]);
    expect(loadConfig({ MCP_STDIO_ALLOWLIST: '[["/usr/bin/x","a"]]' }).MCP_STDIO_ALLOWLIST).toEqual([
      ['/usr/bin/x', 'a'],
    ]);
    expect(() => loadConfig({ MCP_STDIO_ALLOWLIST: '/usr/bin/x' })).toThrow(/MCP_STDIO_ALLOWLIST/);
    expect(() => loadConfig({ MCP_STDIO_ALLOWLIST: '[[]]' })).toThrow(/MCP_STDIO_ALLOWLIST/);
  });

  it('refuses environment variables that load other code', () => {
    for (const name of [
      'NODE_OPTIONS',
      'LD_PRELOAD',
      'DYLD_INSERT_LIBRARIES',
      'PYTHONSTARTUP',
      'BASH_ENV',
      'path',
    ]) {
      expect(() => checkStdioEnv({ [name]: 'x' })).toThrow(
        expect.objectContaining({ code: 'VALIDATION_ERROR' }),
      );
    }
    expect(() => checkStdioEnv({ GITHUB_TOKEN: 'x', NODE_ENV: 'production', MODE: 'a' })).not.toThrow();
  });
});

describe('headers', () => {
  it('refuses headers the transport owns and duplicates ignoring case', () => {
    expect(() => checkHttpHeaders({ Host: 'x' })).toThrow(/headers\.Host/);
    expect(() => checkHttpHeaders({ 'mcp-session-id': 'x' })).toThrow(/mcp-session-id/);
    expect(() => checkHttpHeaders({ 'X-A': '1', 'x-a': '2' })).toThrow(/given twice/);
    expect(() => checkHttpHeaders({ Authorization: 'Bearer x', 'X-Tenant': 'a' })).not.toThrow();
  });
});

describe('secrets', () => {
  it('seals values bound to the connector and the name', () => {
    const sealer = new ConnectorSealer(randomBytes(32));
    const sealed = sealer.seal('con_1', 'API_KEY', 'value-1');
    expect(sealed).not.toContain('value-1');
    expect(sealer.open('con_1', 'API_KEY', sealed)).toBe('value-1');
    expect(() => sealer.open('con_2', 'API_KEY', sealed)).toThrow(/cannot decrypt/);
    expect(() => sealer.open('con_1', 'OTHER', sealed)).toThrow(/cannot decrypt/);
    expect(() => new ConnectorSealer(randomBytes(32)).open('con_1', 'API_KEY', sealed)).toThrow(
      /VAULT_MASTER_KEY/,
    );
  });

  it('shows non-credential values and masks the others', () => {
    const sealer = new ConnectorSealer(randomBytes(32));
    const pairs = sealer.sealAll('con_1', {
      Authorization: 'Bearer abc',
      'X-Tenant': 'acme',
      'X-Other': 'ghp_abcdef',
    });
    expect(sealer.showAll('con_1', pairs)).toEqual({
      Authorization: MASK,
      'X-Tenant': 'acme',
      'X-Other': MASK,
    });
  });

  it('recognises credential-looking names and values', () => {
    expect(looksSecret('GITHUB_TOKEN', 'x')).toBe(true);
    expect(looksSecret('x-api-key', 'x')).toBe(true);
    expect(looksSecret('MODE', 'production')).toBe(false);
    expect(looksSecret('V', 'sk-abc123')).toBe(true);
    expect(looksSecret('V', 'a1b2c3d4e5f6g7h8i9j0k1l2m3')).toBe(true);
  });

  it('masks credential-looking arguments and query parameters', () => {
    expect(maskArgs(['--port', '3000', '--token', 'abc', '--api-key=xyz', 'sk-abcdef'])).toEqual([
      '--port',
      '3000',
      '--token',
      MASK,
      `--api-key=${MASK}`,
      MASK,
    ]);
    expect(maskUrl('https://mcp.example.com/x?api_key=abc&team=a')).toBe(
      `https://mcp.example.com/x?api_key=${encodeURIComponent(MASK)}&team=a`,
    );
  });
});

describe('results', () => {
  it('normalizes to {content, structuredContent?, isError}', () => {
    expect(normalizeResult({ content: [{ type: 'text', text: 'a' }] })).toEqual({
      content: [{ type: 'text', text: 'a' }],
      isError: false,
    });
    expect(normalizeResult({ content: [], structuredContent: { a: 1 }, isError: true })).toEqual({
      content: [],
      structuredContent: { a: 1 },
      isError: true,
    });
    expect(normalizeResult({ toolResult: { x: 1 } })).toEqual({
      content: [{ type: 'text', text: '{"x":1}' }],
      isError: false,
    });
  });
});
