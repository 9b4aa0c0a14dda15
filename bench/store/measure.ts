import { performance } from 'node:perf_hooks';

/** Throughput and latency of one benchmark case. */
export interface CaseResult {
  ops: number;
  opsPerSec: number;
  p50Ms: number;
  p99Ms: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round(sorted[Math.max(0, index)] * 1000) / 1000;
}

/**
 * Runs `op` from `concurrency` loops (that many operations outstanding at once) until `maxOps`
 * operations or `maxMs` have passed, timing every call.
 */
export async function measure(
  op: (i: number) => Promise<unknown>,
  concurrency: number,
  maxOps: number,
  maxMs: number,
): Promise<CaseResult> {
  const latencies = new Float64Array(maxOps);
  let next = 0;
  let done = 0;
  const started = performance.now();
  const deadline = started + maxMs;
  const worker = async (): Promise<void> => {
    while (next < maxOps && performance.now() < deadline) {
      const i = next++;
      const t0 = performance.now();
      await op(i);
      latencies[done++] = performance.now() - t0;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsedSec = (performance.now() - started) / 1000;
  const sorted = latencies.subarray(0, done).sort();
  return {
    ops: done,
    opsPerSec: Math.round(done / elapsedSec),
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
  };
}
