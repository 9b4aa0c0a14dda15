import { ownCpuMicros, type BenchProcess } from './children';
import { merge, runLoad, type CaseFigures, type LoadRun, type LoadSpec } from './load';

/** The measuring loop of `bench:mcp` (run.ts, peer-case.ts): rounds of closed-loop load, CPU per request. */

/** Unmeasured load on the measured connections before a case's first round. */
export const WARMUP_SECONDS = 2;
/**
 * Load before each later round of a case, not measured: the case's nodes were paused while the
 * other cases ran, and their first second after SIGCONT (timers catching up, cold caches) is not
 * the steady state the rounds measure.
 */
export const REWARM_SECONDS = 1;

/** CPU of the processes of a case over its measurements, per request (µs), by role. */
export type CpuPerRequest = Record<string, number | undefined>;

/** Something whose CPU time is read before and after each measurement. */
export interface CpuSource {
  name: string;
  cpuMicros(): number | undefined;
}

export interface Measured extends CaseFigures {
  cpuUsPerRequest: CpuPerRequest;
}

/**
 * Runs the cases of one comparison: one measured run per round after a warm-up on the same
 * connections (longer in the first round), interleaved with the other cases by the caller; CPU of
 * every source over each measured run.
 */
export class CaseRunner {
  private readonly runs = new Map<string, LoadRun[]>();
  private readonly cpu = new Map<string, Map<string, number>>();

  /**
   * `nodes`: every service node and the bare server; while a case is loaded (warm-up included) the
   * ones not in it are paused (`BenchProcess.pause`). Idle, a node costs 10-20 ms of CPU a second,
   * and right after its own load its heap is collected in bursts of tens of milliseconds: on two
   * cores that landed in the next case's figures, its tail latency above all.
   */
  constructor(
    private readonly shared: readonly CpuSource[],
    private readonly nodes: readonly BenchProcess[],
    private readonly log: (line: string) => void,
  ) {}

  async measure(
    key: string,
    spec: LoadSpec,
    sources: readonly CpuSource[],
    warm: boolean,
    active: readonly BenchProcess[],
  ): Promise<void> {
    const idle = this.nodes.filter((p) => !active.includes(p));
    for (const p of idle) p.pause();
    let run: LoadRun;
    const all = [...sources, ...this.shared, { name: 'autocannon', cpuMicros: ownCpuMicros }];
    let before: Array<number | undefined> = [];
    let after: Array<number | undefined>;
    try {
      // The warm-up runs on the connections the measurement then uses (see LoadSpec.warmupSeconds).
      run = await runLoad({
        ...spec,
        warmupSeconds: warm ? WARMUP_SECONDS : REWARM_SECONDS,
        onMeasureStart: () => (before = all.map((s) => s.cpuMicros())),
      });
      after = all.map((s) => s.cpuMicros());
    } finally {
      for (const p of idle) p.resume();
    }
    const acc = this.cpu.get(key) ?? new Map<string, number>();
    all.forEach((s, i) => {
      const used = (after[i] ?? NaN) - (before[i] ?? NaN);
      acc.set(s.name, (acc.get(s.name) ?? 0) + used);
    });
    this.cpu.set(key, acc);
    this.runs.set(key, [...(this.runs.get(key) ?? []), run]);
    const f = merge([run]);
    this.log(
      `  ${key}: ${f.requestsPerSec} req/s, p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms${f.non2xx || f.errors ? `, non2xx ${f.non2xx}, errors ${f.errors}` : ''}`,
    );
  }

  /** Throughput of each measured run of a case, in order. */
  perRound(key: string): number[] {
    return (this.runs.get(key) ?? []).map((run) => merge([run]).requestsPerSec);
  }

  figures(key: string): Measured {
    const figures = merge(this.runs.get(key) ?? []);
    const cpuUsPerRequest: CpuPerRequest = {};
    for (const [name, us] of this.cpu.get(key) ?? []) {
      cpuUsPerRequest[name] =
        Number.isFinite(us) && figures.requests > 0 ? Math.round(us / figures.requests) : undefined;
    }
    return { ...figures, cpuUsPerRequest };
  }
}
