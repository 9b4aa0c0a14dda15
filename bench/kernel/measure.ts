import { performance } from 'node:perf_hooks';
import { machineCpu } from './children';

/** Latencies and counts of one case, accumulated over its rounds. */
export class Recorder {
  private latencies = new Float64Array(1 << 16);
  count = 0;
  errors = 0;
  elapsedMs = 0;
  /** CPU µs used during the measured rounds, per process name. */
  readonly cpuMicros: Record<string, number> = {};
  /** Machine-wide busy and total jiffies during the measured rounds. */
  machineBusy = 0;
  machineTotal = 0;
  firstError?: string;
  /** Where each measured round starts in `latencies`, and how long it lasted. */
  private readonly roundMarks: Array<{ start: number; end: number; ms: number }> = [];

  add(ms: number): void {
    if (this.count === this.latencies.length) {
      const bigger = new Float64Array(this.latencies.length * 2);
      bigger.set(this.latencies);
      this.latencies = bigger;
    }
    this.latencies[this.count++] = ms;
  }

  /** Called by `closedLoop` around each measured round. */
  round(start: number, ms: number): void {
    this.roundMarks.push({ start, end: this.count, ms });
  }

  summary(): LoadSummary {
    const sorted = this.latencies.slice(0, this.count).sort();
    const pct = (p: number) => percentile(sorted, p);
    const cpuUsPerRequest = Object.fromEntries(
      Object.entries(this.cpuMicros).map(([k, v]) => [k, this.count ? Math.round(v / this.count) : 0]),
    );
    return {
      requests: this.count,
      seconds: round2(this.elapsedMs / 1000),
      perSecond: this.elapsedMs ? Math.round((this.count / this.elapsedMs) * 1000) : 0,
      p50Ms: pct(50),
      p90Ms: pct(90),
      p99Ms: pct(99),
      maxMs: sorted.length ? round2(sorted[sorted.length - 1]) : 0,
      errors: this.errors,
      ...(this.firstError ? { firstError: this.firstError } : {}),
      cpuUsPerRequest,
      // A spike in one round (other work on the machine) shows here rather than hiding in the total.
      perRound: this.roundMarks.map(({ start, end, ms }) => ({
        perSecond: Math.round(((end - start) / ms) * 1000),
        p99Ms: percentile(this.latencies.slice(start, end).sort(), 99),
      })),
      machineCpuBusyPercent: this.machineTotal
        ? Math.round((this.machineBusy / this.machineTotal) * 100)
        : undefined,
    };
  }
}

export interface LoadSummary {
  requests: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  errors: number;
  firstError?: string;
  /** CPU time per request of each process involved (the benchmark process is `bench`). */
  cpuUsPerRequest: Record<string, number>;
  perRound: Array<{ perSecond: number; p99Ms: number }>;
  /** How busy all cores were during the measurement (other work on the machine included). */
  machineCpuBusyPercent?: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return round2(sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]);
}

export function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/** CPU readers of the processes a case involves (name → µs so far). */
export type CpuProbes = Record<string, () => number | undefined | Promise<number | undefined>>;

/** Reads every probe (in parallel). */
export async function readCpu(cpu: CpuProbes): Promise<Record<string, number | undefined>> {
  const entries = await Promise.all(Object.entries(cpu).map(async ([k, read]) => [k, await read()] as const));
  return Object.fromEntries(entries);
}

/**
 * A closed loop: `lanes` callers, each sending its next request as soon as the previous one is
 * answered, for `ms`. Latencies go to `recorder` when given (a warm-up passes none).
 */
export async function closedLoop(
  op: (lane: number, n: number) => Promise<unknown>,
  lanes: number,
  ms: number,
  recorder?: Recorder,
  cpu: CpuProbes = {},
): Promise<void> {
  const cpuBefore = await readCpu(cpu);
  const machineBefore = machineCpu();
  const firstLatency = recorder?.count ?? 0;
  const started = performance.now();
  const until = started + ms;
  let n = 0;
  const lane = async (id: number) => {
    while (performance.now() < until) {
      const t0 = performance.now();
      try {
        await op(id, n++);
        recorder?.add(performance.now() - t0);
      } catch (err) {
        if (recorder) {
          recorder.errors++;
          recorder.firstError ??= String((err as Error)?.message ?? err);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: lanes }, (_, i) => lane(i)));
  if (!recorder) return;
  const elapsed = performance.now() - started;
  recorder.elapsedMs += elapsed;
  recorder.round(firstLatency, elapsed);
  const cpuAfter = await readCpu(cpu);
  for (const k of Object.keys(cpu)) {
    const before = cpuBefore[k];
    const after = cpuAfter[k];
    if (before !== undefined && after !== undefined)
      recorder.cpuMicros[k] = (recorder.cpuMicros[k] ?? 0) + after - before;
  }
  const machineAfter = machineCpu();
  if (machineBefore && machineAfter) {
    recorder.machineBusy += machineAfter.busy - machineBefore.busy;
    recorder.machineTotal += machineAfter.total - machineBefore.total;
  }
}

/** This process's CPU time so far, in µs. */
export function ownCpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}
