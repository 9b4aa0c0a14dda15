import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { Pool } from 'undici';
import { killAllChildren, startProcess, type BenchProcess } from '../tools/children';
import { deleteDeclaredAmqpNames } from '../support/amqp-names';
import { startCluster, type Cluster, type Layout } from './cluster';
import { runFairnessRounds } from './fairness';
import { runHeldStreams } from './held-streams';
import { runIntentPart } from './intent-part';
import { runIntentStreams } from './intent-streams';
import { medianBy } from './http-client';
import { targetOf } from './raw-stream-client';
import type { MarkerReport } from './loop-runner';
import { runPanic } from './panic-bench';
import { markdown, targetsOf, type BareFigures, type LayoutFigures, type StreamsReport } from './report';
import { cleanRedis, localService, signup } from './setup';
import { runSubscribers } from './subscribers';

/**
 * `npm run bench:streams` (docs in bench/README.md), once per layout: the AMQP layout (an api node
 * and 2 worker nodes over RabbitMQ, one shared embedded MongoDB-wire server, Redis) and the
 * in-process one (`npm start`: one process). In each:
 *
 * 1. 1,000 concurrent `POST /api/studio/intent/stream` with a message the deterministic planner
 *    maps to a read-only command: time to the first event and to `done`, errors and event order,
 *    CPU of every process and the work per stream (document commands, broker messages, turns);
 *    once cold, then BENCH_WARM_BURSTS (5) times warm, each beside the same burst to the front
 *    door alone (front-door.route.ts), the burst of median first-event p99 kept.
 * 2. Fairness: client A sends 1,000 streams at once, client B one just after: B's times;
 *    BENCH_FAIRNESS_ROUNDS (3) rounds, the round of median B kept.
 * 3. 5,000 held streams (`GET /api/executions/{id}/events` on 50 running executions): errors and
 *    memory per open stream.
 * 4. 200 subscribers of one execution: delivery lag of each event to each subscriber, in order.
 * 5. Panic (AMQP layout): 1,000 active executions over the 2 workers, then `POST /api/panic`.
 *
 * Writes bench/results/streams.json and streams.md. Environment: REDIS_URL, AMQP_URL (loopback
 * only, both needed); BENCH_INTENT_STREAMS (1000), BENCH_HELD_STREAMS (5000), BENCH_SUBSCRIBERS
 * (200), BENCH_PANIC_EXECUTIONS (1000), BENCH_LAYOUTS (`amqp,in-process`); BENCH_PARTS (the parts
 * to run, `intent,fairness,held,subscribers,panic`: a reduced run to compare two builds);
 * BENCH_WARM_BURSTS (5); BENCH_FAIRNESS_ROUNDS (3); BENCH_RESULTS_NAME (`streams`: the files written); BENCH_CPU_PROF (a directory: every node runs
 * with --cpu-prof there). A watchdog stops everything after 540 s.
 */

const INTENT_STREAMS = Number(process.env.BENCH_INTENT_STREAMS ?? 1000);
const HELD_STREAMS = Number(process.env.BENCH_HELD_STREAMS ?? 5000);
const INTENT_MESSAGE = 'status';
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 200);
const FANOUT_STEPS = 8;
const FANOUT_STEP_MS = 300;
const PANIC_EXECUTIONS = Number(process.env.BENCH_PANIC_EXECUTIONS ?? 1000);
const PANIC_STEP_MS: [number, number] = [3000, 6000];
const LAYOUTS = (process.env.BENCH_LAYOUTS ?? 'amqp,in-process').split(',').filter(Boolean) as Layout[];
const PARTS = new Set(
  (process.env.BENCH_PARTS ?? 'intent,fairness,held,subscribers,panic').split(',').map((p) => p.trim()),
);
const WORKERS = 2;
const WARM_BURSTS = Math.max(1, Number(process.env.BENCH_WARM_BURSTS ?? 5));
const FAIRNESS_ROUNDS = Math.max(1, Number(process.env.BENCH_FAIRNESS_ROUNDS ?? 3));

const WATCHDOG_MS = 540_000;

const started = Date.now();
const log = (line: string) =>
  process.stdout.write(`[bench:streams ${((Date.now() - started) / 1000).toFixed(1)}s] ${line}\n`);

interface Run {
  amqpUrl: string;
  redisUrl: string;
  runId: string;
  jwtSecret: string;
  declared: { queues: Set<string>; exchanges: Set<string> };
  processes: BenchProcess[];
  ownIds: string[];
}

function track(run: Run, p: BenchProcess): void {
  run.processes.push(p);
  for (const event of ['declared', 'declared-at-stop']) {
    void p
      .next<{ event: string; queues?: string[]; exchanges?: string[] }>(event, WATCHDOG_MS)
      .then((m) => {
        for (const q of m.queues ?? []) run.declared.queues.add(q);
        for (const e of m.exchanges ?? []) run.declared.exchanges.add(e);
      })
      .catch(() => undefined);
  }
}

