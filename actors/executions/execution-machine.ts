import { randomText } from '../../src/store/random-ids';
import {
  EXECUTION_LIMITS,
  FINAL_STATUSES,
  type ExecutionAction,
  type ExecutionDocument,
  type ExecutionStatus,
  type FinalStatus,
  type LogLevel,
  type StepRecord,
} from '../../schemas/documents/execution';
import type { NotificationType } from '../../schemas/documents/notification';
import { errors, type AppError } from '../../schemas/errors';

/**
 * The state machine of executions, as pure decisions over a document (docs/executions.md has the
 * table). Each decision returns a changed copy (`draft`) plus the log lines, notification and
 * follow-up it implies; the actor writes it with one conditional write on `version`.
 */

export interface LogLine {
  level: LogLevel;
  message: string;
}

export interface Decision {
  draft: ExecutionDocument;
  logs: LogLine[];
  notify?: { type: NotificationType; title: string; body: string };
  /** A step to start once written (`execution.step`). */
  start?: { runId: string; index: number };
  /** Indices of steps whose record changed (for `step` events). */
  changedSteps: number[];
  /** Undo the effects once written (the lock is taken). */
  rollback?: boolean;
  /** An `error` event for watchers (a failure). */
  error?: { error: string; code: string };
}

/** What the runner of the execution's type says about its steps. */
export interface StepPlan {
  totalSteps: number | null;
  stepName(index: number): string;
  stepTimeoutMs: number;
  /** Lease of the node running a step (renewed while it runs; the sweeper fails a lapsed one). Absent: no lease. */
  leaseMs?: number;
}

/** How long a rollback may hold its lock before another one may take over (a node died), in ms. */
export const ROLLBACK_LOCK_MS = 5 * 60_000;
/** Time a step's report may take to come back after its deadline, in ms. */
const REPORT_SLACK_MS = 30_000;

/** The legal moves (documented and tested; `decideAction` enforces them). */
export const ACTION_RULES: Readonly<Record<ExecutionAction, Readonly<Record<string, string>>>> = {
  pause: {
    QUEUED: 'PAUSED',
    RUNNING: 'PAUSED',
    COMPLETED: 'PAUSED (hold)',
    FAILED: 'PAUSED (hold)',
    CANCELLED: 'PAUSED (hold)',
  },
  resume: { PAUSED: 'RUNNING', 'PAUSED (hold)': 'the held status' },
  retry: { FAILED: 'RUNNING', CANCELLED: 'RUNNING' },
  cancel: { QUEUED: 'CANCELLED', RUNNING: 'CANCELLED', PAUSED: 'CANCELLED', 'PAUSED (hold)': 'CANCELLED' },
  rollback: { COMPLETED: 'COMPLETED', FAILED: 'FAILED', CANCELLED: 'CANCELLED' },
};

export const isFinal = (status: ExecutionStatus): status is FinalStatus =>
  (FINAL_STATUSES as readonly string[]).includes(status);

/** 409 with the current status (and the hold, when there is one). */
export function illegalMove(doc: ExecutionDocument, action: string, why?: string): AppError {
  const state = doc.hold ? `held (${doc.hold.previousStatus})` : doc.status;
  return errors.conflict(`Cannot ${action} an execution that is ${state}${why ? `: ${why}` : ''}`, {
    status: doc.status,
    action,
    ...(doc.hold ? { hold: { previousStatus: doc.hold.previousStatus } } : {}),
  });
}

/** Removes keys whose value is undefined (the driver would store them as null). */
export function compact<T extends object>(value: T): T {
  const out = { ...value } as Record<string, unknown>;
  for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
  return out as T;
}

const draftOf = (doc: ExecutionDocument): ExecutionDocument => ({
  ...doc,
  steps: [...doc.steps],
  progress: { ...doc.progress },
});

