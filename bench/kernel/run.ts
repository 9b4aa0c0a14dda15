/**
 * Kernel benchmark (`npm run bench:kernel`), in one run, side by side:
 *
 * 1. request/reply through the kernel (`system.ask` to an echo actor, 50 outstanding): in-process;
 *    over RabbitMQ with the worker in this process and in a child process; the child with the
 *    shared dedupe store; and the raw transport round trip as a reference;
 * 2. `GET /health` through the health actor (the real service, `startRuntime`) against a bare
 *    Express handler returning the same JSON, with autocannon (50 connections): in one process and
 *    as api + worker processes over RabbitMQ; and, as the reference over RabbitMQ, the bare Express
 *    handler doing a raw amqplib round trip to a raw amqplib responder process.
 *
 * Cases are interleaved in rounds so that noise from other work on the machine spreads over all of
 * them; ratios compare figures of the same run. Everything targets 127.0.0.1, is time-bounded
 * (about 2 minutes; a watchdog ends it at 160 s) and removes what it started and declared.
 * Results: bench/results/kernel.json and bench/results/kernel.md.
 *
 * Environment: AMQP_URL (default amqp://guest:guest@127.0.0.1:5672), REDIS_URL (default
 * redis://127.0.0.1:6379), BENCH_ROUND_SECONDS (2), BENCH_ROUNDS (4); an unreachable broker or Redis
 * skips the cases that need it (noted in the results).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { killAllChildren } from './children';
import { BenchCleanup } from './cleanup';
import { runHttpBench, type HttpBenchResult } from './http-bench';
import { runKernelBench, type KernelBenchResult, type KernelCaseResult } from './kernel-bench';

const TARGETS = {
  amqpPerSecond: 6000,
  amqpP99Ms: 25,
  httpInProcessRatio: 0.6,
  httpAmqpRatio: 0.45,
};
const LANES = 50;
const WATCHDOG_MS = 160_000;

/**
 * The repository root, whether this runs from bench/kernel or from dist/bench/kernel (dist holds a
 * copy of package.json, so look for the lock file, which only the root has).
 */
function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'package-lock.json')) && path.dirname(dir) !== dir)
    dir = path.dirname(dir);
  return dir;
}

function log(line: string): void {
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
}

