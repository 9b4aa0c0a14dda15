import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkEnvFileSyntax, EnvFileError, loadEnvFile } from '../../../src/config/env-file';

describe('loadEnvFile (.env)', () => {
  let dir: string;
  const write = (content: string) => {
    const file = path.join(dir, '.env');
    fs.writeFileSync(file, content);
    return file;
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-envfile-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sets the variables of the file, with Node’s parsing of quotes, comments and export', () => {
    const env: Record<string, string | undefined> = {};
    const file = write(
      [
        '# a comment',
        '',
        'PORT=3141',
        'export LOG_LEVEL=debug',
        'PUBLIC_BASE_URL="https://ars.example.com"  # trailing comment',
        "SMTP_URL='smtp://mail.example.com:25'",
        'MCP_STDIO_ALLOWLIST=\'[["node","/opt/mcp/server.js"]]\'',
        'LLM_MODEL="two',
        'lines"',
        '  HOST = 0.0.0.0',
      ].join('\n'),
    );
    const result = loadEnvFile(file, env);
    expect(env).toEqual({
      PORT: '3141',
      LOG_LEVEL: 'debug',
      PUBLIC_BASE_URL: 'https://ars.example.com',
      SMTP_URL: 'smtp://mail.example.com:25',
      MCP_STDIO_ALLOWLIST: '[["node","/opt/mcp/server.js"]]',
      LLM_MODEL: 'two\nlines',
      HOST: '0.0.0.0',
    });
    expect(result).toEqual({
      file,
      found: true,
      applied: [
        'PORT',
        'LOG_LEVEL',
        'PUBLIC_BASE_URL',
        'SMTP_URL',
        'MCP_STDIO_ALLOWLIST',
        'LLM_MODEL',
        'HOST',
      ],
      alreadySet: [],
    });
  });

  it('lets the environment win: a variable already set keeps its value, even an empty one', () => {
    const env: Record<string, string | undefined> = { PORT: '8080', LOG_LEVEL: '' };
    const result = loadEnvFile(write('PORT=3141\nLOG_LEVEL=debug\nHOST=0.0.0.0\n'), env);
    expect(env).toEqual({ PORT: '8080', LOG_LEVEL: '', HOST: '0.0.0.0' });
    expect(result.applied).toEqual(['HOST']);
    expect(result.alreadySet).toEqual(['PORT', 'LOG_LEVEL']);
  });

  it('writes process.env by default', () => {
    const file = write('ARS_ENV_FILE_TEST_VARIABLE=from-the-file\n');
    try {
      loadEnvFile(file);
      expect(process.env.ARS_ENV_FILE_TEST_VARIABLE).toBe('from-the-file');
    } finally {
      delete process.env.ARS_ENV_FILE_TEST_VARIABLE;
    }
  });

  it('does nothing when the file does not exist', () => {
    const env: Record<string, string | undefined> = { PORT: '1' };
    const file = path.join(dir, '.env');
    expect(loadEnvFile(file, env)).toEqual({ file, found: false, applied: [], alreadySet: [] });
    expect(env).toEqual({ PORT: '1' });
  });

  it.each([
    [
      'a line without =',
      'PORT=1\nnot a setting\nHOST=x\n',
      'line 2: expected NAME=value, a # comment or a blank line',
    ],
    ['a name that is not one', 'PORT=1\n9LIVES=yes\n', 'line 2: expected NAME=value'],
    [
      'a quote never closed',
      'PORT=1\nJWT_SECRET="abc\nHOST=x\n',
      'line 2: the " quote opened for JWT_SECRET is never closed',
    ],
  ])('refuses %s, naming the file and the line, and sets nothing', (_what, content, message) => {
    const env: Record<string, string | undefined> = {};
    const file = write(content);
    expect(() => loadEnvFile(file, env)).toThrow(EnvFileError);
    expect(() => loadEnvFile(file, env)).toThrow(`Cannot use ${file}: ${message}`);
    expect(env).toEqual({});
  });

  it('refuses a .env that exists but cannot be read', () => {
    const file = path.join(dir, '.env');
    fs.mkdirSync(file);
    expect(() => loadEnvFile(file, {})).toThrow(`Cannot use ${file}: cannot be read (EISDIR)`);
  });

  it('accepts CRLF line ends and a byte order mark', () => {
    const env: Record<string, string | undefined> = {};
    loadEnvFile(write('\uFEFFPORT=1\r\n# c\r\nHOST=h\r\n'), env);
    expect(env).toEqual({ PORT: '1', HOST: 'h' });
  });

  it('takes the last value of a name given twice, and lists it once', () => {
    const env: Record<string, string | undefined> = {};
    expect(loadEnvFile(write('PORT=1\nHOST=h\nPORT=2\n'), env).applied).toEqual(['PORT', 'HOST']);
    expect(env).toEqual({ PORT: '2', HOST: 'h' });
  });

  it('checkEnvFileSyntax lists the names in file order', () => {
    expect(checkEnvFileSyntax('A=1\n# B=2\nexport C="x\ny"\nD=\n')).toEqual(['A', 'C', 'D']);
  });
});
