import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { checkHealth } from '../../actors/ops/health.actor';
import { MemoryCache } from '../../src/store/cache';
import { startChild, type BenchChild, type ChildEvent } from './children';
import type { BenchCleanup } from './cleanup';
import { brokerCpuProbe } from './kernel-bench';
import { ownCpuMicros, readCpu, round2, type CpuProbes } from './measure';

export interface HttpBenchOptions {
  amqpUrl?: string;
  cleanup: BenchCleanup;
  connections: number;
  warmupSec: number;
  roundSec: number;
  rounds: number;
  log: (line: string) => void;
}

export interface HttpCaseResult {
  key: string;
  label: string;
  /** Expected answers (2xx, or the case's status) per second over all rounds. */
  perSecond: number;
  requests: number;
  seconds: number;
  /** Means of the rounds' percentiles (autocannon keeps no mergeable histogram). */
  p50Ms: number;
  p99Ms: number;
  /** Answers with another status than expected. */
  unexpected: number;
  errors: number;
  perRound: Array<{ perSecond: number; p50Ms: number; p99Ms: number }>;
  /** CPU time per request: `autocannon` (this process) and each server process. */
  cpuUsPerRequest: Record<string, number>;
  /** `status` of the health answer before the measurement (`ok` = every dependency up). */
  healthStatus?: string;
}

export interface HttpBenchResult {
  cases: HttpCaseResult[];
  /** CPU cost of the health actor's probe work alone (checkHealth with cheap probes), µs per call. */
  probeWorkUsPerCall: number;
}

interface HttpCase {
  key: string;
  label: string;
  url: string;
  /** Default `/health`. */
  path?: string;
  /** The status every answer should have; default 2xx. */
  expectStatus?: number;
  servers: BenchChild[];
  healthStatus?: string;
  runs: autocannon.Result[];
  cpu: Record<string, number>;
  /** Other processes whose CPU to count (the broker). */
  extraCpu?: CpuProbes;
}

const ready = (child: BenchChild) =>
  child.waitFor<ChildEvent & { url?: string; kinds: string[]; nodeId: string }>('ready', 60_000);

/**
 * `GET /health` with autocannon: a bare Express handler returning the same JSON, the real service
 * in one process (`ROLE=all`, in-process transport), and the real service as an api process and a
 * worker process over RabbitMQ. Servers run in child processes; autocannon runs here. Cases are
 * interleaved by rounds, like the kernel cases.
 */
export async function runHttpBench(options: HttpBenchOptions): Promise<HttpBenchResult> {
  const { cleanup, log } = options;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ars-bench-kernel-'));
  cleanup.step('temporary data directories', async () => rmSync(dir, { recursive: true, force: true }));
  const common = { HOST: '127.0.0.1', PORT: '0', JWT_SECRET: 'bench-jwt-secret-'.padEnd(40, 'x') };
  const runtime = (name: string, config: Record<string, string>) => {
    const child = startChild(name, 'http-server.child', {
      MODE: 'runtime',
      BENCH_CONFIG: JSON.stringify({ ...common, DATA_DIR: path.join(dir, name), NODE_ID: name, ...config }),
    });
    cleanup.step(`child ${name}`, () => child.stop());
    return child;
  };

  const cases: HttpCase[] = [];
  const all = runtime('http-all', { ROLE: 'all' });
  let worker: BenchChild | undefined;
  let api: BenchChild | undefined;
  if (options.amqpUrl) {
    const amqp = { AMQP_URL: options.amqpUrl, AMQP_PREFIX: cleanup.prefix };
    for (const n of ['http-worker', 'http-api']) cleanup.node(n);
    worker = runtime('http-worker', { ...amqp, ROLE: 'worker' });
    api = runtime('http-api', { ...amqp, ROLE: 'api' });
  }
  const allUrl = (await ready(all)).url!;
  // The bare handler answers exactly what the service answers (its timestamp refreshed per call).
  const sample = (await (await fetch(`${allUrl}/health`)).json()) as Record<string, unknown>;
  const bare = startChild('http-bare', 'http-server.child', { MODE: 'bare', BODY: JSON.stringify(sample) });
  cleanup.step('child http-bare', () => bare.stop());
  cases.push({
    key: 'bareExpress',
    label: 'bare Express handler returning the same JSON',
    url: (await ready(bare)).url!,
    servers: [bare],
    runs: [],
    cpu: {},
  });
  cases.push({
    key: 'frontDoorOnly',
    label:
      "for comparison: the service's front door without an actor, ROLE=all (GET /no-such-route, a 404 JSON answer through the same middleware)",
    url: allUrl,
    path: '/no-such-route',
    expectStatus: 404,
    servers: [all],
    runs: [],
    cpu: {},
  });
  cases.push({
    key: 'actorInProcess',
    label: 'GET /health through the health actor, ROLE=all (in-process transport)',
    url: allUrl,
    servers: [all],
    healthStatus: String(sample.status),
    runs: [],
    cpu: {},
  });
  if (worker && api) {
    const workerInfo = await ready(worker);
    for (const kind of workerInfo.kinds) cleanup.kind(kind);
    const apiUrl = (await ready(api)).url!;
    const body = (await (await fetch(`${apiUrl}/health`)).json()) as { status?: string };
    cases.push({
      key: 'actorOverAmqp',
      label: 'GET /health through the health actor, ROLE=api process + ROLE=worker process over RabbitMQ',
      url: apiUrl,
      servers: [api, worker],
      extraCpu: brokerCpuProbe(),
      healthStatus: body.status,
      runs: [],
      cpu: {},
    });
    cases.push(await rawAmqpCase(options.amqpUrl!, cleanup, sample));
  }

  const fire = (c: HttpCase, seconds: number) =>
    autocannon({
      url: `${c.url}${c.path ?? '/health'}`,
      connections: options.connections,
      duration: seconds,
      timeout: 10,
    });
  for (const c of cases) {
    log(`http: warm-up ${c.key}`);
    await fire(c, options.warmupSec);
  }
  for (let round = 1; round <= options.rounds; round++) {
    // A rotating order, as for the kernel cases.
    for (let i = 0; i < cases.length; i++) {
      const c = cases[(i + round - 1) % cases.length];
      log(`http: round ${round}/${options.rounds} ${c.key}`);
      const probes: CpuProbes = { autocannon: ownCpuMicros, ...cpuOf(c.servers), ...c.extraCpu };
      const before = await readCpu(probes);
      c.runs.push(await fire(c, options.roundSec));
      const after = await readCpu(probes);
      for (const [k, v] of Object.entries(after)) {
        if (before[k] !== undefined && v !== undefined) c.cpu[k] = (c.cpu[k] ?? 0) + v - before[k]!;
      }
    }
  }

  return {
    cases: cases.map((c) => summarise(c)),
    probeWorkUsPerCall: await measureProbeWork(),
  };
}

