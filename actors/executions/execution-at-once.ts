import type { z } from 'zod';
import type { Principal } from '../../schemas/auth';
import type { ExecutionDocument } from '../../schemas/documents/execution';
import { errors, isAppError } from '../../schemas/errors';
import type { ExecutionCreateMessageSchema } from '../../schemas/messages/executions';
import { draftExecutionDocument } from './execution-create';
import { compact, decideRun, type Decision, type LogLine, type StepPlan } from './execution-machine';
import { decideStepDone, decideStepFailed } from './execution-reports';
import { runStep } from './execution-steps';
import type { ExecutionsService } from './executions.service';
import { DEFAULT_STEP_TIMEOUT_MS } from './step-runners';

type CreateBody = z.output<typeof ExecutionCreateMessageSchema>;

/** The plan the state machine follows for `doc` (its runner's step names and deadline). */
export function stepPlanOf(svc: ExecutionsService, doc: ExecutionDocument, leaseMs?: number): StepPlan {
  const runner = svc.runners.get(doc.type);
  const parsed = runner?.input.safeParse(doc.input);
  const input: unknown = parsed?.success ? parsed.data : undefined;
  return {
    totalSteps: doc.progress.totalSteps,
    stepName: (i) => (runner?.stepName && input !== undefined ? runner.stepName(input, i) : `Step ${i + 1}`),
    stepTimeoutMs: runner?.stepTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS,
    ...(leaseMs ? { leaseMs } : {}),
  };
}

/** A decision applied to its draft without a write (the record is not stored yet). */
function applied(before: ExecutionDocument, dec: Decision | null, lines: LogLine[], now: Date) {
  if (!dec) throw errors.internal('The execution did not move');
  lines.push(...dec.logs);
  return compact({
    ...dec.draft,
    _id: before._id,
    version: before.version,
    logSeq: lines.length,
    updatedAt: now,
  });
}

/** An execution run at once whose record is stored, its step still to run (`finish`). */
export interface AtOnceRun {
  /** The stored record: RUNNING, its step started, with its lease. */
  readonly doc: ExecutionDocument;
  /**
   * Runs the step and records its end like the actor would (the conditional write, the log
   * lines, the events for watchers, the notification). Resolves the record as it ended, and the
   * error of a failure; never rejects for the step's own failure.
   */
  finish(): Promise<{ doc: ExecutionDocument; error?: { error: string; code: string } }>;
}

/**
 * An execution whose only step needs nothing but this node (an intent answered by a read-only
 * command that calls no tool, or the help text), run here, on the node that got the request, in
 * two parts (docs/studio.md, "Answered at once"):
 *
 * 1. now: the record as the state machine leaves it once its step started (RUNNING, with the
 *    lease of the step and its first log lines), one insert of each, coalesced with those of other
 *    requests of the same moment (`InsertBatcher`). Resolves once both are stored: from then on
 *    the execution is never lost, since a node that dies before part 2 leaves a lease that lapses,
 *    and the sweeper records the step failed like any step of a stopped node (a retry runs it);
 * 2. `finish()`: the step, then the decision on its end, written as any decision of the actor is
 *    (`ExecutionStore.commitOn`: no second read unless something else changed the record
 *    meanwhile, such as a panic).
 *
 * The step is tracked like any step of this node (panic aborts it). Only for a step that ends in
 * one go: one that asks for more steps is refused (INTERNAL_ERROR), so choose its runs with care.
 */
export async function startAtOnce(
  svc: ExecutionsService,
  id: string,
  caller: Principal & { accountId: string },
  body: CreateBody,
): Promise<AtOnceRun> {
  const queued = await draftExecutionDocument(svc, id, caller, body);
  const runner = svc.runners.get(queued.type)!;
  const plan = stepPlanOf(svc, queued, svc.leases.leaseMs);
  const lines: LogLine[] = [{ level: 'info', message: `Created (${body.type}, ${body.sourceType})` }];
  const started = new Date();
  const run = decideRun(queued, plan, started);
  const running = applied(queued, run, lines, started);
  const start = run?.start;
  if (!start) throw errors.internal('The execution did not start');
  await Promise.all([
    svc.store.insertIfAbsent(running).then((inserted) => {
      if (!inserted) throw errors.conflict('This execution id is taken');
    }),
    svc.logs.write(id, 1, lines, started),
  ]);

  const finish = async () => {
    const stepLines: LogLine[] = [];
    const logs = {
      append: (_id: string, more: LogLine[]) => {
        stepLines.push(...more);
        return Promise.resolve([]);
      },
    };
    const result = await runStep(
      { services: svc.services, logs, work: svc.steps, leases: svc.leases, logger: svc.services.logger },
      runner,
      running,
      start.index,
    );
    const report = { runId: start.runId, index: start.index };
    // The step's own lines (captured above) go first, written with the decision's in one insert.
    const decide = (doc: ExecutionDocument, now: Date): Decision | null => {
      const dec = result.ok
        ? decideStepDone(
            doc,
            { ...report, outcome: { ...result.outcome, effects: result.outcome.effects ?? [] } },
            plan,
            now,
          )
        : decideStepFailed(doc, { ...report, error: result.error, aborted: result.aborted }, now);
      if (dec?.start) throw errors.internal('A step run at once asked for another step');
      return dec ? { ...dec, logs: [...stepLines, ...dec.logs] } : null;
    };
    const now = new Date();
    try {
      const first = decide(running, now);
      const { doc, decision } = first
        ? await svc.store.commitOn(running, first, now, decide)
        : { doc: running, decision: null };
      return { doc, ...(decision?.error ? { error: decision.error } : {}) };
    } catch (err) {
      // The end could not be recorded as decided (a refusal on the fresh record, a lost store):
      // the stream still ends, with the record as it is now and why.
      const current = await svc.store.load(id).catch(() => null);
      if (!current) throw err;
      const code = isAppError(err) ? err.code : 'INTERNAL_ERROR';
      return {
        doc: current,
        error: { code, error: isAppError(err) ? err.message : 'The end of the step was not recorded' },
      };
    }
  };
  return { doc: running, finish };
}