/** A decision starting from `doc` (a copy to change). */
export const decision = (doc: ExecutionDocument): Decision => ({
  draft: draftOf(doc),
  logs: [],
  changedSteps: [],
});
const stepLabel = (step: StepRecord | undefined, index: number) =>
  `step ${index + 1}${step ? ` "${step.name}"` : ''}`;

/** The next step not yet completed: the in-flight one finishes first. */
const nextStepIndex = (doc: ExecutionDocument) =>
  doc.current ? doc.current.index + 1 : doc.progress.completedSteps;

/** COMPLETED, with its log line and notification. */
export function complete(dec: Decision, now: Date): void {
  const d = dec.draft;
  d.status = 'COMPLETED';
  d.endedAt = now;
  if (d.progress.totalSteps === null) d.progress.totalSteps = d.progress.completedSteps;
  dec.logs.push({ level: 'info', message: `Completed (${d.progress.completedSteps} steps)` });
  dec.notify = { type: 'task', title: `Execution completed: ${d.title}`, body: `${d.type} ${d._id}` };
}

/** Starts the next step of a RUNNING (or QUEUED) execution, or completes it. */
export function advance(dec: Decision, plan: StepPlan, now: Date): void {
  const d = dec.draft;
  if (d.status !== 'RUNNING' && d.status !== 'QUEUED') return;
  const leaseLapsed = d.current?.leaseUntil !== undefined && d.current.leaseUntil < now;
  if (d.current && d.current.deadline > now && !leaseLapsed) return; // its report will advance it
  if (d.current) {
    // Its node died (its lease lapsed) or it overran: record it as failed and run it again.
    const lost = d.current.index;
    const step = d.steps[lost];
    const error = leaseLapsed
      ? { code: 'UNAVAILABLE', message: 'The node running the step stopped (its lease lapsed)' }
      : { code: 'DEADLINE_EXCEEDED', message: 'The step did not report back before its deadline' };
    if (step) {
      d.steps[lost] = compact({ ...step, status: 'FAILED' as const, endedAt: now, error });
      dec.changedSteps.push(lost);
    }
    dec.logs.push({ level: 'warn', message: `${stepLabel(step, lost)} did not report back: it runs again` });
    d.current = undefined;
  }
  const index = d.progress.completedSteps;
  if ((plan.totalSteps !== null && index >= plan.totalSteps) || index >= EXECUTION_LIMITS.maxSteps) {
    complete(dec, now);
    return;
  }
  const previous = d.steps[index];
  const name = previous?.name ?? plan.stepName(index);
  const runId = randomText(9, 'base64url');
  d.steps[index] = {
    index,
    name,
    status: 'RUNNING',
    attempts: (previous?.attempts ?? 0) + 1,
    effects: previous?.effects ?? [],
    startedAt: now,
  };
  d.steps.length = index + 1;
  d.status = 'RUNNING';
  d.current = {
    index,
    runId,
    startedAt: now,
    deadline: new Date(now.getTime() + plan.stepTimeoutMs + REPORT_SLACK_MS),
    ...(plan.leaseMs ? { leaseUntil: new Date(now.getTime() + plan.leaseMs) } : {}),
  };
  dec.start = { runId, index };
  dec.changedSteps.push(index);
  dec.logs.push({ level: 'info', message: `Step ${index + 1} "${name}" started` });
}

