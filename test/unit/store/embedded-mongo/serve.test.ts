import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { MongoClient } from 'mongodb';
import { embeddedClientOptions } from '../../../../src/store/embedded-mongo';
import { parseArgs } from '../../../../src/store/embedded-mongo/serve';

const ROOT = path.resolve(__dirname, '../../../..');

describe('store:serve', () => {
  it('parses its arguments', () => {
    expect(parseArgs([])).toEqual({ port: 27017 });
    expect(parseArgs(['--port', '0', '--dir', 'data/x'])).toEqual({ port: 0, dir: 'data/x' });
    expect(parseArgs(['--port=1234', '--dir=d'])).toEqual({ port: 1234, dir: 'd' });
    expect(() => parseArgs(['--port', 'abc'])).toThrow(/port/);
    expect(() => parseArgs(['--dir'])).toThrow(/needs a value/);
    expect(() => parseArgs(['--host', '0.0.0.0'])).toThrow(/unknown argument/);
  });

  it('serves a data directory and stops cleanly on SIGINT', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'emb-mongo-serve-'));
    const proc = spawn(
      process.execPath,
      [
        '-r',
        './test/support/ts-register.js',
        'src/store/embedded-mongo/serve.ts',
        '--port',
        '0',
        '--dir',
        dir,
      ],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('serve did not start')), 20_000);
        createInterface({ input: proc.stdout! }).on('line', (line) => {
          const entry = JSON.parse(line) as { url?: string; msg?: string };
          if (entry.msg?.startsWith('embedded MongoDB ready')) {
            clearTimeout(timer);
            resolve(entry.url!);
          }
        });
      });
      expect(url).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+\/$/);
      const client = new MongoClient(url, embeddedClientOptions);
      await client.db('x').collection('y').insertOne({ ok: true });
      await client.close();
      const exit = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
      proc.kill('SIGINT');
      expect(await exit).toBe(0);
    } finally {
      if (proc.exitCode === null) proc.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
