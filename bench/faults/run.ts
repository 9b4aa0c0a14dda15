import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import { embeddedClientOptions } from '../../src/store/embedded-mongo';
import { deleteDeclaredAmqpNames } from '../support/amqp-names';
import { localService } from '../support/local-service';
import { Cluster } from './cluster';
import { cleanRedis } from './cleanup';
import { phaseFigures, type PhaseMarks, type PhaseFigures } from './figures';
import { HttpClient } from './http-client';
import { Load } from './load';
import { injectPoison, poisonPlan, readDeadLetters, type DeadLetterReport, type PoisonPlan } from './poison';
import { readBack } from './read-back';
import { checksOf, markdown, type Check } from './report';

/**
 * `npm run bench:faults`: the cluster (api + 2 workers over RabbitMQ, Redis, a shared document
 * server) under load from 16 clients while its parts are killed and cut in turn; every
 * acknowledged write is read back at the end. Docs: bench/README.md and docs/faults.md.
 *
 * Environment: AMQP_URL, REDIS_URL (loopback only); BENCH_FAULTS_CLIENTS (16: half on /mcp, a
 * quarter each on files and memory), BENCH_FAULTS_CUT_SECONDS (5: how long a dependency stays
 * away), BENCH_FAULTS_LEAD_SECONDS (3: load before each fault), BENCH_FAULTS_TAIL_SECONDS (7:
 * load after the return), BENCH_FAULTS_PHASES (a comma-separated list of phases, in order, a
 * name given twice runs twice; the baseline always runs first), BENCH_FAULTS_WRITE (0: print,
 * do not write bench/results), BENCH_FAULTS_KEEP_LOGS (1: keep the nodes' logs, which are
 * otherwise kept only when a target fails).
 */

const seconds = (name: string, dflt: number) => {
  const v = Number(process.env[name] ?? dflt);
  if (!Number.isFinite(v) || v < 0 || v > 120) throw new Error(`${name} must be 0-120 seconds`);
  return v * 1000;
};
const CLIENTS = Math.max(4, Math.min(64, Number(process.env.BENCH_FAULTS_CLIENTS ?? 16)));
const CUT_MS = seconds('BENCH_FAULTS_CUT_SECONDS', 5);
const LEAD_MS = seconds('BENCH_FAULTS_LEAD_SECONDS', 3);
const TAIL_MS = seconds('BENCH_FAULTS_TAIL_SECONDS', 7);
/** A killed worker is started again after this long (a supervisor's restart delay). */
const WORKER_RESTART_DELAY_MS = 1000;
const KEYED_RETRY_MS = 30_000;
/** The workers' AMQP_MAX_MESSAGE_BYTES: the "huge" poison is just over it. */
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
const WRITE = process.env.BENCH_FAULTS_WRITE !== '0';
const KEEP_LOGS = process.env.BENCH_FAULTS_KEEP_LOGS === '1';