/**
 * The reference: the bare Express handler doing a raw amqplib round trip per request to a
 * raw amqplib responder in another process (raw-amqp.child.ts). Replies come on a per-process reply
 * queue (measured faster here than direct reply-to, which BENCH_RAW_REPLY=direct selects).
 */
async function rawAmqpCase(
  amqpUrl: string,
  cleanup: BenchCleanup,
  sample: Record<string, unknown>,
): Promise<HttpCase> {
  const reply = process.env.BENCH_RAW_REPLY === 'direct' ? 'direct' : 'queue';
  const queue = `${cleanup.prefix}.raw.requests`;
  const replyQueue = `${cleanup.prefix}.raw.replies`;
  cleanup.queue(queue);
  if (reply === 'queue') cleanup.queue(replyQueue);
  const env = { AMQP_URL: amqpUrl, QUEUE: queue, REPLY: reply, REPLY_QUEUE: replyQueue };
  const responder = startChild('raw-responder', 'raw-amqp.child', {
    ...env,
    ROLE: 'responder',
    BODY: JSON.stringify(sample),
  });
  cleanup.step('child raw-responder', () => responder.stop());
  await ready(responder);
  const api = startChild('raw-api', 'raw-amqp.child', { ...env, ROLE: 'api' });
  cleanup.step('child raw-api', () => api.stop());
  return {
    key: 'rawAmqp',
    label: `reference: bare Express handler doing a raw amqplib round trip (${reply === 'direct' ? 'direct reply-to' : 'per-process reply queue'}) to a raw amqplib responder process`,
    url: (await ready(api)).url!,
    servers: [api, responder],
    extraCpu: brokerCpuProbe(),
    runs: [],
    cpu: {},
  };
}

function cpuOf(servers: BenchChild[]): CpuProbes {
  return Object.fromEntries(servers.map((s) => [s.name, s.cpuMicros]));
}

/** Answers with the expected status (2xx unless the case says otherwise). */
function answered(c: HttpCase, r: autocannon.Result): number {
  if (c.expectStatus === undefined) return r['2xx'];
  return r.statusCodeStats?.[`${c.expectStatus}`]?.count ?? 0;
}

function summarise(c: HttpCase): HttpCaseResult {
  const ok = c.runs.reduce((n, r) => n + answered(c, r), 0);
  const seconds = c.runs.reduce((n, r) => n + r.duration, 0);
  const mean = (pick: (r: autocannon.Result) => number) =>
    round2(c.runs.reduce((n, r) => n + pick(r), 0) / Math.max(1, c.runs.length));
  return {
    key: c.key,
    label: c.label,
    perSecond: Math.round(ok / seconds),
    requests: ok,
    seconds: round2(seconds),
    p50Ms: mean((r) => r.latency.p50),
    p99Ms: mean((r) => r.latency.p99),
    unexpected: c.runs.reduce((n, r) => n + r.requests.total - answered(c, r), 0),
    errors: c.runs.reduce((n, r) => n + r.errors, 0),
    perRound: c.runs.map((r) => ({
      perSecond: Math.round(answered(c, r) / r.duration),
      p50Ms: r.latency.p50,
      p99Ms: r.latency.p99,
    })),
    cpuUsPerRequest: Object.fromEntries(
      Object.entries(c.cpu).map(([k, v]) => [k, ok ? Math.round(v / ok) : 0]),
    ),
    healthStatus: c.healthStatus,
  };
}

/**
 * The health actor's own work per call (three bounded probes, the reply schema), with probes that
 * cost nearly nothing, as they do when the document store's status is cached: to tell whether the
 * probe machinery, rather than the kernel, dominates the actor's share of a request.
 */
async function measureProbeWork(): Promise<number> {
  const cache = new MemoryCache();
  const probes = {
    transport: () => ({ state: 'up' as const, embedded: true }),
    documents: async () => ({ state: 'up' as const, embedded: true }),
    cache: async () => ({ ...(await cache.status()), embedded: true }),
  };
  const signal = new AbortController().signal;
  for (let i = 0; i < 2000; i++) await checkHealth({ probes }, signal);
  const calls = 20_000;
  const cpu0 = ownCpuMicros();
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) await checkHealth({ probes }, signal);
  const wallUs = ((performance.now() - t0) * 1000) / calls;
  const cpuUs = (ownCpuMicros() - cpu0) / calls;
  await cache.close();
  return round2(Math.max(wallUs, cpuUs));
}
