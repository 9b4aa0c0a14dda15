import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitFor } from '../support/async';

const ROOT = path.resolve(__dirname, '../..');
const MAIN = path.join(ROOT, 'src/main.ts');
const TS_REGISTER = path.join(ROOT, 'test/support/ts-register.js');

interface Run {
  readonly pid: number;
  stdout: string;
  stderr: string;
  readonly exited: Promise<number | NodeJS.Signals | null>;
}

/**
 * Starts the real program (`src/main.ts`, what `npm start` runs once built) in `cwd`, with only
 * the variables given: nothing of the test runner's environment (LOG_LEVEL=silent, service URLs)
 * leaks in. stdout and stderr are pipes, so stdout is not a terminal.
 */
function runMain(cwd: string, env: Record<string, string> = {}, viaTerminal = false): Run {
  const base = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.homedir() };
  const argv = [process.execPath, '-r', TS_REGISTER, MAIN];
  // `script` runs the program on a pseudo-terminal (util-linux), as a person's shell would.
  const [command, args] = viaTerminal
    ? ['script', ['-qec', argv.map((a) => `'${a}'`).join(' '), '/dev/null']]
    : [argv[0], argv.slice(1)];
  const child = spawn(command as string, args as string[], {
    cwd,
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const run: Run = {
    pid: child.pid!,
    stdout: '',
    stderr: '',
    exited: new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal))),
  };
  child.stdout!.on('data', (chunk: Buffer) => (run.stdout += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (run.stderr += chunk.toString('utf8')));
  return run;
}

/** One log line by its message (pino writes a fatal line at once, the lines before it may follow). */
const lineOf = (text: string, msg: string | RegExp) =>
  jsonLines(text).find((l) => (typeof msg === 'string' ? l.msg === msg : msg.test(String(l.msg))));

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('the program: .env file and log format', () => {
  let dir: string;
  let running: Run | undefined;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-main-'));
  });
  afterEach(async () => {
    if (running) {
      try {
        process.kill(running.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      await running.exited;
      running = undefined;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const start = (env: Record<string, string> = {}, viaTerminal = false) =>
    (running = runMain(dir, env, viaTerminal));

  // ROLE=worker without AMQP_URL stops the boot at once with a fatal log line naming the ROLE: a
  // cheap way to see which value the program used, and how it logs.
  it('uses a variable from .env, and logs JSON lines when stdout is not a terminal', async () => {
    fs.writeFileSync(path.join(dir, '.env'), '# the role\nROLE=worker\n');
    const run = start();
    expect(await run.exited).toBe(1);
    expect(jsonLines(run.stdout)).toHaveLength(2);
    expect(lineOf(run.stdout, 'read the .env file')).toMatchObject({
      level: 30,
      set: ['ROLE'],
      keptFromEnvironment: [],
    });
    expect(lineOf(run.stdout, /^cannot start/)).toMatchObject({
      level: 60,
      msg: expect.stringContaining('ROLE=worker needs AMQP_URL'),
    });
    expect(run.stderr).toBe('');
  });

  it('lets a variable already in the environment win over .env', async () => {
    fs.writeFileSync(path.join(dir, '.env'), 'ROLE=worker\n');
    const run = start({ ROLE: 'api' });
    expect(await run.exited).toBe(1);
    expect(lineOf(run.stdout, 'read the .env file')).toMatchObject({
      set: [],
      keptFromEnvironment: ['ROLE'],
    });
    expect(lineOf(run.stdout, /^cannot start/)?.msg).toContain('ROLE=api needs AMQP_URL');
  });

  it('stops the boot (exit 2) with a message naming the file and the line of a malformed .env', async () => {
    fs.writeFileSync(path.join(dir, '.env'), 'PORT=3000\nHOST 0.0.0.0\n');
    const run = start();
    expect(await run.exited).toBe(2);
    expect(run.stderr).toBe(
      `Cannot use ${path.join(fs.realpathSync(dir), '.env')}: line 2: expected NAME=value, a # comment or a blank line\n`,
    );
    expect(run.stdout).toBe('');
  });

  it('a value from .env that the configuration refuses is named like any other (exit 2)', async () => {
    fs.writeFileSync(path.join(dir, '.env'), 'LOG_FORMAT=xml\n');
    const run = start();
    expect(await run.exited).toBe(2);
    expect(run.stderr).toContain('LOG_FORMAT');
  });

  it('LOG_FORMAT=pretty gives readable lines even on a pipe', async () => {
    fs.writeFileSync(path.join(dir, '.env'), 'ROLE=worker\nLOG_FORMAT=pretty\n');
    const run = start();
    expect(await run.exited).toBe(1);
    expect(run.stdout).toMatch(/^\[[\d:.]+\] INFO: read the \.env file$/m);
    expect(run.stdout).toMatch(/^\[[\d:.]+\] FATAL: cannot start: ROLE=worker needs AMQP_URL/m);
    expect(run.stdout).not.toContain('\u001b[');
  });

  (hasScript ? it : it.skip)(
    'logs readable, coloured lines on a terminal, and JSON there with LOG_FORMAT=json',
    async () => {
      const pretty = start({ ROLE: 'worker' }, true);
      expect(await pretty.exited).toBe(1);
      expect(pretty.stdout).toContain('FATAL');
      expect(pretty.stdout).toContain('\u001b[');
      expect(pretty.stdout).toContain('cannot start: ROLE=worker needs AMQP_URL');
      running = undefined;

      const json = start({ ROLE: 'worker', LOG_FORMAT: 'json' }, true);
      expect(await json.exited).toBe(1);
      expect(lineOf(json.stdout.replace(/\r/g, ''), /^cannot start/)).toMatchObject({ level: 60 });
    },
  );

  it('boots without a .env, with its data under ./data, and answers /livez and /readyz', async () => {
    const run = start({ PORT: '0' });
    let url: string | undefined;
    await waitFor(
      () => {
        const listening = run.stdout.includes('front door listening')
          ? lineOf(run.stdout, 'front door listening')
          : undefined;
        url = listening?.url as string | undefined;
        return url !== undefined || run.stderr !== '';
      },
      'the front door',
      30000,
    );
    expect(run.stderr).toBe('');
    expect(lineOf(run.stdout, 'read the .env file')).toBeUndefined();
    expect((await fetch(`${url}/livez`)).status).toBe(200);
    const ready = await fetch(`${url}/readyz`);
    expect({ status: ready.status, body: await ready.json() }).toEqual({
      status: 200,
      body: { status: 'ready' },
    });
    expect(fs.existsSync(path.join(dir, 'data'))).toBe(true);
    process.kill(run.pid, 'SIGTERM');
    expect(await run.exited).toBe(0);
    running = undefined;
  });
});
