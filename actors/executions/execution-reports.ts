import type { z } from 'zod';
import type { ExecutionDocument } from '../../schemas/documents/execution';
import type { RollbackReport } from '../../schemas/http/executions';
import type {
  ExecutionStepDoneMessageSchema,
  ExecutionStepFailedMessageSchema,
} from '../../schemas/messages/executions';
import { advance, compact, complete, decision, type Decision, type StepPlan } from './execution-machine';

/**
 * Decisions on what the work reports back (a step done, failed, or not started) and on the end of
 * a rollback. Pure, like execution-machine.ts; the actor writes them.
 */

type StepDone = z.output<typeof ExecutionStepDoneMessageSchema>;
type StepFailed = z.output<typeof ExecutionStepFailedMessageSchema>;

const isReportFor = (doc: ExecutionDocument, runId: string, index: number) =>
  doc.current !== undefined && doc.current.runId === runId && doc.current.index === index;

/** A step's report of success: record it, then stop (paused, cancelled), complete, or go on. */
export function decideStepDone(
  doc: ExecutionDocument,
  msg: StepDone,
  plan: StepPlan,
  now: Date,
): Decision | null {
  if (!isReportFor(doc, msg.runId, msg.index)) return null; // a duplicate or a stale run
  const dec = decision(doc);
  const d = dec.draft;
  const i = msg.index;
  const step = d.steps[i]!;
  const { outcome } = msg;
  d.steps[i] = compact({
    ...step,
    name: outcome.name ?? step.name,
    status: 'COMPLETED' as const,
    effects: [...step.effects, ...outcome.effects.map((e) => compact({ ...e }))],
    output: outcome.output,
    endedAt: now,
    error: undefined,
  });
  dec.changedSteps.push(i);
  d.progress.completedSteps = i + 1;
  d.current = undefined;
  if (outcome.result !== undefined) d.result = outcome.result;
  const effects = outcome.effects.length;
  dec.logs.push({
    level: 'info',
    message: `Step ${i + 1} "${d.steps[i]!.name}" completed${effects ? ` (${effects} effect${effects > 1 ? 's' : ''})` : ''}`,
  });
  if (doc.status !== 'RUNNING') return dec; // paused or cancelled meanwhile: the boundary holds
  const last = outcome.last === true || (plan.totalSteps !== null && i + 1 >= plan.totalSteps);
  if (last) {
    if (plan.totalSteps === null) d.progress.totalSteps = i + 1;
    complete(dec, now);
  } else if (outcome.pause) {
    d.status = 'PAUSED';
    d.stopped = { action: 'pause', at: now, beforeStep: i + 1 };
    dec.logs.push({ level: 'info', message: `Paused: ${outcome.pause}` });
    dec.notify = { type: 'approval', title: `Waiting: ${d.title}`, body: outcome.pause };
  } else advance(dec, plan, now);
  return dec;
}

/** A step's report of failure (or abort). The execution FAILS if it was RUNNING. */
export function decideStepFailed(doc: ExecutionDocument, msg: StepFailed, now: Date): Decision | null {
  if (!isReportFor(doc, msg.runId, msg.index)) return null;
  const dec = decision(doc);
  const d = dec.draft;
  const i = msg.index;
  const step = d.steps[i]!;
  const name = msg.name ?? step.name;
  d.steps[i] = {
    ...step,
    name,
    status: msg.aborted ? 'CANCELLED' : 'FAILED',
    endedAt: now,
    error: msg.error,
  };
  dec.changedSteps.push(i);
  d.current = undefined;
  const label = `Step ${i + 1} "${name}"`;
  if (doc.status === 'RUNNING') {
    d.status = 'FAILED';
    d.endedAt = now;
    d.failure = { whatFailed: label, code: msg.error.code, message: msg.error.message, at: now };
    dec.logs.push({ level: 'error', message: `${label} failed: ${msg.error.message}` });
    dec.notify = {
      type: 'recovery',
      title: `Execution failed: ${d.title}`,
      body: `${label}: ${msg.error.message}`,
    };
    dec.error = { error: `${label} failed: ${msg.error.message}`, code: msg.error.code };
  } else {
    const what = msg.aborted ? 'was stopped' : `failed (${msg.error.message})`;
    dec.logs.push({ level: 'warn', message: `${label} ${what} while the execution was ${doc.status}` });
  }
  return dec;
}

