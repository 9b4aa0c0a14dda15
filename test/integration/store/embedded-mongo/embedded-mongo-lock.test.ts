import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { MongoClient } from 'mongodb';
import pino from 'pino';
import { embeddedClientOptions, startEmbeddedMongo } from '../../../../src/store/embedded-mongo';
import {
  currentBootId,
  readProcStat,
} from '../../../../src/store/embedded-mongo/persistence/process-identity';
import { waitFor } from '../../../support/async';

const ROOT = path.resolve(__dirname, '../../../..');
const CHILD = path.join(__dirname, 'embedded-mongo-child.ts');
const LOCK = 'mongod.lock';
const linux = process.platform === 'linux';

/** A shell command run in the background of this test; its stdout lines, parsed as JSON. */
function shell(script: string): { proc: ChildProcess; line: () => Promise<Record<string, unknown>> } {
  const proc = spawn('sh', ['-c', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiting: Array<(line: string) => void> = [];
  createInterface({ input: proc.stdout! }).on('line', (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else lines.push(line);
  });
  const line = () =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no line from the shell in time')), 20_000);
      const take = (text: string) => {
        clearTimeout(timer);
        resolve(JSON.parse(text) as Record<string, unknown>);
      };
      const ready = lines.shift();
      if (ready !== undefined) take(ready);
      else waiting.push(take);
    });
  return { proc, line };
}

/**
 * A process that cannot be reaped: `sh` starts `command` in the background, prints its pid, then
 * becomes `sleep`, which never waits for its children. Once the command dies it stays a zombie
 * until this shell is killed (init then reaps it), as under a supervisor or in a container whose
 * first process does not reap.
 */
function unreaped(command: string) {
  return shell(`${command} & echo "{\\"pid\\":$!}"; exec sleep 120`);
}

/** A pino logger whose lines land in `lines`. */
function capturing() {
  const lines: Array<Record<string, unknown>> = [];
  return { lines, logger: pino({ level: 'info' }, { write: (l: string) => lines.push(JSON.parse(l)) }) };
}

const takeovers = (lines: Array<Record<string, unknown>>) =>
  lines.filter((l) => String(l.msg).includes('lock taken over')).map((l) => [l.previousOwner, l.state]);

