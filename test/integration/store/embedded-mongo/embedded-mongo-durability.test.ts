import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { MongoClient } from 'mongodb';
import type { AnyDoc } from '../../../conformance/mongo/targets';
import { embeddedClientOptions, startEmbeddedMongo } from '../../../../src/store/embedded-mongo';

const ROOT = path.resolve(__dirname, '../../../..');
const CHILD = path.join(__dirname, 'embedded-mongo-child.ts');
const JOURNAL = 'journal.wal';

interface Child {
  proc: ChildProcess;
  url: string;
}

/** Starts the server in a child process and waits for the URL it prints. */
function startChild(dir: string): Promise<Child> {
  const proc = spawn(process.execPath, ['-r', './test/support/ts-register.js', CHILD, dir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`child did not start: ${stderr}`)), 20_000);
    createInterface({ input: proc.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolve({ proc, url: (JSON.parse(line) as { url: string }).url });
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`child exited with ${code}: ${stderr}`));
    });
  });
}

function exited(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) =>
    proc.exitCode !== null || proc.signalCode !== null ? resolve() : proc.once('exit', () => resolve()),
  );
}

async function connect(url: string): Promise<MongoClient> {
  const client = new MongoClient(url, {
    ...embeddedClientOptions,
    serverSelectionTimeoutMS: 2000,
    maxPoolSize: 20,
  });
  await client.connect();
  return client;
}

