import type { z } from 'zod';
import type { Principal } from '../../schemas/auth';
import type { ExecutionDocument } from '../../schemas/documents/execution';
import { errors } from '../../schemas/errors';
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

/**
 * An execution whose only step needs nothing but this node (an intent answered by a read-only
 * command that calls no tool, or the help text), run here, in the request, and recorded finished
 * in one go: the record as the state machine leaves it (the same decisions as a run through the
 * actor: started, step reported, completed or failed, with the same log lines and notification),
 * written as one insert of the execution, one of its log lines and one of its notification, each
 * coalesced with those of other requests of the same moment (`InsertBatcher`). Nothing is
 * broadcast: nobody can watch an execution before it exists, and a watcher that comes later reads
 * it finished. Resolves once all of it is stored (an error before that: nothing is acknowledged).
 *
 * The step is tracked like any step of this node (panic aborts it). Only for a step that ends in
 * one go: one that asks for more steps is refused (INTERNAL_ERROR), so choose its runs with care.
 */
export async function runAtOnce(
  svc: ExecutionsService,
  id: string,
  caller: Principal & { accountId: string },
  body: CreateBody,
): Promise<{ doc: ExecutionDocument; error?: { error: string; code: string } }> {
  const queued = await draftExecutionDocument(svc, id, caller, body);
  const runner = svc.runners.get(queued.type)!;
  const plan = stepPlanOf(svc, queued);
  const lines: LogLine[] = [{ level: 'info', message: `Created (${body.type}, ${body.sourceType})` }];
  const started = new Date();
  const run = decideRun(queued, plan, started);
  const running = applied(queued, run, lines, started);
  const start = run?.start;
  if (!start) throw errors.internal('The execution did not start');
  const stepLines: LogLine[] = [];
  const logs = {
    append: (_id: string, more: LogLine[]) => {
      stepLines.push(...more);
      return Promise.resolve([]);
    },
  };
  const result = await runStep(
    { services: svc.services, logs, work: svc.steps, logger: svc.services.logger },
    runner,
    running,
    start.index,
  );
  lines.push(...stepLines);
  const now = new Date();
  const report = { runId: start.runId, index: start.index };
  const dec = result.ok
    ? decideStepDone(
        running,
        { ...report, outcome: { ...result.outcome, effects: result.outcome.effects ?? [] } },
        plan,
        now,
      )
    : decideStepFailed(running, { ...report, error: result.error, aborted: result.aborted }, now);
  if (dec?.start) throw errors.internal('A step run at once asked for another step');
  const doc = applied(running, dec, lines, now);
  const writes: Array<Promise<unknown>> = [
    svc.store.insertIfAbsent(doc).then((inserted) => {
      if (!inserted) throw errors.conflict('This execution id is taken');
    }),
    svc.logs.write(id, 1, lines, now),
  ];
  const notify = dec?.notify;
  if (notify) {
    writes.push(
      svc.notifications.create(
        doc.accountId,
        { ...notify, executionId: id, workspaceId: doc.workspaceId },
        now,
      ),
    );
  }
  await Promise.all(writes);
  return { doc, ...(dec?.error ? { error: dec.error } : {}) };
}
