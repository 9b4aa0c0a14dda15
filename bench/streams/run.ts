import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import { Pool } from 'undici';
import {
  killAllChildren,
  ownCpuMicros,
  processByName,
  startProcess,
  type BenchProcess,
} from '../tools/children';
import { deleteDeclaredAmqpNames } from '../support/amqp-names';
import { callJson } from './http-client';
import { runIntentStreams } from './intent-streams';
import type { MarkerReport } from './loop-runner';
import { runPanic } from './panic-bench';
import { markdown, targetsOf, type StreamsReport } from './report';
import { runSubscribers } from './subscribers';
import { countWork } from './work-counts';
import { ClaimsSealer } from '../../actors/identity/sealed-claims';

/**
 * `npm run bench:streams` (docs in bench/README.md), in one run against one cluster (an api node
 * and 2 worker nodes over RabbitMQ, one shared embedded MongoDB-wire server, Redis):
 *
 * 1. 1,000 concurrent `POST /api/studio/intent/stream` with a message the deterministic planner
 *    maps to a read-only command: time to the first event and to `done`, errors and event order.
 * 2. 200 subscribers of `GET /api/executions/{id}/events` on one DEMO_STEPS execution: delivery lag
 *    of each event to each subscriber, and that all got every event in order.
 * 3. Panic: 1,000 active executions (mostly RUNNING, in a loop of steps) over the 2 workers, then
 *    `POST /api/panic`: latency, stopped count, steps started after the answer (from the runners'
 *    markers and the persisted records), time until the workers' steps in flight were aborted.
 *
 * Writes bench/results/streams.json and streams.md. Environment: REDIS_URL (default
 * redis://127.0.0.1:6379), AMQP_URL (default amqp://guest:guest@127.0.0.1:5672), both loopback only
 * and both needed; BENCH_INTENT_STREAMS (1000), BENCH_SUBSCRIBERS (200), BENCH_PANIC_EXECUTIONS
 * (1000); BENCH_CPU_PROF (a directory: every node runs with --cpu-prof there, profiles written when
 * they stop). A watchdog stops everything after 175 s.
 */

const INTENT_STREAMS = Number(process.env.BENCH_INTENT_STREAMS ?? 1000);
const INTENT_MESSAGE = 'status';
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 200);
const FANOUT_STEPS = 8;
const FANOUT_STEP_MS = 300;
const PANIC_EXECUTIONS = Number(process.env.BENCH_PANIC_EXECUTIONS ?? 1000);
/** The loop steps' durations, spread evenly over the running executions. */
const PANIC_STEP_MS: [number, number] = [3000, 6000];
const PANIC_STEADY_MS = 8000;
const PANIC_SETTLE_MS = 3000;
const WORKERS = 2;
const WATCHDOG_MS = 175_000;

const started = Date.now();
const log = (line: string) =>
  process.stdout.write(`[bench:streams ${((Date.now() - started) / 1000).toFixed(1)}s] ${line}\n`);

/** The URL if it names this machine and answers, else undefined; a remote URL is refused. */
async function localService(raw: string, defaultPort: number): Promise<string | undefined> {
  const url = new URL(raw);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
    throw new Error(`bench:streams runs against this machine only; refusing ${url.hostname}`);
  }
  const host = url.hostname.replace(/[[\]]/g, '');
  const port = Number(url.port) || defaultPort;
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up ? raw : undefined);
    };
    socket.setTimeout(1500, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Deletes the Redis keys naming one of the run's accounts or workspaces (the panic flag if lifting
 * failed, membership caches); rate-limit counters and sessions expire by themselves.
 */
async function cleanRedis(url: string, given: readonly string[]): Promise<number> {
  const ids = given.filter((id) => id.length >= 8); // never a pattern that matches everything
  if (ids.length === 0) return 0;
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'COUNT', 2000);
      cursor = next;
      const ours = keys.filter((k) => ids.some((id) => k.includes(id)));
      if (ours.length > 0) deleted += await redis.del(...ours);
    } while (cursor !== '0');
  } finally {
    await redis.quit().catch(() => undefined);
  }
  return deleted;
}

