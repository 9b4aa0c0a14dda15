import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { MongoClient, type Collection } from 'mongodb';
import { embeddedClientOptions, startEmbeddedMongo } from '../../src/store/embedded-mongo';
import { interleave, type CaseResult } from './measure';
import { startServerProcess } from './server-process';

/** One configuration of the embedded server under test. */
export interface MongoBenchConfig {
  /** `memory`: no journal; `journaled`: journal in a temporary directory (the persisted setup). */
  mode: 'memory' | 'journaled';
  /**
   * `in-process`: server and driver share one process and one event loop (the embedded setup of
   * `npm start`); `separate-process`: the server runs as `store:serve` in its own process, so
   * client and server each get a core. Default in-process.
   */
  server?: 'in-process' | 'separate-process';
  /** Collection sizes compared; each gets its own collection in the same server. Default [1000, 100000]. */
  sizes?: number[];
  /** Operations outstanding at once. Default 50. */
  concurrency?: number;
  /** Alternating rounds per case. Default 6. */
  rounds?: number;
  /** Duration of one round of one size, ms. Default 400. */
  msPerRound?: number;
}

/** Results of one configuration: per case, per collection size. */
export interface MongoBenchResult {
  mode: string;
  server: string;
  loadMs: number;
  findOneById: Record<string, CaseResult>;
  insertOne: Record<string, CaseResult>;
  conditionalUpdate: Record<string, CaseResult>;
}

interface BenchDoc {
  _id: string;
  tenant: string;
  state: string;
  version: number;
  payload: { title: string; body: string; tags: string[] };
  createdAt: Date;
}

const idOf = (i: number) => `doc_${i.toString(36).padStart(8, '0')}`;

function makeDoc(i: number): BenchDoc {
  return {
    _id: idOf(i),
    tenant: `t${i % 100}`,
    state: 'idle',
    version: 0,
    payload: { title: `document ${i}`, body: 'x'.repeat(300), tags: ['a', 'b', `n${i % 10}`] },
    createdAt: new Date(),
  };
}

const random = (n: number) => Math.floor(Math.random() * n);

/**
 * Loads one collection per size, then times findOne by _id, insertOne and a conditional update
 * (filter on _id and another field), the sizes alternating round by round (see `interleave`).
 */
export async function runMongoBench(config: MongoBenchConfig): Promise<MongoBenchResult> {
  const sizes = config.sizes ?? [1_000, 100_000];
  const concurrency = config.concurrency ?? 50;
  const rounds = { concurrency, rounds: config.rounds ?? 6, msPerRound: config.msPerRound ?? 400 };
  const separate = config.server === 'separate-process';
  const dir =
    config.mode === 'journaled' || separate
      ? mkdtempSync(path.join(tmpdir(), 'emb-mongo-bench-'))
      : undefined;
  const child = separate ? await startServerProcess(dir!) : undefined;
  const inProcess = separate ? undefined : await startEmbeddedMongo({ dir, port: 0 });
  const client = new MongoClient(child?.url ?? inProcess!.url, {
    ...embeddedClientOptions,
    maxPoolSize: concurrency,
  });
  const opts = { ...rounds, serverCpu: child ? () => child.cpuMicros() : undefined };
  try {
    await client.connect();
    const colls = new Map<number, Collection<BenchDoc>>();
    const loadStart = performance.now();
    for (const size of sizes) {
      const coll = client.db('bench').collection<BenchDoc>(`docs_${size}`);
      for (let i = 0; i < size; i += 1000) {
        const n = Math.min(1000, size - i);
        await coll.insertMany(
          Array.from({ length: n }, (_, j) => makeDoc(i + j)),
          { ordered: false },
        );
      }
      colls.set(size, coll);
    }
    const loadMs = Math.round(performance.now() - loadStart);
    const perSize = <T>(f: (coll: Collection<BenchDoc>, size: number) => (i: number) => Promise<T>) =>
      Object.fromEntries(sizes.map((s) => [String(s), f(colls.get(s)!, s)]));

    // Warm-up (pool connections, JIT), then reads first: the fsyncs of the write cases leave disk
    // work behind that would weigh on them.
    await interleave(
      perSize((c, size) => () => c.findOne({ _id: idOf(random(size)) })),
      { ...opts, rounds: 2, msPerRound: 300 },
    );
    const findOneById = await interleave(
      perSize((c, size) => async () => {
        if (!(await c.findOne({ _id: idOf(random(size)) }))) throw new Error('benchmark document missing');
      }),
      opts,
    );
    const next = new Map(sizes.map((s) => [s, s]));
    const insertOne = await interleave(
      perSize((c, size) => () => {
        const i = next.get(size)!;
        next.set(size, i + 1);
        return c.insertOne(makeDoc(i));
      }),
      opts,
    );
    const conditionalUpdate = await interleave(
      perSize((c, size) => async () => {
        const r = await c.updateOne(
          { _id: idOf(random(size)), version: { $gte: 0 } },
          { $inc: { version: 1 }, $set: { state: 'busy' } },
        );
        if (r.matchedCount !== 1) throw new Error('conditional update missed');
      }),
      opts,
    );
    const server = separate ? 'separate-process' : 'in-process';
    return { mode: config.mode, server, loadMs, findOneById, insertOne, conditionalUpdate };
  } finally {
    await client.close();
    await inProcess?.close();
    await child?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}