(linux ? describe : describe.skip)('the data directory lock of the embedded document server', () => {
  let dir: string;
  const procs: ChildProcess[] = [];

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'emb-mongo-lock-'));
  });
  afterEach(() => {
    for (const p of procs.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('is taken over at once after kill -9, though the dead server is a zombie nobody reaps; the journal is replayed', async () => {
    const child = unreaped(`${process.execPath} -r ./test/support/ts-register.js ${CHILD} ${dir}`);
    procs.push(child.proc);
    const pid = (await child.line()).pid as number;
    const { url } = (await child.line()) as { url: string };
    const client = new MongoClient(url, { ...embeddedClientOptions, serverSelectionTimeoutMS: 5000 });
    await client.connect();
    const docs = Array.from({ length: 100 }, (_, i) => ({ _id: i as never, n: i }));
    await client.db('app').collection('things').insertMany(docs);
    await client.db('app').collection('things').createIndex({ n: 1 }, { unique: true });
    await client.close(true);

    process.kill(pid, 'SIGKILL');
    await waitFor(() => readProcStat(pid)?.state === 'Z', 'the killed server a zombie');
    expect(JSON.parse(readFileSync(path.join(dir, LOCK), 'utf8'))).toMatchObject({ pid }); // never released

    const { lines, logger } = capturing();
    const server = await startEmbeddedMongo({ dir, logger });
    const after = new MongoClient(server.url, embeddedClientOptions);
    try {
      await after.connect();
      const things = after.db('app').collection('things');
      expect(await things.countDocuments()).toBe(100);
      await expect(things.insertOne({ n: 5 })).rejects.toMatchObject({ code: 11000 }); // its index too
    } finally {
      await after.close();
      await server.close();
    }
    expect(takeovers(lines)).toEqual([[pid, 'zombie']]);
  }, 60_000);

  it('takes over a lock whose pid is a zombie', async () => {
    const zombie = unreaped('sleep 0.2'); // alive when the shell becomes `sleep`, then a zombie
    procs.push(zombie.proc);
    const pid = (await zombie.line()).pid as number;
    await waitFor(() => readProcStat(pid)?.state === 'Z', 'the zombie');
    writeFileSync(path.join(dir, LOCK), String(pid)); // as a server of an older version wrote it

    const { lines, logger } = capturing();
    const server = await startEmbeddedMongo({ dir, logger });
    await server.close();
    expect(takeovers(lines)).toEqual([[pid, 'zombie']]);
  });

  it('takes over a lock whose pid now belongs to another live process', async () => {
    const foreign = spawn('sleep', ['120']);
    procs.push(foreign);
    const pid = foreign.pid!;
    const stat = await waitForStat(pid);

    // A lock of an older version (a pid alone), written an hour before that process started.
    const file = path.join(dir, LOCK);
    writeFileSync(file, String(pid));
    const hourAgo = new Date(Date.now() - 3600_000);
    utimesSync(file, hourAgo, hourAgo);
    const first = capturing();
    await (await startEmbeddedMongo({ dir, logger: first.logger })).close();
    expect(takeovers(first.lines)).toEqual([[pid, 'reused']]);

    // A lock of this version: the pid's process has another start time than its writer had.
    const earlier = String(BigInt(stat.startTicks) - 1n);
    writeFileSync(file, JSON.stringify({ pid, startTicks: earlier, bootId: currentBootId() }));
    const second = capturing();
    await (await startEmbeddedMongo({ dir, logger: second.logger })).close();
    expect(takeovers(second.lines)).toEqual([[pid, 'reused']]);
    expect(foreign.exitCode).toBeNull(); // untouched
  });

  it('takes over a lock written before the machine rebooted', async () => {
    const stat = readProcStat(process.ppid)!; // a live process, as its pid would be after a reboot
    const lock = { pid: process.ppid, startTicks: stat.startTicks, bootId: 'another-boot' };
    writeFileSync(path.join(dir, LOCK), JSON.stringify(lock));
    const { lines, logger } = capturing();
    await (await startEmbeddedMongo({ dir, logger })).close();
    expect(takeovers(lines)).toEqual([[process.ppid, 'dead']]);
  });

  it('refuses a directory whose owner is alive: a server in another process, even with its lock file gone', async () => {
    const child = shell(`exec ${process.execPath} -r ./test/support/ts-register.js ${CHILD} ${dir}`);
    procs.push(child.proc);
    await child.line(); // listening
    const pid = child.proc.pid!;
    await expect(startEmbeddedMongo({ dir })).rejects.toThrow(`is in use by process ${pid}`);
    // The kernel's lock holds without the file: deleted by hand, the directory is still refused.
    rmSync(path.join(dir, LOCK));
    await expect(startEmbeddedMongo({ dir })).rejects.toThrow('is in use by another process');
    child.proc.kill('SIGKILL');
    await new Promise((resolve) => child.proc.once('exit', resolve));
    await (await startEmbeddedMongo({ dir })).close(); // released by the kernel at its exit
  }, 60_000);

  it('refuses a lock naming a live process that is its writer', async () => {
    const owner = spawn('sleep', ['120']);
    procs.push(owner);
    const pid = owner.pid!;
    const stat = await waitForStat(pid);
    const file = path.join(dir, LOCK);
    writeFileSync(file, JSON.stringify({ pid, startTicks: stat.startTicks, bootId: currentBootId() }));
    await expect(startEmbeddedMongo({ dir })).rejects.toThrow(`is in use by process ${pid}`);
    // An older version's lock (a pid alone) written after that process started: its writer too.
    writeFileSync(file, String(pid));
    await expect(startEmbeddedMongo({ dir })).rejects.toThrow(`is in use by process ${pid}`);
    expect(readFileSync(file, 'utf8')).toBe(String(pid)); // left as it was
  });
});

async function waitForStat(pid: number) {
  await waitFor(() => readProcStat(pid) !== undefined, `process ${pid} in /proc`);
  return readProcStat(pid)!;
}