/** Every part of the benchmark on one layout; the cluster is stopped before it resolves. */
async function runLayout(run: Run, layout: Layout): Promise<LayoutFigures> {
  const prefix = `bench-streams-${run.runId}-${layout === 'amqp' ? 'a' : 'p'}`;
  const cluster: Cluster = await startCluster({
    layout,
    workers: WORKERS,
    prefix,
    jwtSecret: run.jwtSecret,
    redisUrl: run.redisUrl,
    amqpUrl: run.amqpUrl,
    started: (p) => track(run, p),
    cpuProfDir: process.env.BENCH_CPU_PROF,
  });
  log(`[${layout}] ready: ${cluster.describe}`);
  const pool = new Pool(cluster.url, {
    // Every stream of a part holds a connection; the control calls (create, resume) need more.
    connections: Math.max(INTENT_STREAMS + 1, HELD_STREAMS, SUBSCRIBERS) + 64,
    keepAliveTimeout: 30_000,
  });
  let mongo: MongoClient | undefined;
  try {
    const chat = await signup(pool, 'streams', run.jwtSecret);
    const other = await signup(pool, 'other', run.jwtSecret);
    run.ownIds.push(chat.accountId, other.accountId);
    const target = targetOf(cluster.url);
    log(
      `[${layout}] 1. ${INTENT_STREAMS} concurrent intent streams ("${INTENT_MESSAGE}"), cold then ${WARM_BURSTS} warm, each beside the front door alone`,
    );
    const intentPart = await runIntentPart({
      cluster,
      target,
      token: chat.token,
      otherToken: other.token,
      streams: INTENT_STREAMS,
      message: INTENT_MESSAGE,
      warmBursts: WARM_BURSTS,
      log,
    });

    let fairness: LayoutFigures['fairness'];
    let fairnessRounds: LayoutFigures['fairnessRounds'];
    if (PARTS.has('fairness')) {
      log(
        `[${layout}] 2. fairness: ${INTENT_STREAMS} streams of client A, then one of client B, ${FAIRNESS_ROUNDS} rounds`,
      );
      ({ fairness, rounds: fairnessRounds } = await runFairnessRounds(
        target,
        chat.token,
        other.token,
        { streams: INTENT_STREAMS, message: INTENT_MESSAGE, rounds: FAIRNESS_ROUNDS },
        log,
      ));
    }

    let held: LayoutFigures['held'];
    if (PARTS.has('held')) {
      log(`[${layout}] 3. ${HELD_STREAMS} held streams`);
      held = await runHeldStreams(pool, chat.token, {
        streams: HELD_STREAMS,
        executions: 50,
        steps: 6,
        stepMs: 500,
        rssKb: cluster.rssKb,
      });
      log(
        `  ${held.complete} complete, ${held.failed} failed; ${held.kbPerStream} KB per open stream; ${held.events} events`,
      );
    }

    let fanOut: LayoutFigures['fanOut'];
    let fanOutCpuMs: LayoutFigures['fanOutCpuMs'];
    if (PARTS.has('subscribers')) {
      log(`[${layout}] 4. ${SUBSCRIBERS} subscribers of one execution`);
      const fanCpu = cluster.cpuNow();
      fanOut = await runSubscribers(pool, target, chat.token, SUBSCRIBERS, FANOUT_STEPS, FANOUT_STEP_MS);
      fanOutCpuMs = cluster.cpuSince(fanCpu);
      log(
        `  lag p50 ${fanOut.lagMs.p50} / p99 ${fanOut.lagMs.p99} ms (first subscriber p50 ${fanOut.firstLagMs.p50} / p99 ${fanOut.firstLagMs.p99}, fan-out p50 ${fanOut.fanOutMs.p50} / p99 ${fanOut.fanOutMs.p99}); ${fanOut.complete}/${SUBSCRIBERS} complete; CPU ms ${JSON.stringify(fanOutCpuMs)}`,
      );
    }

    let panic: LayoutFigures['panic'];
    const panicRuns = PARTS.has('panic') && PANIC_EXECUTIONS > 0;
    if (layout === 'amqp' && cluster.documentsUrl && cluster.dbName && panicRuns) {
      mongo = await MongoClient.connect(cluster.documentsUrl);
      const owner = await signup(pool, 'panic', run.jwtSecret);
      run.ownIds.push(owner.accountId);
      const running = Math.round(PANIC_EXECUTIONS * 0.85);
      const queued = Math.round(PANIC_EXECUTIONS * 0.1);
      const mix = { running, queued, paused: PANIC_EXECUTIONS - running - queued };
      log(`[${layout}] 5. panic over ${PANIC_EXECUTIONS} active executions ${JSON.stringify(mix)}`);
      let calls = 0;
      panic = await runPanic({
        pool,
        token: owner.token,
        db: mongo.db(cluster.dbName),
        mix,
        stepMs: PANIC_STEP_MS,
        steadyMs: 8000,
        settleMs: 3000,
        markers: (since) =>
          Promise.all(
            cluster.workers.map((w) => {
              const id = String(++calls);
              w.send({ cmd: 'markers', id, since });
              return w
                .next<{ event: string; report: MarkerReport }>(`markers:${id}`, 15_000)
                .then((m) => m.report);
            }),
          ),
        log,
        onWorkspace: (id) => run.ownIds.push(id),
      });
      log(`  answered in ${panic.latencyMs} ms; steps started after it ${panic.stepsStartedAfterAnswer}`);
    }
    return {
      layout,
      describe: cluster.describe,
      ...intentPart,
      fairness,
      fairnessRounds,
      held,
      fanOut,
      fanOutCpuMs,
      panic,
    };
  } finally {
    await pool.close().catch(() => undefined);
    await mongo?.close().catch(() => undefined);
    const own = cluster.processes;
    await Promise.all(own.filter((p) => p.name !== 'documents').map((p) => p.stop(15_000)));
    await Promise.all(own.map((p) => p.stop(5_000)));
  }
}

