import {
  ACTION_RULES,
  advance,
  decideAction,
  type Decision,
  type StepPlan,
} from '../../../actors/executions/execution-machine';
import { decideStepDone, decideStepFailed } from '../../../actors/executions/execution-reports';
import { failureOf } from '../../../actors/executions/execution-views';
import {
  EXECUTION_ACTIONS,
  type ExecutionAction,
  type ExecutionDocument,
  type ExecutionStatus,
} from '../../../schemas/documents/execution';
import { isAppError } from '../../../schemas/errors';
import { executionDoc } from './support/execution-doc';

const plan: StepPlan = { totalSteps: 3, stepName: (i) => `s${i + 1}`, stepTimeoutMs: 1000 };
const now = new Date('2026-01-01T00:00:00Z');

const doc = (status: ExecutionStatus, extra: Partial<ExecutionDocument> = {}): ExecutionDocument =>
  executionDoc(status, now, extra);

const held = (previous: 'COMPLETED' | 'FAILED' | 'CANCELLED') =>
  doc('PAUSED', { hold: { previousStatus: previous, at: now } });

/** Every state (held ones as their own row) × every action: the expected result or 409. */
const TABLE: Array<[string, ExecutionDocument, Record<ExecutionAction, string | 409>]> = [
  ['QUEUED', doc('QUEUED'), { pause: 'PAUSED', resume: 409, retry: 409, cancel: 'CANCELLED', rollback: 409 }],
  [
    'RUNNING',
    doc('RUNNING'),
    { pause: 'PAUSED', resume: 409, retry: 409, cancel: 'CANCELLED', rollback: 409 },
  ],
  [
    'PAUSED',
    doc('PAUSED'),
    { pause: 409, resume: 'RUNNING', retry: 409, cancel: 'CANCELLED', rollback: 409 },
  ],
  [
    'COMPLETED',
    doc('COMPLETED'),
    { pause: 'PAUSED', resume: 409, retry: 409, cancel: 409, rollback: 'COMPLETED' },
  ],
  [
    'FAILED',
    doc('FAILED'),
    { pause: 'PAUSED', resume: 409, retry: 'RUNNING', cancel: 409, rollback: 'FAILED' },
  ],
  [
    'CANCELLED',
    doc('CANCELLED'),
    { pause: 'PAUSED', resume: 409, retry: 'RUNNING', cancel: 409, rollback: 'CANCELLED' },
  ],
  [
    'held COMPLETED',
    held('COMPLETED'),
    { pause: 409, resume: 'COMPLETED', retry: 409, cancel: 'CANCELLED', rollback: 409 },
  ],
  [
    'held FAILED',
    held('FAILED'),
    { pause: 409, resume: 'FAILED', retry: 409, cancel: 'CANCELLED', rollback: 409 },
  ],
];