/** Signs up an account: its bearer token and its id (the token's subject, for the cleanup). */
async function signup(
  pool: Pool,
  label: string,
  jwtSecret: string,
): Promise<{ token: string; accountId: string }> {
  const res = await callJson(pool, 'POST', '/api/signup', undefined, {
    email: `bench-streams-${label}-${randomBytes(5).toString('hex')}@example.com`,
    password: 'correct horse battery staple',
    accountType: 'retail',
    selectedPlan: 'retail_pro',
  });
  const token = (res.body as { credentials?: { bearerToken?: string } }).credentials?.bearerToken;
  if (res.status !== 201 || !token) throw new Error(`signup: ${res.status} ${JSON.stringify(res.body)}`);
  // The subject is sealed in the token: opened with the cluster's secret (cleanup only).
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
  const sub = new ClaimsSealer(jwtSecret).claimsOf(payload)?.sub;
  return { token, accountId: typeof sub === 'string' ? sub : '' };
}

async function main(): Promise<void> {
  const declared = { queues: new Set<string>(), exchanges: new Set<string>() };
  /** Set once the broker is known: what the watchdog cleans up before it exits. */
  const broker: { url?: string } = {};
  const watchdog = setTimeout(() => {
    process.stderr.write('bench:streams: watchdog fired, killing every child\n');
    killAllChildren();
    const cleanup = broker.url
      ? deleteDeclaredAmqpNames(broker.url, declared, 'bench-streams-cleanup')
      : Promise.resolve();
    const cap = new Promise((resolve) => setTimeout(resolve, 5000));
    void Promise.race([cleanup.catch(() => undefined), cap]).finally(() => process.exit(2));
  }, WATCHDOG_MS);
  watchdog.unref();

  const loadBefore = os.loadavg();
  const redisUrl = await localService(process.env.REDIS_URL || 'redis://127.0.0.1:6379', 6379);
  const amqpUrl = await localService(process.env.AMQP_URL || 'amqp://guest:guest@127.0.0.1:5672', 5672);
  if (!redisUrl) throw new Error('bench:streams needs Redis (REDIS_URL, default redis://127.0.0.1:6379)');
  if (!amqpUrl) throw new Error('bench:streams needs RabbitMQ (AMQP_URL, default amqp://127.0.0.1:5672)');
  broker.url = amqpUrl;
  log(`load average ${loadBefore.map((x) => x.toFixed(2)).join(' / ')}; ${os.availableParallelism()} cores`);

  const runId = randomBytes(4).toString('hex');
  const prefix = `bench-streams-${runId}`;
  const processes: BenchProcess[] = [];
  /** Accounts and workspaces of the run, whose Redis keys are deleted at the end. */
  const ownIds: string[] = [];
  const jwtSecret = randomBytes(32).toString('hex');
  const cpuProfDir = process.env.BENCH_CPU_PROF;
  const start = (name: string, script: string, env: Record<string, string>) => {
    const profile = cpuProfDir
      ? [
          '--cpu-prof',
          `--cpu-prof-dir=${path.resolve(cpuProfDir)}`,
          `--cpu-prof-name=${name.replace(/\W+/g, '-')}-${runId}.cpuprofile`,
        ]
      : [];
    const p = startProcess(name, script, env, profile);
    processes.push(p);
    for (const event of ['declared', 'declared-at-stop']) {
      void p
        .next<{ event: string; queues?: string[]; exchanges?: string[] }>(event, WATCHDOG_MS)
        .then((m) => {
          for (const q of m.queues ?? []) declared.queues.add(q);
          for (const e of m.exchanges ?? []) declared.exchanges.add(e);
        })
        .catch(() => undefined);
    }
    return p;
  };
  let pool: Pool | undefined;
  let mongo: MongoClient | undefined;
  let report: StreamsReport | undefined;

  try {
    const documents = start('documents', '../tools/mongo.child', {});
    const documentsUrl = (await documents.next<{ event: string; url: string }>('ready')).url;
    const dbName = `bench_streams_${runId}`;
    const common = {
      ROLE: 'worker',
      AMQP_URL: amqpUrl,
      AMQP_PREFIX: prefix,
      REDIS_URL: redisUrl,
      MONGODB_URL: `${documentsUrl.replace(/\/$/, '')}/${dbName}`,
      JWT_SECRET: jwtSecret,
      REQUEST_TIMEOUT_MS: '30000',
      SANDBOX_THREADS: '1',
    };
    const workers = Array.from({ length: WORKERS }, (_, i) =>
      start(`worker ${i + 1}`, '../streams/node.child', { ...common, NODE_ID: `${prefix}-w${i + 1}` }),
    );
    await Promise.all(workers.map((w) => w.next('ready', 60_000)));
    const api = start('api', '../streams/node.child', { ...common, ROLE: 'api', NODE_ID: `${prefix}-api` });
    const { url } = await api.next<{ event: string; url: string }>('ready', 60_000);
    log(`cluster ready: api + ${WORKERS} workers over RabbitMQ (prefix ${prefix})`);

    mongo = await MongoClient.connect(documentsUrl);
    const db = mongo.db(dbName);
    // One connection per concurrent stream: the bound is the number of streams.
    pool = new Pool(url, {
      connections: Math.max(INTENT_STREAMS, SUBSCRIBERS, 64),
      keepAliveTimeout: 30_000,
    });
    let markerCalls = 0;
    const markers = (since: number) =>
      Promise.all(
        workers.map((w) => {
          const id = String(++markerCalls);
          w.send({ cmd: 'markers', id, since });
          return w
            .next<{ event: string; report: MarkerReport }>(`markers:${id}`, 15_000)
            .then((m) => m.report);
        }),
      );

    // CPU time of every process over each part (RabbitMQ and Redis: their whole CPU, others' load included).
    const beam = processByName('beam.smp');
    const redisServer = processByName('redis-server');
    const cpuNow = (): Record<string, number | undefined> => ({
      api: api.cpuMicros(),
      ...Object.fromEntries(workers.map((w, i) => [`worker${i + 1}`, w.cpuMicros()])),
      documents: documents.cpuMicros(),
      rabbitmq: beam?.cpuMicros(),
      redis: redisServer?.cpuMicros(),
      bench: ownCpuMicros(),
    });
    const cpuSince = (before: Record<string, number | undefined>) => {
      const after = cpuNow();
      return Object.fromEntries(
        Object.entries(before).map(([k, v]) => [k, Math.round(((after[k] ?? NaN) - (v ?? NaN)) / 1000)]),
      );
    };

    const chat = await signup(pool, 'streams', jwtSecret);
    ownIds.push(chat.accountId);
    const warm = await runIntentStreams(pool, chat.token, 20, INTENT_MESSAGE);
    log(`warm-up: 20 intent streams, ${warm.completed} completed`);

    log(`1. ${INTENT_STREAMS} concurrent intent streams ("${INTENT_MESSAGE}")`);
    const intentWork = await countWork([documents, api, ...workers], WORKERS + 1);
    const intentCpu = cpuNow();
    const intent = await runIntentStreams(pool, chat.token, INTENT_STREAMS, INTENT_MESSAGE);
    const intentCpuMs = cpuSince(intentCpu);
    const intentPer = await intentWork.per(INTENT_STREAMS);
    log(`  work per stream: ${JSON.stringify(intentPer)}`);
    log(`  CPU ms: ${JSON.stringify(intentCpuMs)}`);
    log(
      `  first event p50 ${intent.firstEventMs.p50} / p99 ${intent.firstEventMs.p99} ms; done p50 ${intent.doneMs.p50} / p99 ${intent.doneMs.p99} ms; ${intent.completed} completed; errors ${JSON.stringify(intent.errors)}`,
    );

    if (process.env.BENCH_ONLY_INTENT) return;
    log(`2. ${SUBSCRIBERS} subscribers of one execution (${FANOUT_STEPS} steps of ${FANOUT_STEP_MS} ms)`);
    const fanOutCpu = cpuNow();
    const fanOut = await runSubscribers(pool, chat.token, SUBSCRIBERS, FANOUT_STEPS, FANOUT_STEP_MS);
    const fanOutCpuMs = cpuSince(fanOutCpu);
    log(
      `  lag p50 ${fanOut.lagMs.p50} / p99 ${fanOut.lagMs.p99} / max ${fanOut.lagMs.max} ms over ${fanOut.lagMs.n} deliveries; ${fanOut.complete}/${SUBSCRIBERS} complete, ${fanOut.divergent} divergent, ${fanOut.failed} failed`,
    );

    const running = Math.round(PANIC_EXECUTIONS * 0.85);
    const queued = Math.round(PANIC_EXECUTIONS * 0.1);
    const mix = { running, queued, paused: PANIC_EXECUTIONS - running - queued };
    log(`3. panic over ${PANIC_EXECUTIONS} active executions ${JSON.stringify(mix)}`);
    const owner = await signup(pool, 'panic', jwtSecret);
    ownIds.push(owner.accountId);
    const panic = await runPanic({
      pool,
      token: owner.token,
      db,
      mix,
      stepMs: PANIC_STEP_MS,
      steadyMs: PANIC_STEADY_MS,
      settleMs: PANIC_SETTLE_MS,
      markers,
      log,
      onWorkspace: (id) => ownIds.push(id),
    });
    log(
      `  steps started after the answer: ${panic.stepsStartedAfterAnswer} (runners), ${panic.persistedStepsStartedAfterAnswer} (records); last abort per worker ${panic.aborts.map((a) => a.lastAbortMs).join(', ')} ms`,
    );

    const loadAfter = os.loadavg();
    report = {
      date: new Date().toISOString(),
      nproc: os.availableParallelism(),
      node: process.version,
      loadAverage: { before: loadBefore, after: loadAfter },
      layout: `api + ${WORKERS} workers (ROLE=api/worker) over RabbitMQ, one embedded MongoDB-wire server process, Redis cache; undici Pool bounded to ${Math.max(INTENT_STREAMS, SUBSCRIBERS, 64)} connections`,
      intent,
      fanOut,
      panic,
      cpuMs: { intent: intentCpuMs, fanOut: fanOutCpuMs },
      checks: [],
      durationSeconds: 0,
    };
  } finally {
    log('stopping children');
    await pool?.close().catch(() => undefined);
    await mongo?.close().catch(() => undefined);
    await Promise.all(processes.filter((p) => p.name !== 'documents').map((p) => p.stop(15_000)));
    await Promise.all(processes.map((p) => p.stop(5_000)));
    killAllChildren();
    await deleteDeclaredAmqpNames(amqpUrl, declared, 'bench-streams-cleanup').catch(() => undefined);
    const redisDeleted = await cleanRedis(redisUrl, ownIds).catch(() => -1);
    log(
      `cleaned: ${declared.queues.size} queues, ${declared.exchanges.size} exchanges, ${redisDeleted} Redis keys`,
    );
  }

  if (!report) return;
  report.checks = targetsOf(report);
  report.durationSeconds = Math.round((Date.now() - started) / 1000);
  const dir = path.resolve(__dirname, __filename.endsWith('.js') ? '../../../bench/results' : '../results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'streams.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(path.join(dir, 'streams.md'), markdown(report));
  log(`wrote ${path.join('bench', 'results', 'streams.json')} and streams.md`);
  for (const c of report.checks) log(`${c.pass ? 'PASS' : 'FAIL'} ${c.name}: ${c.value}`);
  clearTimeout(watchdog);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:streams failed: ${String((err as Error)?.stack ?? err)}\n`);
  killAllChildren();
  process.exit(1);
});
