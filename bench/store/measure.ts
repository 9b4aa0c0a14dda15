import { performance } from 'node:perf_hooks';

/** Throughput and latency of one benchmark case. */
export interface CaseResult {
  ops: number;
  /** Median over the rounds (interleaved cases) or over the single run. */
  opsPerSec: number;
  /** Best round: what the code does when the machine is least disturbed. */
  bestOpsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU time of this process per operation, in microseconds. */
  cpuUsPerOp: number;
  /** CPU time of a separate server process per operation, when there is one. */
  serverCpuUsPerOp?: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round(sorted[Math.max(0, index)] * 1000) / 1000;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** Runs `op` from `concurrency` loops until `maxMs` has passed; returns the latencies (ms) and the duration. */
async function run(
  op: (i: number) => Promise<unknown>,
  concurrency: number,
  maxMs: number,
): Promise<{ latencies: number[]; seconds: number }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const deadline = started + maxMs;
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const i = next++;
      const t0 = performance.now();
      await op(i);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

/** Per-variant accumulators of `interleave`. */
interface Acc {
  latencies: number[];
  rates: number[];
  cpuMicros: number;
  serverMicros: number;
}

/**
 * Measures several variants of a case (for example the same read at 1k and at 100k documents)
 * in alternating short rounds with `concurrency` operations outstanding, so that whatever else
 * the machine does at the time weighs on every variant alike. `serverCpu` reads the CPU time of
 * a separate server process, in microseconds, when there is one.
 */
export async function interleave<K extends string>(
  variants: Record<K, (i: number) => Promise<unknown>>,
  options: { concurrency: number; rounds: number; msPerRound: number; serverCpu?: () => number | undefined },
): Promise<Record<K, CaseResult>> {
  const keys = Object.keys(variants) as K[];
  const acc = {} as Record<K, Acc>;
  for (const k of keys) acc[k] = { latencies: [], rates: [], cpuMicros: 0, serverMicros: 0 };
  let serverKnown = options.serverCpu?.() !== undefined;
  for (let r = 0; r < options.rounds; r++) {
    // Alternate the order too, so no variant always runs right after the same other one.
    const order = r % 2 === 0 ? keys : [...keys].reverse();
    for (const k of order) {
      const cpu0 = process.cpuUsage();
      const server0 = options.serverCpu?.();
      const { latencies, seconds } = await run(variants[k], options.concurrency, options.msPerRound);
      const cpu = process.cpuUsage(cpu0);
      const server1 = options.serverCpu?.();
      acc[k].latencies.push(...latencies);
      acc[k].rates.push(latencies.length / seconds);
      acc[k].cpuMicros += cpu.user + cpu.system;
      if (server0 !== undefined && server1 !== undefined) acc[k].serverMicros += server1 - server0;
      else serverKnown = false;
    }
  }
  const out = {} as Record<K, CaseResult>;
  for (const k of keys) {
    const a = acc[k];
    const sorted = Float64Array.from(a.latencies).sort();
    const rates = [...a.rates].sort((x, y) => x - y);
    const ops = a.latencies.length;
    out[k] = {
      ops,
      opsPerSec: Math.round(rates[Math.floor(rates.length / 2)]),
      bestOpsPerSec: Math.round(rates[rates.length - 1]),
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      cpuUsPerOp: round1(a.cpuMicros / Math.max(1, ops)),
    };
    if (serverKnown) out[k].serverCpuUsPerOp = round1(a.serverMicros / Math.max(1, ops));
  }
  return out;
}
