import type { ExecutionDocument, ExecutionLogDocument, StepRecord } from '../../schemas/documents/execution';
import type { ExecutionSummary, ExecutionView, LogView, StepView } from '../../schemas/http/executions';

/**
 * Public views of executions: public ids only (`exe_…`, workspace ids, `agentRef`), never the
 * runner's input, the internal run-as identity or the effects' undo data.
 */

const iso = (d: Date | undefined) => (d ? d.toISOString() : null);

/** Statuses `GET /api/recovery` lists: every PAUSED one (holds included), FAILED and CANCELLED. */
export const RECOVERABLE_STATUSES: readonly string[] = ['FAILED', 'PAUSED', 'CANCELLED'];

/**
 * What failed, as the recovery listing shows it (also derived for paused and cancelled ones). A
 * hold over a FAILED execution shows that failure; over a COMPLETED or CANCELLED one nothing
 * failed: `whatFailed` is null and `message` says why it is held.
 */
export function failureOf(doc: ExecutionDocument): ExecutionSummary['failure'] {
  if (doc.failure) return { ...doc.failure, at: doc.failure.at.toISOString() };
  if (doc.hold) {
    const message = `Held after it ended ${doc.hold.previousStatus}: resume, cancel or panic release it`;
    return { whatFailed: null, code: 'HELD', message, at: doc.hold.at.toISOString() };
  }
  const stop = doc.stopped;
  if (!stop || !['PAUSED', 'CANCELLED'].includes(doc.status)) return null;
  const before = stop.beforeStep ?? doc.progress.completedSteps;
  const step = doc.steps[before];
  const where =
    before === 0 && doc.progress.completedSteps === 0
      ? 'before its first step'
      : `before step ${before + 1}${step ? ` "${step.name}"` : ''}`;
  const what =
    stop.action === 'panic'
      ? `Stopped by panic ${where}`
      : stop.action === 'cancel'
        ? `Cancelled ${where}`
        : `Paused ${where}`;
  const code = stop.action === 'panic' ? 'PANIC' : stop.action === 'cancel' ? 'CANCELLED' : 'PAUSED';
  return { whatFailed: what, code, message: what, at: stop.at.toISOString() };
}

export function stepView(step: StepRecord): StepView {
  return {
    index: step.index,
    name: step.name,
    status: step.status,
    attempts: step.attempts,
    effects: step.effects.map((e) => ({ kind: e.kind, target: e.target, undone: e.undoneAt !== undefined })),
    ...(step.output === undefined ? {} : { output: step.output }),
    startedAt: step.startedAt.toISOString(),
    endedAt: iso(step.endedAt),
    error: step.error ?? null,
  };
}

export function executionSummary(doc: ExecutionDocument): ExecutionSummary {
  return {
    id: doc._id,
    type: doc.type,
    status: doc.status,
    sourceType: doc.sourceType,
    title: doc.title,
    workspaceId: doc.workspaceId,
    sessionId: doc.sessionId ?? null,
    workflowId: doc.workflowId ?? null,
    appSlug: doc.appSlug ?? null,
    skillSlug: doc.skillSlug ?? null,
    agentRef: doc.agentRef ?? null,
    progress: { ...doc.progress },
    hold: doc.hold ? { previousStatus: doc.hold.previousStatus, at: doc.hold.at.toISOString() } : null,
    failure: failureOf(doc),
    createdAt: doc.createdAt.toISOString(),
    updatedAt: doc.updatedAt.toISOString(),
  };
}

export function executionView(doc: ExecutionDocument): ExecutionView {
  return {
    ...executionSummary(doc),
    steps: doc.steps.map(stepView),
    stepInFlight: doc.current ? doc.current.index : null,
    lastRollback: doc.lastRollback ? { ...doc.lastRollback, at: doc.lastRollback.at.toISOString() } : null,
    ...(doc.result === undefined ? {} : { result: doc.result }),
    endedAt: iso(doc.endedAt),
  };
}

export const logView = (log: ExecutionLogDocument): LogView => ({
  seq: log.seq,
  level: log.level,
  message: log.message,
  at: log.at.toISOString(),
});
