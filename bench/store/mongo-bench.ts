import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { MongoClient, type Collection } from 'mongodb';
import { embeddedClientOptions, startEmbeddedMongo } from '../../src/store/embedded-mongo';
import { measure, type CaseResult } from './measure';

/** One configuration of the embedded server under test. */
export interface MongoBenchConfig {
  /** `memory`: no journal; `journaled`: journal in a temporary directory (the persisted setup). */
  mode: 'memory' | 'journaled';
  /** Documents loaded before the timed cases. */
  documents: number;
  /** Operations outstanding at once. Default 50. */
  concurrency?: number;
  /** Time bound of one case in ms. Default 2500. */
  maxMsPerCase?: number;
}

export interface MongoBenchResult {
  mode: string;
  documents: number;
  loadMs: number;
  insertOne: CaseResult;
  findOneById: CaseResult;
  conditionalUpdate: CaseResult;
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
  const dir = config.mode === 'journaled' ? mkdtempSync(path.join(tmpdir(), 'emb-mongo-bench-')) : undefined;
  const server = await startEmbeddedMongo({ dir, port: 0 });
  const client = new MongoClient(server.url, { ...embeddedClientOptions, maxPoolSize: concurrency });
  try {
    await client.connect();
    const coll: Collection<BenchDoc> = client.db('bench').collection<BenchDoc>('docs');
    const loadStart = performance.now();
    for (let i = 0; i < config.documents; i += 1000) {
      const n = Math.min(1000, config.documents - i);
      await coll.insertMany(Array.from({ length: n }, (_, j) => makeDoc(i + j)), { ordered: false });
    }
    const loadMs = Math.round(performance.now() - loadStart);
    let nextId = config.documents;
    // Warm-up: connections of the pool, JIT.
    await measure(() => coll.findOne({ _id: idOf(Math.floor(Math.random() * config.documents)) }), concurrency, 2000, 1000);

    const insertOne = await measure(() => coll.insertOne(makeDoc(nextId++)), concurrency, 200_000, maxMs);
    const total = nextId;
    const findOneById = await measure(
      async () => {
        const doc = await coll.findOne({ _id: idOf(Math.floor(Math.random() * total)) });
        if (!doc) throw new Error('benchmark document missing');
      },
      concurrency,
      500_000,
      maxMs,
    );
    const conditionalUpdate = await measure(
      async () => {
        const id = idOf(Math.floor(Math.random() * total));
        const r = await coll.updateOne({ _id: id, version: { $gte: 0 } }, { $inc: { version: 1 }, $set: { state: 'busy' } });
        if (r.matchedCount !== 1) throw new Error('conditional update missed');
      },
      concurrency,
      200_000,
      maxMs,
    );
    return { mode: config.mode, documents: config.documents, loadMs, insertOne, findOneById, conditionalUpdate };
  } finally {
    await client.close();
    await server.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}