const started = Date.now();
const log = (line: string) =>
  process.stdout.write(`[bench:faults ${((Date.now() - started) / 1000).toFixed(1)}s] ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A phase: what it does to the cluster between its lead and its tail of plain load. */
interface PhaseSpec {
  name: string;
  title: string;
  /** Breaks something and brings it back; fills in `faultAt`, `returnAt` and notes. */
  act(marks: PhaseMarks): Promise<void>;
}

async function main(): Promise<void> {
  const amqpUrl = await localService(
    process.env.AMQP_URL || 'amqp://guest:guest@127.0.0.1:5672',
    5672,
    'bench:faults',
  );
  const redisUrl = await localService(
    process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    6379,
    'bench:faults',
  );
  if (!amqpUrl || !redisUrl)
    throw new Error('bench:faults needs RabbitMQ (AMQP_URL) and Redis (REDIS_URL) on this machine');
  const loadBefore = os.loadavg();
  const run = randomBytes(4).toString('hex');
  const dir = mkdtempSync(path.join(os.tmpdir(), `ars-bench-faults-${run}-`));
  const cluster = await Cluster.create({
    run,
    amqpUrl,
    redisUrl,
    dir,
    jwtSecret: randomBytes(32).toString('hex'),
    maxMessageBytes: MAX_MESSAGE_BYTES,
  });
  let plan: PoisonPlan | undefined;

  const phases: PhaseSpec[] = [
    { name: 'baseline', title: 'no fault', act: async () => undefined },
    {
      name: 'worker-kill',
      title: 'kill -9 of a worker, restarted 1 s later',
      act: async (m) => {
        const victim = cluster.workers[0];
        m.faultAt = Date.now();
        await cluster.killWorker(victim);
        m.returnAt = m.faultAt;
        m.notes.push(`worker pid ${victim.pid} killed with SIGKILL; the other worker serves on`);
        await sleep(WORKER_RESTART_DELAY_MS);
        const t0 = Date.now();
        const fresh = await cluster.startWorker();
        m.notes.push(
          `restarted as pid ${fresh.pid}, consuming ${((Date.now() - t0) / 1000).toFixed(1)} s after its start`,
        );
      },
    },
    {
      name: 'broker-cut',
      title: `RabbitMQ cut ${CUT_MS / 1000} s: every node's link, through the proxy`,
      act: async (m) => {
        m.faultAt = await cluster.proxyCommand('cut', 'amqp');
        await sleep(CUT_MS);
        m.returnAt = await cluster.proxyCommand('restore', 'amqp');
      },
    },
    {
      name: 'redis-cut',
      title: `Redis cut ${CUT_MS / 1000} s: every node's link, through the proxy`,
      act: async (m) => {
        m.faultAt = await cluster.proxyCommand('cut', 'redis');
        await sleep(CUT_MS);
        m.returnAt = await cluster.proxyCommand('restore', 'redis');
      },
    },
    {
      name: 'documents-down',
      title: `kill -9 of the document server, down ${CUT_MS / 1000} s, restarted on its directory`,
      act: async (m) => {
        const pid = cluster.documents.pid;
        m.faultAt = Date.now();
        await cluster.documents.kill9();
        await sleep(CUT_MS);
        const t0 = Date.now();
        m.returnAt = await cluster.documents.start();
        m.notes.push(
          `pid ${pid} killed; the new server (pid ${cluster.documents.pid}) was ready ${m.returnAt - t0} ms after its start`,
        );
      },
    },
    {
      name: 'documents-restart',
      title: 'kill -9 of the document server, restarted at once',
      act: async (m) => {
        const pid = cluster.documents.pid;
        m.faultAt = Date.now();
        await cluster.documents.kill9();
        m.returnAt = await cluster.documents.start();
        m.notes.push(
          `pid ${pid} killed; the new server (pid ${cluster.documents.pid}) was ready ${m.returnAt - m.faultAt} ms after the kill`,
        );
      },
    },
    {
      name: 'poison',
      title: "poison on the agent kind's queue, which every /mcp call goes through",
      act: async (m) => {
        m.faultAt = await injectPoison(amqpUrl, `${cluster.prefix}.actor.agent`, plan!.messages);
        m.notes.push(`${plan!.messages.length} messages: ${plan!.messages.map((p) => p.name).join('; ')}`);
      },
    },
  ];
  const only = (process.env.BENCH_FAULTS_PHASES ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of only) {
    if (!phases.some((p) => p.name === name))
      throw new Error(
        `BENCH_FAULTS_PHASES: unknown phase "${name}" (${phases.map((p) => p.name).join(', ')})`,
      );
  }
  // A subset, in the order given; a phase named twice runs twice (to provoke a rare race).
  const selected =
    only.length === 0
      ? phases
      : [phases[0], ...only.filter((n) => n !== 'baseline').map((n) => phases.find((p) => p.name === n)!)];

  const watchdogMs = 240_000 + selected.length * (LEAD_MS + CUT_MS + TAIL_MS + 20_000);
  const watchdog = setTimeout(() => {
    process.stderr.write(`bench:faults: watchdog fired after ${watchdogMs / 1000} s, killing every child\n`);
    cluster.killAll();
    process.exit(2);
  }, watchdogMs);
  watchdog.unref();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      process.stderr.write(`bench:faults: ${signal}, killing every child\n`);
      cluster.killAll();
      process.exit(130);
    });
  }

  log(
    `run ${run}; load average ${loadBefore.map((x) => x.toFixed(2)).join(' / ')}; ${os.availableParallelism()} cores; ` +
      `phases ${selected.map((p) => p.name).join(', ')}; logs in ${cluster.logDir}`,
  );
  const mcpClients = Math.round(CLIENTS / 2);
  const filesClients = Math.floor((CLIENTS - mcpClients) / 2);
  const memoryClients = CLIENTS - mcpClients - filesClients;
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  let agents: { tokens: string[]; ids: string[] } = { tokens: [], ids: [] };
  let account: { token: string; id: string } | undefined;
  let load: Load | undefined;
  let http: HttpClient | undefined;
  const figures: PhaseFigures[] = [];
  let deadLetters: DeadLetterReport = { poison: [], others: [] };
  let neighboursRan = 0;
  let findings: string[] = [];
  let cleaned: string;
  let failedEarly: unknown;
  try {
    await cluster.up();
    log(
      `cluster up: api ${cluster.apiUrl} (pid ${cluster.api.pid}), workers ${cluster.workers.map((w) => w.pid).join(', ')}, documents pid ${cluster.documents.pid}, proxy pid ${cluster.proxy.pid}`,
    );
    agents = await cluster.registerAgents(mcpClients);
    account = await cluster.signUp();
    plan = poisonPlan(run, agents.ids[0], MAX_MESSAGE_BYTES);
    http = new HttpClient(cluster.apiUrl, CLIENTS + 4);
    load = new Load({
      run,
      http,
      agentTokens: agents.tokens,
      accountToken: account.token,
      filesClients,
      memoryClients,
      keyedRetryMs: KEYED_RETRY_MS,
    });
    log(
      `load: ${mcpClients} clients on /mcp, ${filesClients} on POST /api/files, ${memoryClients} on POST /api/memory`,
    );
    load.start();
    const marks: PhaseMarks[] = [];
    for (const [i, phase] of selected.entries()) {
      load.phase = i;
      const m: PhaseMarks = {
        name: phase.name,
        title: phase.title,
        startedAt: Date.now(),
        endedAt: 0,
        notes: [],
      };
      marks.push(m);
      log(`phase ${i} ${phase.name}: ${phase.title}`);
      await sleep(LEAD_MS);
      await phase.act(m);
      await sleep(TAIL_MS);
      m.endedAt = Date.now();
      const sent = load.attempts.filter((a) => a.phase === i);
      log(
        `  ${sent.length} requests, ${sent.filter((a) => !a.ok).length} errors${m.notes.length ? `; ${m.notes.join('; ')}` : ''}`,
      );
    }
    log('stopping the load (keyed calls in flight are retried with their key until answered)');
    await load.stop();
    log(`${load.attempts.length} requests; reading every acknowledged write back`);
    const mongo = await MongoClient.connect(cluster.documentsDbUrl, { ...embeddedClientOptions });
    let back: Awaited<ReturnType<typeof readBack>>;
    try {
      back = await readBack(
        load,
        selected.length,
        redis,
        http,
        agents.ids,
        account.token,
        run,
        mongo.db().collection('files'),
      );
    } finally {
      await mongo.close().catch(() => undefined);
    }
    findings = back.findings;
    marks.forEach((m, i) => figures.push(phaseFigures(i, m, load!.attempts, back.byPhase[i])));
    const neighbourValue = await redis.get(`tools:mem:${agents.ids[0]}:${plan.neighbourKey}`);
    neighboursRan = neighbourValue === null ? 0 : Number(neighbourValue);
  } catch (err) {
    failedEarly = err;
  } finally {
    log('stopping the cluster');
    await http?.close().catch(() => undefined);
    await cluster.down().catch(() => cluster.killAll());
    cluster.killAll();
    const dlqs = [...cluster.declared.queues].filter((q) => q.startsWith(`${cluster.prefix}.dlq.`));
    if (!failedEarly)
      deadLetters = await readDeadLetters(
        amqpUrl,
        dlqs,
        selected.some((p) => p.name === 'poison') ? plan : undefined,
      );
    await deleteDeclaredAmqpNames(amqpUrl, cluster.declared, 'bench-faults-cleanup').catch(() => undefined);
    const deleted = await cleanRedis(redis, {
      agentIds: agents.ids,
      accountIds: account ? [account.id] : [],
      keyedCalls: load?.keyedCalls ?? [],
    }).catch(() => -1);
    await redis.quit().catch(() => undefined);
    cleaned = `${deleted} Redis keys, ${cluster.declared.queues.size} queues, ${cluster.declared.exchanges.size} exchanges`;
    log(`cleaned: ${cleaned}`);
    // Data of the document server and the nodes (the logs stay if a target fails).
    for (const data of ['documents', 'nodes']) rmSync(path.join(dir, data), { recursive: true, force: true });
  }
  if (failedEarly) {
    log(`failed; the processes' logs are kept in ${cluster.logDir}`);
    throw failedEarly;
  }

  const loadAfter = os.loadavg();
  const checks: Check[] = checksOf(
    figures,
    deadLetters,
    plan && selected.some((p) => p.name === 'poison') ? { plan, neighboursRan } : undefined,
  );
  const report = {
    date: new Date().toISOString(),
    nproc: os.availableParallelism(),
    node: process.version,
    loadAverage: { before: loadBefore, after: loadAfter },
    settings: {
      clients: { mcp: mcpClients, files: filesClients, memory: memoryClients },
      cutSeconds: CUT_MS / 1000,
      leadSeconds: LEAD_MS / 1000,
      tailSeconds: TAIL_MS / 1000,
      workerRestartDelayMs: WORKER_RESTART_DELAY_MS,
      keyedRetrySeconds: KEYED_RETRY_MS / 1000,
      maxMessageBytes: MAX_MESSAGE_BYTES,
      requestTimeoutMs: 15_000,
    },
    phases: figures,
    deadLetters,
    poisonNeighbours: plan ? { expected: plan.neighbours, ran: neighboursRan } : undefined,
    findings,
    checks,
    cleaned,
    durationSeconds: Math.round((Date.now() - started) / 1000),
  };
  const failed = checks.some((c) => !c.pass);
  if (WRITE) {
    const out = path.resolve(__dirname, __filename.endsWith('.js') ? '../../../bench/results' : '../results');
    mkdirSync(out, { recursive: true });
    writeFileSync(path.join(out, 'faults.json'), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(path.join(out, 'faults.md'), markdown(report));
    log(`wrote ${path.join('bench', 'results', 'faults.json')} and faults.md`);
  }
  for (const line of findings.slice(0, 20)) log(`  finding: ${line}`);
  for (const c of checks) log(`${c.pass ? 'PASS' : 'FAIL'} ${c.name}: ${c.value}`);
  if (failed || KEEP_LOGS) log(`the processes' logs are kept in ${cluster.logDir}`);
  else rmSync(dir, { recursive: true, force: true });
  clearTimeout(watchdog);
  process.exitCode = failed ? 1 : 0;
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:faults failed: ${String((err as Error)?.stack ?? err)}\n`);
  process.exit(1);
});
