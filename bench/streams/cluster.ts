import { readFileSync } from 'node:fs';
import path from 'node:path';
import { nodeFlagsOfStart } from '../support/start-flags';
import { ownCpuMicros, processByName, startProcess, type BenchProcess } from '../tools/children';

/** The Node flags the service's nodes run with, as `npm start` gives them. */
const START_FLAGS = nodeFlagsOfStart();

/** The two layouts the benchmark runs: api + 2 workers over RabbitMQ, or one process (`npm start`). */
export type Layout = 'amqp' | 'in-process';

export interface Cluster {
  layout: Layout;
  url: string;
  /** The service processes (documents, api, workers; or the one node). */
  processes: BenchProcess[];
  /** The worker processes (panic markers); the one node in process. */
  workers: BenchProcess[];
  /** Nodes that receive each broadcast. */
  nodes: number;
  /** Documents server URL (AMQP layout only: the in-process node embeds its own). */
  documentsUrl?: string;
  dbName?: string;
  describe: string;
  cpuNow(): Record<string, number | undefined>;
  cpuSince(before: Record<string, number | undefined>): Record<string, number>;
  /** Resident memory of each service process, in KB. */
  rssKb(): Record<string, number>;
}

export interface ClusterOptions {
  layout: Layout;
  workers: number;
  prefix: string;
  jwtSecret: string;
  redisUrl: string;
  amqpUrl: string;
  /** Every started process (for the clean-up). */
  started: (p: BenchProcess) => void;
  cpuProfDir?: string;
}

function rssKbOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/**
 * Starts the processes of one layout. `amqp`: one embedded MongoDB-wire server process, `workers`
 * worker nodes and an api node over RabbitMQ, Redis cache. `in-process`: one node with every role,
 * the in-process transport, its embedded document server and in-memory cache (the `npm start`
 * defaults).
 */
export async function startCluster(o: ClusterOptions): Promise<Cluster> {
  const start = (name: string, script: string, env: Record<string, string>) => {
    const profile = o.cpuProfDir
      ? [
          '--cpu-prof',
          `--cpu-prof-dir=${path.resolve(o.cpuProfDir)}`,
          `--cpu-prof-name=${o.layout}-${name.replace(/\W+/g, '-')}-${o.prefix}.cpuprofile`,
        ]
      : [];
    // The service's nodes run with the Node flags of `npm start`; the document server stands in for
    // a MongoDB server, which no such flag concerns.
    const flags = name === 'documents' ? [] : START_FLAGS;
    const p = startProcess(name, script, env, [...flags, ...profile]);
    o.started(p);
    return p;
  };
  const named: Array<[string, BenchProcess]> = [];
  let url: string;
  let workers: BenchProcess[];
  let documentsUrl: string | undefined;
  let dbName: string | undefined;
  if (o.layout === 'amqp') {
    // With its journal, fsynced before each acknowledgement, as the in-process node's and a real
    // MongoDB's: the writes of a stream are what this benchmark measures.
    const documents = start('documents', '../tools/mongo.child', { BENCH_DOCUMENTS_JOURNAL: '1' });
    documentsUrl = (await documents.next<{ event: string; url: string }>('ready')).url;
    dbName = `bench_streams_${o.prefix.replace(/\W+/g, '_')}`;
    const common = {
      ROLE: 'worker',
      AMQP_URL: o.amqpUrl,
      AMQP_PREFIX: o.prefix,
      REDIS_URL: o.redisUrl,
      MONGODB_URL: `${documentsUrl.replace(/\/$/, '')}/${dbName}`,
      JWT_SECRET: o.jwtSecret,
      REQUEST_TIMEOUT_MS: '30000',
      SANDBOX_THREADS: '1',
    };
    workers = Array.from({ length: o.workers }, (_, i) =>
      start(`worker ${i + 1}`, '../streams/node.child', { ...common, NODE_ID: `${o.prefix}-w${i + 1}` }),
    );
    await Promise.all(workers.map((w) => w.next('ready', 60_000)));
    const api = start('api', '../streams/node.child', { ...common, ROLE: 'api', NODE_ID: `${o.prefix}-api` });
    url = (await api.next<{ event: string; url: string }>('ready', 60_000)).url;
    named.push(
      ['documents', documents],
      ['api', api],
      ...workers.map((w, i): [string, BenchProcess] => [`worker${i + 1}`, w]),
    );
  } else {
    // Empty values count as unset (src/config): the `npm start` defaults, whatever this shell exports.
    const node = start('node', '../streams/node.child', {
      ROLE: 'all',
      AMQP_URL: '',
      REDIS_URL: '',
      MONGODB_URL: '',
      JWT_SECRET: o.jwtSecret,
      REQUEST_TIMEOUT_MS: '30000',
      SANDBOX_THREADS: '1',
      NODE_ID: `${o.prefix}-node`,
    });
    url = (await node.next<{ event: string; url: string }>('ready', 60_000)).url;
    workers = [node];
    named.push(['node', node]);
  }
  const beam = o.layout === 'amqp' ? processByName('beam.smp') : undefined;
  const redisServer = o.layout === 'amqp' ? processByName('redis-server') : undefined;
  const cpuNow = (): Record<string, number | undefined> => ({
    ...Object.fromEntries(named.map(([n, p]) => [n, p.cpuMicros()])),
    ...(o.layout === 'amqp' ? { rabbitmq: beam?.cpuMicros(), redis: redisServer?.cpuMicros() } : {}),
    bench: ownCpuMicros(),
  });
  return {
    layout: o.layout,
    url,
    processes: named.map(([, p]) => p),
    workers,
    nodes: o.layout === 'amqp' ? o.workers + 1 : 1,
    documentsUrl,
    dbName,
    describe:
      o.layout === 'amqp'
        ? `api + ${o.workers} workers (ROLE=api/worker) over RabbitMQ, one embedded MongoDB-wire server process (journaled), Redis cache`
        : 'one process (`npm start` defaults: in-process transport, embedded document server, memory cache)',
    cpuNow,
    cpuSince: (before) => {
      const after = cpuNow();
      return Object.fromEntries(
        Object.entries(before).map(([k, v]) => [k, Math.round(((after[k] ?? NaN) - (v ?? NaN)) / 1000)]),
      );
    },
    rssKb: () => Object.fromEntries(named.map(([n, p]) => [n, rssKbOf(p.pid)])),
  };
}