describe('the execution state machine', () => {
  for (const [label, start, expected] of TABLE) {
    for (const action of EXECUTION_ACTIONS) {
      const want = expected[action];
      it(`${label} + ${action} → ${want}`, () => {
        let result: Decision | undefined;
        let error: unknown;
        try {
          result = decideAction(start, action, 'actions', plan, now);
        } catch (err) {
          error = err;
        }
        if (want === 409) {
          expect(isAppError(error) && error.code).toBe('CONFLICT');
          if (isAppError(error)) expect(error.details.status).toBe(start.status);
        } else {
          expect(error).toBeUndefined();
          expect(result!.draft.status).toBe(want);
          expect(result!.logs.length).toBeGreaterThan(0);
        }
      });
    }
  }

  it('documents the same legal moves it enforces', () => {
    expect(Object.keys(ACTION_RULES).sort()).toEqual([...EXECUTION_ACTIONS].sort());
    expect(ACTION_RULES.retry).toEqual({ FAILED: 'RUNNING', CANCELLED: 'RUNNING' });
  });

  it('cancels a hold like any pause: CANCELLED, the hold gone, nothing started', () => {
    const cancelled = decideAction(held('COMPLETED'), 'cancel', 'actions', plan, now);
    expect(cancelled.draft).toMatchObject({ status: 'CANCELLED', stopped: { action: 'cancel' } });
    expect(cancelled.draft.hold).toBeUndefined();
    expect(cancelled.start).toBeUndefined();
  });

  it('pauses a finished execution as a hold and releases it on resume', () => {
    const hold = decideAction(doc('FAILED'), 'pause', 'actions', plan, now).draft;
    expect(hold).toMatchObject({ status: 'PAUSED', hold: { previousStatus: 'FAILED' } });
    const back = decideAction(hold, 'resume', 'actions', plan, now);
    expect(back.draft.status).toBe('FAILED');
    expect(back.draft.hold).toBeUndefined();
    expect(back.start).toBeUndefined();
  });

  it('refuses every action while a rollback holds the lock', () => {
    const locked = doc('COMPLETED', {
      lock: { kind: 'rollback', at: now, until: new Date(now.getTime() + 1000) },
    });
    for (const action of EXECUTION_ACTIONS) {
      expect(() => decideAction(locked, action, 'actions', plan, now)).toThrow(/rollback is in progress/);
    }
  });

  it('resumes from the last good step and starts it', () => {
    const paused = doc('PAUSED', { progress: { completedSteps: 2, totalSteps: 3 } });
    const d = decideAction(paused, 'resume', 'recovery', plan, now);
    expect(d.start).toMatchObject({ index: 2 });
    expect(d.draft.current?.index).toBe(2);
    expect(d.notify?.type).toBe('recovery');
  });

  it('does not start a second step while one is in flight', () => {
    const current = { index: 1, runId: 'r1', startedAt: now, deadline: new Date(now.getTime() + 60_000) };
    const paused = doc('PAUSED', { current, progress: { completedSteps: 1, totalSteps: 3 } });
    const d = decideAction(paused, 'resume', 'actions', plan, now);
    expect(d.draft.status).toBe('RUNNING');
    expect(d.start).toBeUndefined();
  });

  it('records a step report, then stops at the boundary when paused meanwhile', () => {
    const running = decideAction(doc('PAUSED'), 'resume', 'actions', plan, now).draft;
    const { runId } = running.current!;
    const paused = { ...running, status: 'PAUSED' as const };
    const d = decideStepDone(paused, { runId, index: 0, outcome: { effects: [] } }, plan, now)!;
    expect(d.draft.progress.completedSteps).toBe(1);
    expect(d.draft.status).toBe('PAUSED');
    expect(d.start).toBeUndefined();
    // A duplicate (or stale) report changes nothing.
    expect(decideStepDone(d.draft, { runId, index: 0, outcome: { effects: [] } }, plan, now)).toBeNull();
  });

  it('fails a RUNNING execution at the failing step with what failed', () => {
    const dec: Decision = { draft: { ...doc('RUNNING') }, logs: [], changedSteps: [] };
    advance(dec, plan, now);
    const running = dec.draft;
    const failed = decideStepFailed(
      running,
      {
        runId: running.current!.runId,
        index: 0,
        error: { code: 'UNAVAILABLE', message: 'boom' },
        aborted: false,
      },
      now,
    )!;
    expect(failed.draft.status).toBe('FAILED');
    expect(failureOf(failed.draft)).toMatchObject({ whatFailed: 'Step 1 "s1"', code: 'UNAVAILABLE' });
    expect(failed.error).toBeDefined();
  });

  it('completes after the last step', () => {
    const last = doc('RUNNING', {
      progress: { completedSteps: 2, totalSteps: 3 },
      current: { index: 2, runId: 'r', startedAt: now, deadline: new Date(now.getTime() + 60_000) },
      steps: [0, 1, 2].map((index) => ({
        index,
        name: `s${index + 1}`,
        status: index < 2 ? ('COMPLETED' as const) : ('RUNNING' as const),
        attempts: 1,
        effects: [],
        startedAt: now,
      })),
    });
    const d = decideStepDone(
      last,
      { runId: 'r', index: 2, outcome: { effects: [], result: 42 } },
      plan,
      now,
    )!;
    expect(d.draft).toMatchObject({ status: 'COMPLETED', result: 42 });
    expect(d.notify?.type).toBe('task');
  });
});
