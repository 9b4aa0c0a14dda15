import { z } from 'zod';
import type { StepRunner } from '../../actors/executions/executions';
import { sleep } from '../../src/kernel/sleep';

/**
 * `BENCH_LOOP`: the execution type of the panic benchmark. Its steps never end the run (no total,
 * never `last`): each one waits `stepMs` (abortable) and the actor starts the next, forever, until
 * someone stops it. Every step that really starts (its signal not already aborted) is recorded
 * here with its wall-clock time, and so is the moment its signal aborts: the benchmark reads these
 * markers from each worker afterwards, instead of trusting the statuses.
 */
export const BENCH_LOOP_TYPE = 'BENCH_LOOP';

const LoopInputSchema = z.object({ stepMs: z.number().int().min(1).max(60_000) });
type LoopInput = z.infer<typeof LoopInputSchema>;

/** One step start seen by this process: `[epoch ms, execution id, step index]`. */
export type StepStart = [number, string, number];

/** What a worker reports to the benchmark (`{cmd: 'markers', since}`). */
export interface MarkerReport {
  /** Steps started in this process, in total. */
  started: number;
  /** Step starts at or after `since`. */
  startsSince: StepStart[];
  /** Steps whose signal was already aborted when the runner was called (they did nothing). */
  startedAborted: number;
  /** Steps running now (between their start and their end). */
  inFlight: number;
  /** Steps in flight at `since` whose signal aborted afterwards: `[epoch ms, execution id]`. */
  abortsSince: Array<[number, string]>;
  /** Steps that were in flight at `since` and ended without their signal aborting. */
  endedWithoutAbortSince: number;
}

interface Running {
  executionId: string;
  startedAt: number;
  abortedAt?: number;
  endedAt?: number;
}

/** The markers of this process (one set per process: the runner is a module-level singleton). */
class StepMarkers {
  private readonly starts: StepStart[] = [];
  private readonly running = new Set<Running>();
  /** Steps that ended, kept long enough for a report about the last seconds. */
  private readonly ended: Running[] = [];
  private startedAborted = 0;

  begin(executionId: string, index: number, signal: AbortSignal): () => void {
    const now = Date.now();
    this.starts.push([now, executionId, index]);
    const entry: Running = { executionId, startedAt: now };
    this.running.add(entry);
    const onAbort = () => (entry.abortedAt = Date.now());
    signal.addEventListener('abort', onAbort, { once: true });
    return () => {
      signal.removeEventListener('abort', onAbort);
      entry.endedAt = Date.now();
      this.running.delete(entry);
      this.ended.push(entry);
      if (this.ended.length > 100_000) this.ended.splice(0, 50_000);
    };
  }

  abortedOnArrival(): void {
    this.startedAborted += 1;
  }

  report(since: number): MarkerReport {
    const all = [...this.ended, ...this.running];
    // In flight at `since`: started before it and not ended before it.
    const atSince = all.filter((r) => r.startedAt < since && (r.endedAt === undefined || r.endedAt >= since));
    return {
      started: this.starts.length,
      startsSince: this.starts.filter(([t]) => t >= since),
      startedAborted: this.startedAborted,
      inFlight: this.running.size,
      abortsSince: atSince
        .filter((r) => r.abortedAt !== undefined)
        .map((r): [number, string] => [r.abortedAt!, r.executionId]),
      endedWithoutAbortSince: atSince.filter((r) => r.abortedAt === undefined && r.endedAt !== undefined)
        .length,
    };
  }
}

export const stepMarkers = new StepMarkers();

export const benchLoopRunner: StepRunner<LoopInput> = {
  type: BENCH_LOOP_TYPE,
  input: LoopInputSchema,
  totalSteps: () => null,
  stepName: (_input, index) => `loop ${index + 1}`,
  stepTimeoutMs: 120_000,
  async step(ctx) {
    if (ctx.signal.aborted) {
      // Decided before a panic, delivered after it: the runtime hands it over already stopped.
      stepMarkers.abortedOnArrival();
      throw ctx.signal.reason;
    }
    const end = stepMarkers.begin(ctx.executionId, ctx.index, ctx.signal);
    try {
      await sleep(ctx.input.stepMs, ctx.signal);
    } finally {
      end();
    }
    return { output: { index: ctx.index } };
  },
};
