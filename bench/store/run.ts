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

function row(r: MongoBenchResult, name: keyof Pick<MongoBenchResult, 'insertOne' | 'findOneById' | 'conditionalUpdate'>): string {
  const c = r[name];
  return `| ${r.mode} | ${r.documents.toLocaleString('en-US')} | ${name} | ${c.opsPerSec.toLocaleString('en-US')} | ${c.p50Ms} | ${c.p99Ms} |`;
}

async function main(): Promise<void> {
  const started = Date.now();
  const mongo: MongoBenchResult[] = [];
  for (const mode of ['memory', 'journaled'] as const) {
    for (const documents of [1_000, 100_000]) {
      process.stdout.write(`embedded mongo: ${mode}, ${documents} documents...\n`);
      mongo.push(await runMongoBench({ mode, documents, concurrency: 50, maxMsPerCase: 2500 }));
    }
  }
  const find = (mode: string, n: number) => mongo.find((r) => r.mode === mode && r.documents === n)!.findOneById.opsPerSec;
  const summary = Object.fromEntries(
    (['memory', 'journaled'] as const).map((mode) => {
      const ratio = Math.round((find(mode, 100_000) / find(mode, 1_000)) * 100) / 100;
      return [mode, { findOneRatio100kTo1k: ratio, findOnePerSecAt100k: find(mode, 100_000), ratioTargetMet: ratio >= TARGET_RATIO, throughputTargetMet: find(mode, 100_000) >= TARGET_FIND_OPS }];
    }),
  );

  process.stdout.write('cache port...\n');
  const cache = await runCacheBench({ redisUrl: process.env.REDIS_URL || undefined });

  const result = {
    recordedAt: new Date().toISOString(),
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, node: process.version, platform: `${os.platform()} ${os.release()}` },
    setup: 'server in the same process as the driver (the embedded configuration), 50 operations outstanding, 2.5 s per case, string _ids, ~450-byte documents',
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
    `Recorded ${result.recordedAt} on ${result.machine.cpus} × ${result.machine.cpuModel ?? 'CPU'}, Node ${result.machine.node}. ${result.setup}.`,
    '',
    '## Embedded MongoDB-wire-compatible server (through the official driver)',
    '',
    '| mode | documents | operation | ops/s | p50 ms | p99 ms |',
    '|---|---:|---|---:|---:|---:|',
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
  process.stdout.write(`${md}\nwritten to bench/results/store.json and store.md in ${Math.round(result.durationMs / 1000)} s\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