/** An operator's action (`POST …/actions`, `POST /api/recovery`). Illegal → 409 with the status. */
export function decideAction(
  doc: ExecutionDocument,
  action: ExecutionAction,
  via: 'actions' | 'recovery',
  plan: StepPlan,
  now: Date,
): Decision {
  if (doc.lock && doc.lock.until > now) throw illegalMove(doc, action, 'a rollback is in progress');
  const dec = decision(doc);
  const d = dec.draft;
  const notify = (title: string, body: string) => {
    dec.notify = {
      type: via === 'recovery' ? 'recovery' : 'workflow',
      title: `${title}: ${doc.title}`,
      body,
    };
  };
  switch (action) {
    case 'pause': {
      if (doc.status === 'QUEUED' || doc.status === 'RUNNING') {
        d.status = 'PAUSED';
        d.stopped = { action: 'pause', at: now, beforeStep: nextStepIndex(doc) };
        const inFlight = doc.current
          ? `; ${stepLabel(doc.steps[doc.current.index], doc.current.index)} finishes first`
          : '';
        dec.logs.push({ level: 'info', message: `Paused before step ${nextStepIndex(doc) + 1}${inFlight}` });
      } else if (isFinal(doc.status) && !doc.hold) {
        d.status = 'PAUSED';
        d.hold = { previousStatus: doc.status, at: now };
        dec.logs.push({
          level: 'info',
          message: `Held (was ${doc.status}): retry and rollback wait for resume`,
        });
      } else throw illegalMove(doc, action);
      notify('Execution paused', `Status ${d.status}${d.hold ? ` (hold over ${doc.status})` : ''}`);
      return dec;
    }
    case 'resume': {
      if (doc.status !== 'PAUSED') throw illegalMove(doc, action);
      if (doc.hold) {
        d.status = doc.hold.previousStatus;
        d.hold = undefined;
        dec.logs.push({ level: 'info', message: `Hold released: back to ${d.status}` });
      } else {
        d.status = 'RUNNING';
        d.stopped = undefined;
        dec.logs.push({ level: 'info', message: `Resumed at step ${doc.progress.completedSteps + 1}` });
        advance(dec, plan, now);
      }
      notify('Execution resumed', `Status ${d.status}`);
      return dec;
    }
    case 'retry': {
      if (doc.status !== 'FAILED' && doc.status !== 'CANCELLED') throw illegalMove(doc, action);
      d.status = 'RUNNING';
      d.failure = undefined;
      d.stopped = undefined;
      d.endedAt = undefined;
      dec.logs.push({ level: 'info', message: `Retry from step ${doc.progress.completedSteps + 1}` });
      advance(dec, plan, now);
      notify('Execution retried', `From step ${doc.progress.completedSteps + 1}`);
      return dec;
    }
    case 'cancel': {
      // PAUSED means PAUSED: a hold (paused after it finished) is cancelled like any pause.
      const cancellable = doc.status === 'QUEUED' || doc.status === 'RUNNING' || doc.status === 'PAUSED';
      if (!cancellable) throw illegalMove(doc, action);
      d.status = 'CANCELLED';
      d.endedAt = now;
      d.hold = undefined;
      d.stopped = { action: 'cancel', at: now, beforeStep: nextStepIndex(doc) };
      const inFlight = doc.current
        ? `; ${stepLabel(doc.steps[doc.current.index], doc.current.index)} finishes first`
        : '';
      const held = doc.hold ? ` (held, was ${doc.hold.previousStatus})` : '';
      dec.logs.push({
        level: 'info',
        message: `Cancelled before step ${nextStepIndex(doc) + 1}${held}${inFlight}`,
      });
      notify('Execution cancelled', `Before step ${nextStepIndex(doc) + 1}${held}`);
      return dec;
    }
    case 'rollback': {
      if (!isFinal(doc.status)) throw illegalMove(doc, action, doc.hold ? 'resume it first' : undefined);
      const lapsed = doc.current?.leaseUntil !== undefined && doc.current.leaseUntil < now;
      if (doc.current && doc.current.deadline > now && !lapsed)
        throw illegalMove(doc, action, 'a step is still finishing');
      d.lock = { kind: 'rollback', at: now, until: new Date(now.getTime() + ROLLBACK_LOCK_MS) };
      dec.logs.push({ level: 'info', message: 'Rollback started' });
      dec.rollback = true;
      return dec;
    }
  }
}

/** `execution.run`: start (or go on with) the work of a QUEUED or RUNNING execution. */
export function decideRun(doc: ExecutionDocument, plan: StepPlan, now: Date): Decision | null {
  const dec = decision(doc);
  advance(dec, plan, now);
  return dec.logs.length > 0 ? dec : null;
}
