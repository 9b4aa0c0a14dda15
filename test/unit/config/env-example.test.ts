import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EnvSchema } from '../../../src/config/config.schema';
import { loadEnvFile } from '../../../src/config/env-file';
import { loadConfig } from '../../../src/config/load-config';

const ROOT = path.resolve(__dirname, '../../..');
const example = fs.readFileSync(path.join(ROOT, '.env.example'), 'utf8');

/** The commented settings of .env.example (`# NAME=value`), service variables only. */
function exampleSettings(): string[] {
  const [service] = example.split('# --- docker compose only');
  return service.split('\n').filter((line) => /^# [A-Z][A-Z0-9_]*=/.test(line));
}

/** The variables named in the first column of the README's configuration table. */
function readmeVariables(): string[] {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const table = readme.split('## Configuration')[1].split('\n## ')[0];
  const rows = table.split('\n').filter((line) => line.startsWith('| `'));
  return rows.flatMap((row) => [...row.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]));
}

describe('.env.example', () => {
  it('lists every variable of the README table, and the README every variable the service reads', () => {
    const listed = exampleSettings().map((line) => line.slice(2).split('=')[0]);
    const readme = readmeVariables();
    // NODE_ENV is Node's own convention, not a setting of the service.
    const schema = Object.keys(EnvSchema.shape).filter((name) => name !== 'NODE_ENV');
    expect([...listed].sort()).toEqual([...new Set(readme)].sort());
    expect([...new Set(readme)].sort()).toEqual([...schema].sort());
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('is a valid .env as it is (everything commented) and sets nothing', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-envexample-'));
    try {
      const file = path.join(dir, '.env');
      fs.writeFileSync(file, example);
      const env: Record<string, string | undefined> = {};
      expect(loadEnvFile(file, env).applied).toEqual([]);
      expect(env).toEqual({});
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives values the configuration accepts once uncommented', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-envexample-'));
    try {
      const file = path.join(dir, '.env');
      fs.writeFileSync(
        file,
        exampleSettings()
          .map((line) => line.slice(2))
          .join('\n'),
      );
      const env: Record<string, string | undefined> = {};
      loadEnvFile(file, env);
      expect(() => loadConfig(env)).not.toThrow();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