/** `execution.step` arrived when the execution no longer runs (paused or cancelled in between). */
export function decideStepNotStarted(
  doc: ExecutionDocument,
  runId: string,
  index: number,
  now: Date,
): Decision | null {
  if (!isReportFor(doc, runId, index)) return null;
  const dec = decision(doc);
  const step = dec.draft.steps[index]!;
  // It never ran: this start does not count as an attempt.
  if (step.attempts <= 1) dec.draft.steps.length = index;
  else {
    dec.draft.steps[index] = {
      ...step,
      status: 'CANCELLED',
      attempts: step.attempts - 1,
      endedAt: now,
      error: { code: 'NOT_STARTED', message: `The execution was ${doc.status} before the step started` },
    };
    dec.changedSteps.push(index);
  }
  dec.draft.current = undefined;
  dec.logs.push({ level: 'info', message: `Step ${index + 1} "${step.name}" not started (${doc.status})` });
  return dec;
}

/** The end of a rollback: effects marked undone, the lock released, the report logged. */
export function decideRollbackDone(
  doc: ExecutionDocument,
  report: RollbackReport,
  undone: ReadonlyArray<readonly [number, number]>,
  via: 'actions' | 'recovery',
  now: Date,
): Decision {
  const dec = decision(doc);
  const d = dec.draft;
  for (const [stepIndex, effectIndex] of undone) {
    const step = d.steps[stepIndex];
    const effect = step?.effects[effectIndex];
    if (!step || !effect) continue;
    const effects = [...step.effects];
    effects[effectIndex] = { ...effect, undoneAt: now };
    d.steps[stepIndex] = { ...step, effects };
    if (!dec.changedSteps.includes(stepIndex)) dec.changedSteps.push(stepIndex);
  }
  d.lock = undefined;
  d.lastRollback = { at: now, undone: report.undone.length, notUndone: report.notUndone.length };
  const summary = `Rollback: ${report.undone.length} effect(s) undone, ${report.notUndone.length} not undone`;
  dec.logs.push({ level: report.notUndone.length ? 'warn' : 'info', message: summary });
  for (const item of report.notUndone.slice(0, 50)) {
    const e = item.effect;
    dec.logs.push({
      level: 'warn',
      message: `Not undone: ${e.kind} ${e.target} (step ${e.step + 1}): ${item.reason}`,
    });
  }
  dec.notify = {
    type: via === 'recovery' ? 'recovery' : 'workflow',
    title: `Execution rolled back: ${d.title}`,
    body: summary,
  };
  return dec;
}

/** What a lapsed lease says in `failure.whatFailed` and the step's error. */
export const NODE_STOPPED = 'the node running it stopped';

/**
 * The sweeper found the lease of the step in flight lapsed (its node died, or a message of the
 * step was lost). A RUNNING execution FAILS at that step (a retry runs it again, from the last
 * good step); a paused or cancelled one only gets the step recorded as failed, so that a resume,
 * a retry or a rollback need not wait for its deadline. Null when the lease was renewed meanwhile.
 */
export function decideLeaseLapsed(doc: ExecutionDocument, now: Date): Decision | null {
  const current = doc.current;
  if (!current?.leaseUntil || current.leaseUntil >= now) return null;
  const dec = decision(doc);
  const d = dec.draft;
  const i = current.index;
  const step = d.steps[i];
  const label = `Step ${i + 1}${step ? ` "${step.name}"` : ''}`;
  const error = {
    code: 'UNAVAILABLE',
    message: `${label} did not finish: ${NODE_STOPPED} (its lease lapsed)`,
  };
  if (step) {
    d.steps[i] = { ...step, status: 'FAILED', endedAt: now, error };
    dec.changedSteps.push(i);
  }
  d.current = undefined;
  const holder = current.leaseNode ? ` (node ${current.leaseNode})` : '';
  if (doc.status === 'RUNNING') {
    d.status = 'FAILED';
    d.endedAt = now;
    d.failure = {
      whatFailed: `${label}: ${NODE_STOPPED}`,
      code: error.code,
      message: error.message,
      at: now,
    };
    dec.logs.push({
      level: 'error',
      message: `${label} failed: ${NODE_STOPPED}${holder}; retry runs it again`,
    });
    dec.notify = {
      type: 'recovery',
      title: `Execution failed: ${d.title}`,
      body: `${label}: ${NODE_STOPPED}. Retry resumes from step ${i + 1}.`,
    };
    dec.error = { error: error.message, code: error.code };
  } else {
    dec.logs.push({
      level: 'warn',
      message: `${label} lost: ${NODE_STOPPED}${holder} while the execution was ${doc.status}`,
    });
  }
  return dec;
}