describe('embedded MongoDB durability', () => {
  let dir: string;
  const children: ChildProcess[] = [];

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'emb-mongo-dur-'));
  });
  afterEach(() => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('loses no acknowledged write when killed with SIGKILL mid-load', async () => {
    const first = await startChild(dir);
    children.push(first.proc);
    const client = await connect(first.url);
    const docs = client.db('app').collection<AnyDoc>('events');
    const counters = client.db('app').collection<AnyDoc>('counters');
    await docs.createIndex({ key: 1 }, { unique: true });
    await counters.insertOne({ _id: 'c' as never, n: 0 });

    const acked = new Set<string>();
    let incAcked = 0;
    let incSent = 0;
    let stop = false;
    const writer = async (w: number): Promise<void> => {
      for (let i = 0; !stop; i++) {
        const id = `w${w}-${i}`;
        try {
          if (i % 3 === 2) {
            incSent += 1;
            await counters.updateOne({ _id: 'c' as never }, { $inc: { n: 1 } });
            incAcked += 1;
          } else {
            await docs.insertOne({ _id: id as never, key: id, payload: 'x'.repeat(200) });
            acked.add(id);
          }
        } catch {
          return; // the server is gone
        }
      }
    };
    const writers = Array.from({ length: 16 }, (_, w) => writer(w));
    while (acked.size < 1500) await new Promise((r) => setTimeout(r, 20));
    first.proc.kill('SIGKILL');
    await exited(first.proc);
    stop = true;
    await Promise.all(writers);
    await client.close(true);

    const second = await startChild(dir);
    children.push(second.proc);
    const after = await connect(second.url);
    try {
      const ids = new Set(
        (
          await after
            .db('app')
            .collection('events')
            .find({}, { projection: { _id: 1 } })
            .toArray()
        ).map((d) => String(d._id)),
      );
      const missing = [...acked].filter((id) => !ids.has(id));
      expect(missing).toEqual([]);
      const n = (await after
        .db('app')
        .collection('counters')
        .findOne({ _id: 'c' as never }))!.n as number;
      expect(n).toBeGreaterThanOrEqual(incAcked);
      expect(n).toBeLessThanOrEqual(incSent);
      // The unique index came back too.
      const some = [...acked][0];
      await expect(after.db('app').collection('events').insertOne({ key: some })).rejects.toMatchObject({
        code: 11000,
      });
    } finally {
      await after.close();
      second.proc.kill('SIGTERM');
      await exited(second.proc);
    }
  }, 60_000);

  it('keeps data, indexes and deletions across a clean restart', async () => {
    const first = await startChild(dir);
    children.push(first.proc);
    let client = await connect(first.url);
    const c = () => client.db('app').collection<AnyDoc>('users');
    await c().createIndex({ email: 1 }, { unique: true });
    await c().createIndex({ at: 1 }, { expireAfterSeconds: 3600 });
    await c().insertMany(
      Array.from({ length: 50 }, (_, i) => ({ _id: i as never, email: `u${i}@x`, at: new Date() })),
    );
    await c().deleteMany({ _id: { $gte: 40 } as never });
    await c().updateOne({ _id: 1 as never }, { $set: { email: 'changed@x' } });
    await client.db('app').collection('tmp').insertOne({ a: 1 });
    await client.db('app').collection('tmp').drop();
    await client.close();
    first.proc.kill('SIGTERM');
    await exited(first.proc);

    const second = await startChild(dir);
    children.push(second.proc);
    client = await connect(second.url);
    try {
      expect(await c().countDocuments()).toBe(40);
      expect(await c().findOne({ _id: 1 as never })).toMatchObject({ email: 'changed@x' });
      expect((await c().listIndexes().toArray()).map((i) => i.name).sort()).toEqual([
        '_id_',
        'at_1',
        'email_1',
      ]);
      await expect(c().insertOne({ email: 'u2@x' })).rejects.toMatchObject({ code: 11000 });
      await c().insertOne({ email: 'u1@x' }); // freed by the update before the restart
      expect((await client.db('app').listCollections().toArray()).map((x) => x.name)).toEqual(['users']);
    } finally {
      await client.close();
      second.proc.kill('SIGTERM');
      await exited(second.proc);
    }
  }, 60_000);

  it('ignores a torn or corrupt last record and keeps everything before it', async () => {
    let server = await startEmbeddedMongo({ dir });
    let client = await connect(server.url);
    await client
      .db('app')
      .collection('t')
      .insertMany([{ _id: 'a' }, { _id: 'b' }] as never[]);
    await client
      .db('app')
      .collection('t')
      .insertOne({ _id: 'last' } as never);
    await client.close();
    await server.close();
    const file = path.join(dir, JOURNAL);
    const intact = readFileSync(file);

    // 1. A record cut short: its header promises more bytes than the file has.
    const torn = Buffer.alloc(12);
    torn.writeUInt32LE(5000, 0);
    appendFileSync(file, torn);
    server = await startEmbeddedMongo({ dir });
    client = await connect(server.url);
    expect((await client.db('app').collection('t').find({}).toArray()).map((d) => d._id)).toEqual([
      'a',
      'b',
      'last',
    ]);
    await client
      .db('app')
      .collection('t')
      .insertOne({ _id: 'after-torn' } as never);
    await client.close();
    await server.close();
    expect(statSync(path.join(dir, 'journal.wal.torn')).size).toBe(intact.length + torn.length);

    // 2. A complete-looking last record whose checksum does not match: ignored, the rest kept.
    const now = readFileSync(file);
    now[now.length - 3] ^= 0xff;
    writeFileSync(file, now);
    server = await startEmbeddedMongo({ dir });
    client = await connect(server.url);
    try {
      const ids = (await client.db('app').collection('t').find({}).toArray()).map((d) => d._id);
      expect(ids.slice(0, 3)).toEqual(['a', 'b', 'last']);
      // The damaged record is the last one written: the snapshot at start ends with 'after-torn'.
      expect(ids).not.toContain('after-torn');
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('refuses a data directory that another server holds', async () => {
    const server = await startEmbeddedMongo({ dir });
    try {
      await expect(startEmbeddedMongo({ dir })).rejects.toThrow(/in use/);
    } finally {
      await server.close();
    }
    const again = await startEmbeddedMongo({ dir });
    await again.close();
  });
});
