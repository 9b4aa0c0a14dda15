/**
 * Store benchmark (`npm run bench:store`): the embedded MongoDB-wire-compatible server through the
 * official driver (memory-only and journaled, in-process and as a separate process, 1k and 100k
 * documents), then the cache port. Everything targets 127.0.0.1 and is time-bounded (about a
 * minute and a half). Results go to bench/results/store.json and bench/results/store.md.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCacheBench } from './cache-bench';
import type { CaseResult } from './measure';
import { runMongoBench, type MongoBenchResult } from './mongo-bench';

/**
 * The repository root, whether this runs from bench/store or from dist/bench/store (dist has a
 * copy of package.json, but no tsconfig.json).
 */
function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'tsconfig.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

const RESULTS_DIR = path.join(repoRoot(), 'bench', 'results');
const TARGET_RATIO = 0.8;
const TARGET_FIND_OPS = 5000;
const SIZES = [1_000, 100_000];
const CASES = ['findOneById', 'insertOne', 'conditionalUpdate'] as const;

/** The configurations measured; journaled is the persisted one, the one that matters. */
const CONFIGS = [
  { mode: 'memory', server: 'in-process' },
  { mode: 'journaled', server: 'in-process' },
  { mode: 'journaled', server: 'separate-process' },
] as const;

const fmt = (n: number) => n.toLocaleString('en-US');

function row(r: MongoBenchResult, name: (typeof CASES)[number], size: number): string {
  const c: CaseResult = r[name][String(size)];
  const cpu =
    c.serverCpuUsPerOp === undefined ? `${c.cpuUsPerOp}` : `${c.cpuUsPerOp} + ${c.serverCpuUsPerOp}`;
  return `| ${r.mode}, ${r.server} | ${fmt(size)} | ${name} | ${fmt(c.opsPerSec)} | ${fmt(c.bestOpsPerSec)} | ${c.p50Ms} | ${c.p99Ms} | ${cpu} |`;
}

async function main(): Promise<void> {
  const started = Date.now();
  const loadBefore = os.loadavg();
  const mongo: MongoBenchResult[] = [];
  for (const { mode, server } of CONFIGS) {
    process.stdout.write(`embedded mongo: ${mode}, ${server}...\n`);
    mongo.push(
      await runMongoBench({ mode, server, sizes: SIZES, concurrency: 50, rounds: 6, msPerRound: 400 }),
    );
  }
  const summary = Object.fromEntries(
    mongo.map((r) => {
      const small = r.findOneById[String(SIZES[0])];
      const large = r.findOneById[String(SIZES[1])];
      const ratio = Math.round((large.opsPerSec / small.opsPerSec) * 100) / 100;
      const entry = {
        findOneRatio100kTo1k: ratio,
        findOnePerSecAt100k: large.opsPerSec,
        bestFindOnePerSecAt100k: large.bestOpsPerSec,
        ratioTargetMet: ratio >= TARGET_RATIO,
        throughputTargetMet: large.opsPerSec >= TARGET_FIND_OPS,
      };
      return [`${r.mode}, ${r.server}`, entry];
    }),
  );

  process.stdout.write('cache port...\n');
  const cache = await runCacheBench({ redisUrl: process.env.REDIS_URL || undefined });

  const round2 = (l: number) => Math.round(l * 100) / 100;
  const result = {
    recordedAt: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
      // Other work on the machine skews ops/s; CPU time per operation is the steadier figure.
      loadAverageBefore: loadBefore.map(round2),
      loadAverageAfter: os.loadavg().map(round2),
    },
    setup:
      '50 operations outstanding through the official driver; 1k and 100k documents in two collections of one server, measured in 6 alternating rounds of 400 ms; string _ids, ~450-byte documents',
    targets: { findOneRatio100kTo1k: TARGET_RATIO, findOnePerSec: TARGET_FIND_OPS },
    embeddedMongo: { summary, results: mongo },
    cache,
    durationMs: Date.now() - started,
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(path.join(RESULTS_DIR, 'store.json'), `${JSON.stringify(result, null, 2)}\n`);

  const md = [
    '# Store benchmark',
    '',
    `Recorded ${result.recordedAt} on ${result.machine.cpus} × ${result.machine.cpuModel ?? 'CPU'}, Node ${result.machine.node}; load average ${result.machine.loadAverageBefore.join(' / ')} before and ${result.machine.loadAverageAfter.join(' / ')} after. ${result.setup}.`,
    '',
    '## Embedded MongoDB-wire-compatible server (through the official driver)',
    '',
    '- "in-process": server and driver share one event loop (the embedded setup of `npm start`); CPU is the whole process per operation.',
    '- "separate-process": the server runs as `store:serve`; CPU is the driver process + the server process per operation.',
    '- "journaled" fsyncs the journal before every acknowledgement (group commit); reads never touch the disk.',
    '- ops/s is the median of the rounds, "best" the best round.',
    '',
    '| configuration | documents | operation | ops/s | best | p50 ms | p99 ms | CPU µs/op |',
    '|---|---:|---|---:|---:|---:|---:|---|',
    ...mongo.flatMap((r) => CASES.flatMap((name) => SIZES.map((size) => row(r, name, size)))),
    '',
    ...Object.entries(summary).map(
      ([config, s]) =>
        `- ${config}: findOne@100k / findOne@1k = **${s.findOneRatio100kTo1k}** (target ≥ ${TARGET_RATIO}); findOne@100k = **${fmt(s.findOnePerSecAt100k)}/s** median, ${fmt(s.bestFindOnePerSecAt100k)}/s best round (target ≥ ${fmt(TARGET_FIND_OPS)}).`,
    ),
    '',
    '## Cache port',
    '',
    '```json',
    JSON.stringify(cache, null, 2),
    '```',
    '',
  ].join('\n');
  writeFileSync(path.join(RESULTS_DIR, 'store.md'), md);
  process.stdout.write(
    `${md}\nwritten to bench/results/store.json and store.md in ${Math.round(result.durationMs / 1000)} s\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