/**
 * The floor: a bare `node:http` server answering three fixed events (bare-sse.child.ts), under the
 * same client and the same burst, cold then warm, before the service's layouts.
 */
async function runBare(run: Run): Promise<BareFigures> {
  const bare = startProcess('bare', '../streams/bare-sse.child', {});
  track(run, bare);
  try {
    const { url } = await bare.next<{ event: string; url: string }>('ready', 30_000);
    const target = targetOf(url);
    const burst = async () => {
      const before = bare.cpuMicros() ?? 0;
      const figures = await runIntentStreams(
        target,
        'none',
        INTENT_STREAMS,
        INTENT_MESSAGE,
        '/bare/intent/stream',
      );
      return { figures, cpuMs: Math.round(((bare.cpuMicros() ?? 0) - before) / 1000) };
    };
    const cold = await burst();
    // As many warm bursts as the service gets, the median kept: one burst alone varies too much.
    const warmRuns: Array<Awaited<ReturnType<typeof burst>>> = [];
    for (let i = 0; i < WARM_BURSTS; i += 1) warmRuns.push(await burst());
    const warm = medianBy(warmRuns, (b) => b.figures.firstEventMs.p99);
    log(
      `[bare] first event p99 cold ${cold.figures.firstEventMs.p99} ms, warm ${warmRuns.map((b) => b.figures.firstEventMs.p99).join(', ')} ms (kept ${warm.figures.firstEventMs.p99}); CPU ${cold.cpuMs} / ${warm.cpuMs} ms`,
    );
    return {
      cold: cold.figures,
      warm: warm.figures,
      warmBursts: warmRuns.map((b) => b.figures),
      cpuMs: { cold: cold.cpuMs, warm: warm.cpuMs },
    };
  } finally {
    await bare.stop(5_000);
  }
}

async function main(): Promise<void> {
  const declared = { queues: new Set<string>(), exchanges: new Set<string>() };
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

  const run: Run = {
    amqpUrl,
    redisUrl,
    runId: randomBytes(4).toString('hex'),
    jwtSecret: randomBytes(32).toString('hex'),
    declared,
    processes: [],
    ownIds: [],
  };
  const layouts: LayoutFigures[] = [];
  let bare: BareFigures | undefined;
  try {
    bare = await runBare(run);
    for (const layout of LAYOUTS) layouts.push(await runLayout(run, layout));
  } finally {
    log('stopping children');
    killAllChildren();
    await deleteDeclaredAmqpNames(amqpUrl, declared, 'bench-streams-cleanup').catch(() => undefined);
    const redisDeleted = await cleanRedis(redisUrl, run.ownIds).catch(() => -1);
    log(
      `cleaned: ${declared.queues.size} queues, ${declared.exchanges.size} exchanges, ${redisDeleted} Redis keys`,
    );
  }

  const report: StreamsReport = {
    date: new Date().toISOString(),
    nproc: os.availableParallelism(),
    node: process.version,
    loadAverage: { before: loadBefore, after: os.loadavg() },
    bare,
    layouts,
    checks: [],
    durationSeconds: Math.round((Date.now() - started) / 1000),
  };
  report.checks = targetsOf(report);
  const dir = path.resolve(__dirname, __filename.endsWith('.js') ? '../../../bench/results' : '../results');
  mkdirSync(dir, { recursive: true });
  const out = process.env.BENCH_RESULTS_NAME ?? 'streams';
  writeFileSync(path.resolve(dir, `${out}.json`), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(path.resolve(dir, `${out}.md`), markdown(report));
  log(`wrote ${path.join('bench', 'results', `${out}.json`)} and ${out}.md`);
  for (const c of report.checks) log(`${c.pass ? 'PASS' : 'FAIL'} ${c.name}: ${c.value}`);
  clearTimeout(watchdog);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:streams failed: ${String((err as Error)?.stack ?? err)}\n`);
  killAllChildren();
  process.exit(1);
});