/** Only the local machine: a URL pointing elsewhere is refused rather than loaded. */
async function localService(url: string, defaultPort: number): Promise<string | undefined> {
  const u = new URL(url);
  if (!['127.0.0.1', 'localhost'].includes(u.hostname)) {
    log(`refusing ${u.protocol}//${u.hostname}: this benchmark only targets 127.0.0.1`);
    return undefined;
  }
  const port = Number(u.port) || defaultPort;
  const ok = await new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const done = (result: boolean) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(1500, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
  return ok ? url : undefined;
}

/** Server-side CPU per request of `bare` over that of `other` (every process but autocannon). */
function cpuRatio(
  bare: { cpuUsPerRequest: Record<string, number> } | undefined,
  other: { cpuUsPerRequest: Record<string, number> } | undefined,
): string {
  const serverCpu = (c: { cpuUsPerRequest: Record<string, number> }) =>
    Object.entries(c.cpuUsPerRequest)
      .filter(([k]) => k !== 'autocannon')
      .reduce((n, [, v]) => n + v, 0);
  if (!bare || !other) return '?';
  const b = serverCpu(bare);
  const o = serverCpu(other);
  return o ? `${b} / ${o} µs = ${pct(b / o)}` : '?';
}

const loadavg = () => os.loadavg().map((l) => Math.round(l * 100) / 100);
const pct = (x: number) => `${Math.round(x * 100)}%`;
const fmt = (n: number) => n.toLocaleString('en-US');
const pass = (ok: boolean) => (ok ? '**pass**' : '**FAIL**');

async function main(): Promise<void> {
  const started = Date.now();
  const loadBefore = loadavg();
  const amqpUrl = await localService(process.env.AMQP_URL || 'amqp://guest:guest@127.0.0.1:5672', 5672);
  const redisUrl = await localService(process.env.REDIS_URL || 'redis://127.0.0.1:6379', 6379);
  const roundSec = Number(process.env.BENCH_ROUND_SECONDS || 2);
  const rounds = Number(process.env.BENCH_ROUNDS || 4);
  const id = randomBytes(4).toString('hex');
  const cleanup = new BenchCleanup(amqpUrl, `bench.kernel.${id}`);
  const watchdog = setTimeout(() => {
    process.stderr.write(`bench:kernel: still running after ${WATCHDOG_MS / 1000} s, giving up\n`);
    killAllChildren();
    const exit = () => process.exit(1);
    setTimeout(exit, 10_000).unref();
    cleanup.run().then(exit, exit);
  }, WATCHDOG_MS);
  watchdog.unref();
  log(
    `bench:kernel: load average ${loadBefore.join(' / ')}; RabbitMQ ${amqpUrl ? 'up' : 'unreachable'}; Redis ${redisUrl ? 'up' : 'unreachable'}`,
  );

  let kernel: KernelBenchResult;
  let http: HttpBenchResult;
  try {
    kernel = await runKernelBench({
      amqpUrl,
      redisUrl,
      cacheNamespace: `bench-kernel-${id}:`,
      cleanup,
      lanes: LANES,
      warmupMs: 1000,
      roundMs: roundSec * 1000,
      rounds,
      log,
    });
    http = await runHttpBench({
      amqpUrl,
      cleanup,
      connections: LANES,
      warmupSec: 1,
      roundSec,
      rounds,
      log,
    });
  } finally {
    log('cleaning up');
    await cleanup.run();
    killAllChildren();
  }

  const k = (key: string) => kernel.cases.find((c) => c.key === key);
  const h = (key: string) => http.cases.find((c) => c.key === key);
  const amqp = k('amqpWorkerProcess');
  const amqpOne = k('amqpOneProcess');
  const bare = h('bareExpress');
  const actorIn = h('actorInProcess');
  const actorAmqp = h('actorOverAmqp');
  const rawAmqp = h('rawAmqp');
  const ratio = (a?: { perSecond: number }, b?: { perSecond: number }) =>
    a && b && b.perSecond ? Math.round((a.perSecond / b.perSecond) * 1000) / 1000 : undefined;
  const httpInRatio = ratio(actorIn, bare);
  const httpAmqpRatio = ratio(actorAmqp, bare);
  const frontDoorRatio = ratio(h('frontDoorOnly'), bare);
  const rawAmqpRatio = ratio(rawAmqp, bare);
  const actorToRawRatio = ratio(actorAmqp, rawAmqp);
  const layered = k('amqpWorkerProcessLayered');
  const shared = k('amqpWorkerProcessShared');
  const checks = {
    amqpWorkerProcess: amqp && {
      perSecond: amqp.perSecond,
      p99Ms: amqp.p99Ms,
      pass: amqp.perSecond >= TARGETS.amqpPerSecond && amqp.p99Ms <= TARGETS.amqpP99Ms,
    },
    amqpOneProcess: amqpOne && {
      perSecond: amqpOne.perSecond,
      p99Ms: amqpOne.p99Ms,
      pass: amqpOne.perSecond >= TARGETS.amqpPerSecond && amqpOne.p99Ms <= TARGETS.amqpP99Ms,
    },
    httpInProcessRatio: httpInRatio !== undefined && {
      ratio: httpInRatio,
      pass: httpInRatio >= TARGETS.httpInProcessRatio,
    },
    httpAmqpRatio: httpAmqpRatio !== undefined && {
      ratio: httpAmqpRatio,
      pass: httpAmqpRatio >= TARGETS.httpAmqpRatio,
    },
    frontDoorOnlyRatio: frontDoorRatio,
    /** The issue's reference: a raw amqplib round trip from a bare Express handler, to bare. */
    rawAmqpRatio,
    /** Our /health over AMQP as a fraction of that raw reference. */
    actorOverAmqpToRawAmqp: actorToRawRatio,
  };
  const dedupeCost = amqp && {
    cache: kernel.sharedDedupeCache,
    layeredToMemory: ratio(layered, amqp),
    sharedKindToMemory: ratio(shared, amqp),
  };
  const actorShare = actorIn?.cpuUsPerRequest['http-all'];
  const result = {
    recordedAt: new Date().toISOString(),
    machine: {
      nproc: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
      loadAverageAtStart: loadBefore,
      loadAverageAtEnd: loadavg(),
    },
    setup: {
      concurrency: LANES,
      warmupSeconds: 1,
      rounds,
      roundSeconds: roundSec,
      rabbitmq: amqpUrl ? 'up (127.0.0.1)' : 'unreachable: AMQP cases skipped',
      redis: redisUrl ? 'up (127.0.0.1)' : 'unreachable: shared dedupe cases on the memory cache',
    },
    targets: TARGETS,
    checks,
    kernel,
    http,
    dedupeCost,
    healthProbeWork: { usPerCall: http.probeWorkUsPerCall, serverCpuUsPerRequestInProcess: actorShare },
    durationMs: Date.now() - started,
  };
  const dir = path.join(repoRoot(), 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'kernel.json'), `${JSON.stringify(result, null, 2)}\n`);

  const kernelRow = (c: KernelCaseResult) =>
    `| ${c.label} | ${fmt(c.perSecond)} | ${c.p50Ms} | ${c.p99Ms} | ${c.perRound.map((r) => r.p99Ms).join(' / ')} | ${c.errors} | ${Object.entries(
      c.cpuUsPerRequest,
    )
      .map(([p, v]) => `${p} ${v}`)
      .join(', ')} | ${c.machineCpuBusyPercent ?? '?'}% |`;
  const md = [
    '# Kernel benchmark',
    '',
    `Recorded ${result.recordedAt} by \`npm run bench:kernel\` on ${result.machine.nproc} × ${result.machine.cpuModel ?? 'CPU'}, Node ${result.machine.node}, RabbitMQ and Redis on the same machine.`,
    `Load average (1 / 5 / 15 min) ${loadBefore.join(' / ')} at the start and ${result.machine.loadAverageAtEnd.join(' / ')} at the end (the machine is shared with other work).`,
    `${LANES} requests outstanding; each case warmed up 1 s, then measured in ${rounds} interleaved rounds of ${roundSec} s. Run time ${Math.round(result.durationMs / 1000)} s.`,
    '',
    '## Request/reply through the kernel',
    '',
    '| case | req/s | p50 ms | p99 ms | p99 of each round | errors | CPU µs per request | all cores busy |',
    '|---|---:|---:|---:|---|---:|---|---:|',
    ...kernel.cases.map(kernelRow),
    '',
    amqp
      ? `- Target over AMQP (worker in its own process): ≥ ${fmt(TARGETS.amqpPerSecond)}/s with p99 ≤ ${TARGETS.amqpP99Ms} ms: ${fmt(amqp.perSecond)}/s, p99 ${amqp.p99Ms} ms: ${pass(checks.amqpWorkerProcess!.pass)}. Same with both systems in one process: ${fmt(amqpOne!.perSecond)}/s, p99 ${amqpOne!.p99Ms} ms: ${pass(checks.amqpOneProcess!.pass)}.`
      : '- RabbitMQ unreachable: AMQP cases skipped.',
    ...(dedupeCost
      ? [
          `- Shared dedupe store (${kernel.sharedDedupeCache === 'redis' ? 'Redis' : 'memory cache: nothing actually shared'}), throughput relative to the memory store: layered with kind dedupe 'local' ${dedupeCost.layeredToMemory !== undefined ? pct(dedupeCost.layeredToMemory) : '?'}, kind dedupe 'shared' (claim and complete in the cache for every message) ${dedupeCost.sharedKindToMemory !== undefined ? pct(dedupeCost.sharedKindToMemory) : '?'}. Worker CPU per request (steadier): ${[amqp, layered, shared].map((c) => (c ? `${c.cpuUsPerRequest.worker ?? '?'}${c.cpuUsPerRequest.redis !== undefined ? ` + Redis ${c.cpuUsPerRequest.redis}` : ''} µs` : '?')).join(', ')}.`,
        ]
      : []),
    '',
    '## GET /health: through an actor vs a bare Express handler (autocannon)',
    '',
    '| case | req/s | p50 ms | p99 ms | unexpected status | errors | CPU µs per request | health status |',
    '|---|---:|---:|---:|---:|---:|---|---|',
    ...http.cases.map(
      (c) =>
        `| ${c.label} | ${fmt(c.perSecond)} | ${c.p50Ms} | ${c.p99Ms} | ${c.unexpected} | ${c.errors} | ${Object.entries(
          c.cpuUsPerRequest,
        )
          .map(([p, v]) => `${p} ${v}`)
          .join(', ')} | ${c.healthStatus ?? ''} |`,
    ),
    '',
    httpInRatio !== undefined
      ? `- In one process: ${pct(httpInRatio)} of bare Express (target ≥ ${pct(TARGETS.httpInProcessRatio)}): ${pass(httpInRatio >= TARGETS.httpInProcessRatio)}. By server CPU per request (steadier on a busy machine): ${cpuRatio(bare, actorIn)}.`
      : '',
    httpAmqpRatio !== undefined
      ? `- Over RabbitMQ (api + worker processes): ${pct(httpAmqpRatio)} of bare Express (target ≥ ${pct(TARGETS.httpAmqpRatio)}): ${pass(httpAmqpRatio >= TARGETS.httpAmqpRatio)}. By server CPU per request (api, worker and broker): ${cpuRatio(bare, actorAmqp)}.`
      : '- RabbitMQ unreachable: the AMQP case was skipped.',
    ...(rawAmqpRatio !== undefined && actorToRawRatio !== undefined
      ? [
          `- Reference, a bare Express handler doing a raw amqplib round trip (no kernel, no envelope, no confirms, a classic queue): ${pct(rawAmqpRatio)} of bare Express; by server CPU per request ${cpuRatio(bare, rawAmqp)}. Our \`/health\` over AMQP does ${pct(actorToRawRatio)} of this raw reference; by server CPU per request ${cpuRatio(rawAmqp, actorAmqp)}.`,
        ]
      : []),
    ...(frontDoorRatio !== undefined
      ? [
          `- The front door alone (same middleware, no actor: a 404 answer) does ${pct(frontDoorRatio)} of bare Express, so the middleware accounts for ${actorIn && bare ? pct((1 / frontDoorRatio - 1) / (bare.perSecond / actorIn.perSecond - 1)) : '?'} of the extra time per request of the in-process actor case and the actor round trip (kernel and health probes) for the rest.`,
        ]
      : []),
    `- The health actor's probe work (three bounded probes and the reply schema, with the document store's status cached) costs ${http.probeWorkUsPerCall} µs per call${actorShare ? `, against ${actorShare} µs of server CPU per request in one process` : ''}.`,
    '',
    'CPU µs per request: CPU time of each process during the measured rounds divided by the requests answered (`bench`/`autocannon` is the benchmark process, which also generates the load). "All cores busy" includes other work on the machine.',
    '',
  ]
    .filter((line, i, lines) => line !== '' || lines[i - 1] !== '')
    .join('\n');
  writeFileSync(path.join(dir, 'kernel.md'), md);
  process.stdout.write(`\n${md}\nwritten to bench/results/kernel.json and kernel.md\n`);
  clearTimeout(watchdog);
  // Sockets of stopped clients may linger a moment; the benchmark is done.
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
  killAllChildren();
  process.exit(1);
});
