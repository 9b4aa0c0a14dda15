import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../../src/config/load-config';
import { resolveSecrets } from '../../../src/config/secrets';

describe('loadConfig', () => {
  it('gives the embedded defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.HOST).toBe('127.0.0.1');
    expect(config.ROLE).toBe('all');
    expect(config.embedded).toEqual({ transport: true, documents: true, cache: true, sql: true });
    expect(config.PUBLIC_BASE_URL).toBe('http://127.0.0.1:3000');
    expect(path.isAbsolute(config.DATA_DIR)).toBe(true);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads the real services when set', () => {
    const config = loadConfig({
      AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672',
      MONGODB_URL: 'mongodb://127.0.0.1:27017',
      REDIS_URL: 'redis://127.0.0.1:6379',
      DATABASE_URL: 'postgres://127.0.0.1/test',
      PORT: '8080',
      PUBLIC_BASE_URL: 'https://agents.example.org/',
    });
    expect(config.embedded).toEqual({ transport: false, documents: false, cache: false, sql: false });
    expect(config.PORT).toBe(8080);
    expect(config.PUBLIC_BASE_URL).toBe('https://agents.example.org');
  });

  it('hands out localhost, not a wildcard address, in the default PUBLIC_BASE_URL', () => {
    expect(loadConfig({ HOST: '0.0.0.0' }).PUBLIC_BASE_URL).toBe('http://localhost:3000');
    expect(loadConfig({ HOST: '::', PORT: '8080' }).PUBLIC_BASE_URL).toBe('http://localhost:8080');
    expect(loadConfig({ HOST: '::1' }).PUBLIC_BASE_URL).toBe('http://[::1]:3000');
    expect(loadConfig({ HOST: 'ars.internal' }).PUBLIC_BASE_URL).toBe('http://ars.internal:3000');
    expect(loadConfig({ HOST: '0.0.0.0', PUBLIC_BASE_URL: 'https://a.example' }).PUBLIC_BASE_URL).toBe(
      'https://a.example',
    );
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ AMQP_URL: '' }).embedded.transport).toBe(true);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['ROLE', 'leader'],
    ['AMQP_URL', 'http://broker'],
    ['MONGODB_URL', 'mysql://x'],
    ['JWT_SECRET', 'short'],
    ['LOG_LEVEL', 'loud'],
    ['ALLOW_LOOPBACK_HTTP', 'maybe'],
  ])('stops with a message naming %s when it is %s', (name, value) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(name);
  });

  it('ignores variables it does not know', () => {
    expect(() => loadConfig({ SOMETHING_ELSE: 'x' })).not.toThrow();
  });
});

describe('resolveSecrets', () => {
  it('generates the missing secrets once and keeps them in DATA_DIR', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-secrets-'));
    try {
      const first = resolveSecrets(loadConfig({ DATA_DIR: dir }));
      const second = resolveSecrets(loadConfig({ DATA_DIR: dir }));
      expect(first.jwtSecret).toHaveLength(64);
      expect(second.jwtSecret).toBe(first.jwtSecret);
      expect(second.vaultMasterKey.equals(first.vaultMasterKey)).toBe(true);
      expect(first.vaultMasterKey).toHaveLength(32);
      expect(fs.statSync(path.join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('prefers configured secrets and refuses a malformed vault key', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-secrets-'));
    try {
      const key = 'ab'.repeat(32);
      const s = resolveSecrets(
        loadConfig({
          DATA_DIR: dir,
          JWT_SECRET: 'j'.repeat(32),
          VAULT_MASTER_KEY: key,
          ADMIN_TOKEN: 'a'.repeat(20),
          CRON_SECRET: 'c'.repeat(20),
        }),
      );
      expect(s.jwtSecret).toBe('j'.repeat(32));
      expect(s.vaultMasterKey.toString('hex')).toBe(key);
      expect(fs.existsSync(path.join(dir, 'secrets.json'))).toBe(false);
      expect(() =>
        resolveSecrets(loadConfig({ DATA_DIR: dir, VAULT_MASTER_KEY: 'not-a-valid-key-at-all' })),
      ).toThrow(/VAULT_MASTER_KEY/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
