import type { Attempt, OpClass } from './load';
import type { PhaseReadBack } from './read-back';

/** When a phase ran, and when its fault began and its dependency came back (epoch ms). */
export interface PhaseMarks {
  name: string;
  title: string;
  startedAt: number;
  endedAt: number;
  /** The fault: kill, cut, poison injected. */
  faultAt?: number;
  /**
   * When the dependency was back: the proxy listening again, the document server ready after its
   * restart; for a killed worker, the kill itself (the other worker serves on).
   */
  returnAt?: number;
  notes: string[];
}

export interface ClassFigures {
  requests: number;
  acknowledged: number;
  errors: number;
  /** From the dependency's return to the end of the first success after it; null: none came. Absent: no error, not affected. */
  firstSuccessAfterReturnMs?: number | null;
  /** Failed requests sent more than 1 s after the return. */
  errorsLaterThan1s?: number;
  /** Longest time without a success in the phase. */
  longestGapMs: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface PhaseFigures extends PhaseMarks {
  requests: number;
  acknowledged: number;
  /** Keyed calls sent again with their key. */
  keyedRetries: number;
  errorsByStatus: Record<string, number>;
  byClass: Partial<Record<OpClass, ClassFigures>>;
  readBack: PhaseReadBack;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** One phase's figures from the attempts sent during it (and, for recovery, every attempt after). */
export function phaseFigures(
  index: number,
  marks: PhaseMarks,
  attempts: readonly Attempt[],
  readBack: PhaseReadBack,
): PhaseFigures {
  const mine = attempts.filter((a) => a.phase === index);
  const errorsByStatus: Record<string, number> = {};
  for (const a of mine)
    if (!a.ok) errorsByStatus[String(a.status)] = (errorsByStatus[String(a.status)] ?? 0) + 1;
  const byClass: Partial<Record<OpClass, ClassFigures>> = {};
  for (const cls of ['mcp', 'files', 'memory'] as const) {
    const of = mine.filter((a) => a.cls === cls);
    if (of.length === 0) continue;
    const ok = of.filter((a) => a.ok);
    const latencies = ok.map((a) => a.end - a.start).sort((x, y) => x - y);
    const ends = ok.map((a) => a.end).sort((x, y) => x - y);
    let gap = 0;
    let previous = marks.startedAt;
    for (const end of [...ends, marks.endedAt]) {
      gap = Math.max(gap, end - previous);
      previous = Math.max(previous, end);
    }
    const figures: ClassFigures = {
      requests: of.length,
      acknowledged: ok.length,
      errors: of.length - ok.length,
      longestGapMs: gap,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      maxMs: latencies.at(-1) ?? 0,
    };
    if (marks.returnAt !== undefined && figures.errors > 0) {
      const back = marks.returnAt;
      const first = attempts
        .filter((a) => a.cls === cls && a.ok && a.end >= back)
        .reduce((min, a) => Math.min(min, a.end), Infinity);
      figures.firstSuccessAfterReturnMs = first === Infinity ? null : first - back;
      figures.errorsLaterThan1s = of.filter((a) => !a.ok && a.start > back + 1000).length;
    }
    byClass[cls] = figures;
  }
  return {
    ...marks,
    requests: mine.length,
    acknowledged: mine.filter((a) => a.ok).length,
    keyedRetries: mine.filter((a) => a.retry).length,
    errorsByStatus,
    byClass,
    readBack,
  };
}

/** Sum of the losses of every kind in a phase. */
export function lostIn(r: PhaseReadBack): number {
  return r.counters.lost + r.sets.lost + r.files.lost + r.memory.lost;
}

/** Acknowledged writes found applied more than once in a phase. */
export function appliedTwiceIn(r: PhaseReadBack): number {
  return r.counters.appliedTwice + r.files.appliedTwice + r.memory.appliedTwice;
}

/** Acknowledged writes read back in a phase. */
export function ackedWritesIn(r: PhaseReadBack): number {
  return r.counters.acked + r.sets.acked + r.files.acked + r.memory.acked;
}
