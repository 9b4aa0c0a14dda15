import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { MongoClient, type Collection } from 'mongodb';
import { embeddedClientOptions, startEmbeddedMongo } from '../../src/store/embedded-mongo';
import { measure, type CaseResult } from './measure';
import { startServerProcess } from './server-process';

/** One configuration of the embedded server under test. */
export interface MongoBenchConfig {
  /** `memory`: no journal; `journaled`: journal in a temporary directory (the persisted setup). */
  mode: 'memory' | 'journaled';
  /**
   * `in-process`: server and driver share one process and one event loop (the embedded setup of
   * `npm start`); `separate-process`: the server runs as `store:serve` in its own process
   * (journaled only), so client and server each get a core. Default in-process.
   */
  server?: 'in-process' | 'separate-process';
  /** Documents loaded before the timed cases. */
  documents: number;
  /** Operations outstanding at once. Default 50. */
  concurrency?: number;
  /** Time bound of one case in ms. Default 2500. */
  maxMsPerCase?: number;
}

/** A case with its CPU cost: this process per operation, and the server process when separate. */
export interface TimedCase extends CaseResult {
  cpuUsPerOp: number;
  serverCpuUsPerOp?: number;
}

export interface MongoBenchResult {
  mode: string;
  server: string;
  documents: number;
  loadMs: number;
  insertOne: TimedCase;
  findOneById: TimedCase;
  conditionalUpdate: TimedCase;
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

/** Loads `documents` documents, then times insertOne, findOne by _id and a conditional update. */
export async function runMongoBench(config: MongoBenchConfig): Promise<MongoBenchResult> {
  const concurrency = config.concurrency ?? 50;
  const maxMs = config.maxMsPerCase ?? 2500;
  const separate = config.server === 'separate-process';
  const dir =
    config.mode === 'journaled' || separate
      ? mkdtempSync(path.join(tmpdir(), 'emb-mongo-bench-'))
      : undefined;
  const child = separate ? await startServerProcess(dir!) : undefined;
  const inProcess = separate ? undefined : await startEmbeddedMongo({ dir, port: 0 });
  const url = child?.url ?? inProcess!.url;
  const client = new MongoClient(url, { ...embeddedClientOptions, maxPoolSize: concurrency });
  const timed = async (run: () => Promise<CaseResult>): Promise<TimedCase> => {
    const cpu0 = process.cpuUsage();
    const server0 = child?.cpuMicros();
    const r = await run();
    const cpu = process.cpuUsage(cpu0);
    const server1 = child?.cpuMicros();
    const perOp = (us: number) => Math.round((us / Math.max(1, r.ops)) * 10) / 10;
    const out: TimedCase = { ...r, cpuUsPerOp: perOp(cpu.user + cpu.system) };
    if (server0 !== undefined && server1 !== undefined) out.serverCpuUsPerOp = perOp(server1 - server0);
    return out;
  };
  try {
    await client.connect();
    const coll: Collection<BenchDoc> = client.db('bench').collection<BenchDoc>('docs');
    const loadStart = performance.now();
    for (let i = 0; i < config.documents; i += 1000) {
      const n = Math.min(1000, config.documents - i);
      await coll.insertMany(
        Array.from({ length: n }, (_, j) => makeDoc(i + j)),
        { ordered: false },
      );
    }
    const loadMs = Math.round(performance.now() - loadStart);
    let nextId = config.documents;
    // Warm-up: connections of the pool, JIT.
    await measure(
      () => coll.findOne({ _id: idOf(Math.floor(Math.random() * config.documents)) }),
      concurrency,
      2000,
      1000,
    );

    const insertOne = await timed(() =>
      measure(() => coll.insertOne(makeDoc(nextId++)), concurrency, 200_000, maxMs),
    );
    const total = nextId;
    const findOneById = await timed(() =>
      measure(
        async () => {
          const doc = await coll.findOne({ _id: idOf(Math.floor(Math.random() * total)) });
          if (!doc) throw new Error('benchmark document missing');
        },
        concurrency,
        500_000,
        maxMs,
      ),
    );
    const conditionalUpdate = await timed(() =>
      measure(
        async () => {
          const id = idOf(Math.floor(Math.random() * total));
          const r = await coll.updateOne(
            { _id: id, version: { $gte: 0 } },
            { $inc: { version: 1 }, $set: { state: 'busy' } },
          );
          if (r.matchedCount !== 1) throw new Error('conditional update missed');
        },
        concurrency,
        200_000,
        maxMs,
      ),
    );
    const server = separate ? 'separate-process' : 'in-process';
    return {
      mode: config.mode,
      server,
      documents: config.documents,
      loadMs,
      insertOne,
      findOneById,
      conditionalUpdate,
    };
  } finally {
    await client.close();
    await inProcess?.close();
    await child?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}
