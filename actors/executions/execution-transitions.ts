/**
 * Status changes of executions written by this process (`from` → `to`), counted for the
 * `execution_transitions_total` metric (actors/operations/metrics.ts). Process-wide: the state
 * machine's store bumps it after each write that moved the status. Labels are statuses, a fixed
 * set, so the map stays small.
 */
export const executionTransitions = new Map<string, number>();

export function countTransition(from: string, to: string): void {
  const key = `${from}>${to}`;
  executionTransitions.set(key, (executionTransitions.get(key) ?? 0) + 1);
}
