/**
 * Counts of the kernel's work in this process since it started: turns run, commands sent, replies
 * and stream items sent, broadcasts published. Plain integers bumped where the work happens (no
 * timing, no allocation), read by benchmarks to report work per request (bench:streams), where
 * CPU time alone hides what costs it.
 */
export interface WorkCounts {
  /** Turns started (a message taken by a handler; deferred work not counted again). */
  turns: number;
  /** Command envelopes handed to the transport (asks, tells, stream requests). */
  commands: number;
  /** Replies and stream items handed to the transport. */
  replies: number;
  /** Broadcasts published (each reaches every node: deliveries = broadcasts × nodes). */
  broadcasts: number;
  /** Turns by message type. */
  turnsByType: Record<string, number>;
}

export const workCounts: WorkCounts = { turns: 0, commands: 0, replies: 0, broadcasts: 0, turnsByType: {} };

/** A copy, for a report (the live object keeps counting). */
export function snapshotWorkCounts(): WorkCounts {
  return { ...workCounts, turnsByType: { ...workCounts.turnsByType } };
}

export function countTurn(type: string): void {
  workCounts.turns += 1;
  workCounts.turnsByType[type] = (workCounts.turnsByType[type] ?? 0) + 1;
}
