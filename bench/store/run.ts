/**
 * Store benchmark (`npm run bench:store`): the embedded MongoDB-wire-compatible server through the
 * official driver (memory-only and journaled, at 1k and 100k documents), then the cache port.
 * Everything targets 127.0.0.1 and is time-bounded (well under 3 minutes in total).
 * Results go to bench/results/store.json and bench/results/store.md.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCacheBench } from './cache-bench';
import { runMongoBench, type MongoBenchResult } from './mongo-bench';

/** The repository root, whether this runs from bench/store or from dist/bench/store. */
function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

const RESULTS_DIR = path.join(repoRoot(), 'bench', 'results');
const TARGET_RATIO = 0.8;
const TARGET_FIND_OPS = 5000;

/** The configurations measured, the persisted one (journaled) being the one that matters. */
const CONFIGS = [
  { mode: 'memory', server: 'in-process' },
  { mode: 'journaled', server: 'in-process' },
  { mode: 'journaled', server: 'separate-process' },
] as const;

function row(
  r: MongoBenchResult,
  name: keyof Pick<MongoBenchResult, 'insertOne' | 'findOneById' | 'conditionalUpdate'>,
): string {
  const c = r[name];
  const cpu =
    c.serverCpuUsPerOp === undefined ? `${c.cpuUsPerOp}` : `${c.cpuUsPerOp} + server ${c.serverCpuUsPerOp}`;
  return `| ${r.mode}, ${r.server} | ${r.documents.toLocaleString('en-US')} | ${name} | ${c.opsPerSec.toLocaleString('en-US')} | ${c.p50Ms} | ${c.p99Ms} | ${cpu} |`;
}

async function main(): Promise<void> {
  const started = Date.now();
  const mongo: MongoBenchResult[] = [];
  const loadBefore = os.loadavg();
  for (const { mode, server } of CONFIGS) {
    for (const documents of [1_000, 100_000]) {
      process.stdout.write(`embedded mongo: ${mode}, ${server}, ${documents} documents...\n`);
      mongo.push(await runMongoBench({ mode, server, documents, concurrency: 50, maxMsPerCase: 2500 }));
    }
  }
  const find = (mode: string, server: string, n: number) =>
    mongo.find((r) => r.mode === mode && r.server === server && r.documents === n)!.findOneById.opsPerSec;
  const summary = Object.fromEntries(
    CONFIGS.map(({ mode, server }) => {
      const at100k = find(mode, server, 100_000);
      const ratio = Math.round((at100k / find(mode, server, 1_000)) * 100) / 100;
      const entry = {
        findOneRatio100kTo1k: ratio,
        findOnePerSecAt100k: at100k,
        ratioTargetMet: ratio >= TARGET_RATIO,
        throughputTargetMet: at100k >= TARGET_FIND_OPS,
      };
      return [`${mode}, ${server}`, entry];
    }),
  );

  process.stdout.write('cache port...\n');
  const cache = await runCacheBench({ redisUrl: process.env.REDIS_URL || undefined });

  const result = {
    recordedAt: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
      // Other work on the machine skews ops/s; CPU time per operation is the steadier figure.
      loadAverageBefore: loadBefore.map((l) => Math.round(l * 100) / 100),
      loadAverageAfter: os.loadavg().map((l) => Math.round(l * 100) / 100),
    },
    setup:
      '50 operations outstanding through the official driver, 2.5 s per case, string _ids, ~450-byte documents',
    targets: { findOneRatio100kTo1k: TARGET_RATIO, findOnePerSec: TARGET_FIND_OPS },
    embeddedMongo: { summary, cases: mongo },
    cache,
    durationMs: Date.now() - started,
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(path.join(RESULTS_DIR, 'store.json'), `${JSON.stringify(result, null, 2)}\n`);

  const md = [
    '# Store benchmark',
    '',
    `Recorded ${result.recordedAt} on ${result.machine.cpus} × ${result.machine.cpuModel ?? 'CPU'}, Node ${result.machine.node}, load average ${result.machine.loadAverageBefore.join(' / ')} before and ${result.machine.loadAverageAfter.join(' / ')} after. ${result.setup}.`,
    '',
    '## Embedded MongoDB-wire-compatible server (through the official driver)',
    '',
    '"in-process": server and driver share one event loop (the embedded setup of `npm start`); the CPU column is the whole process per operation.',
    '"separate-process": the server runs as `store:serve`; the CPU column is the benchmark (driver) process, then the server process, per operation.',
    '',
    '| configuration | documents | operation | ops/s | p50 ms | p99 ms | CPU µs/op |',
    '|---|---:|---|---:|---:|---:|---|',
    ...mongo.flatMap((r) => [row(r, 'insertOne'), row(r, 'findOneById'), row(r, 'conditionalUpdate')]),
    '',
    ...Object.entries(summary).map(
      ([mode, s]) =>
        `- ${mode}: findOne@100k / findOne@1k = **${s.findOneRatio100kTo1k}** (target ≥ ${TARGET_RATIO}); findOne@100k = **${s.findOnePerSecAt100k.toLocaleString('en-US')}/s** (target ≥ ${TARGET_FIND_OPS.toLocaleString('en-US')}).`,
    ),
    '',
    '"journaled" fsyncs the journal before every acknowledgement (group commit); reads never touch the disk.',
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
