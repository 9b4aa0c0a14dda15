import { SANDBOX_OUTCOMES, type ProcExecuteResult } from '../../schemas/tools/proc-execute';

/** What a sandbox worker answers for one call: the result without `exitCode` (derived here). */
export type TaskReply = Omit<ProcExecuteResult, 'exitCode'>;

const OUTCOMES: ReadonlySet<string> = new Set(SANDBOX_OUTCOMES);

/**
 * Checks a worker's reply: the hand-written equivalent of
 * `ProcExecuteResultSchema.omit({ exitCode: true })` (tested against it), returning a new object
 * with only those fields, in the schema's order.
 *
 * Hand-written because it runs once per call on the worker node's main thread, where the zod parse
 * (its `z.json()` walks the whole `result`) cost tens of µs. `result` is not walked: the worker
 * builds it with `JSON.parse` (quickjs-run.js), so it is JSON by construction, and it crossed the
 * thread boundary by structured clone, which cannot add functions or `undefined` to it.
 */
export function readTaskReply(value: unknown): TaskReply | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const r = value as Record<string, unknown>;
  const { stdout, stderr, durationMs, truncated, outcome } = r;
  if (
    typeof stdout !== 'string' ||
    typeof stderr !== 'string' ||
    !Number.isSafeInteger(durationMs) ||
    (durationMs as number) < 0 ||
    typeof truncated !== 'boolean' ||
    typeof outcome !== 'string' ||
    !OUTCOMES.has(outcome)
  ) {
    return undefined;
  }
  const reply: TaskReply = {
    stdout,
    stderr,
    durationMs: durationMs as number,
    truncated,
    outcome: outcome as TaskReply['outcome'],
  };
  if (r.result !== undefined) reply.result = r.result as TaskReply['result'];
  return reply;
}
