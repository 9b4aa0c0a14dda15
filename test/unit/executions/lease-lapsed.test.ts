import { advance, decision, type StepPlan } from '../../../actors/executions/execution-machine';
import { decideLeaseLapsed } from '../../../actors/executions/execution-reports';
import type { ExecutionDocument, ExecutionStatus } from '../../../schemas/documents/execution';
import { executionDoc } from './support/execution-doc';

const now = new Date('2026-01-01T00:10:00Z');
const before = (ms: number) => new Date(now.getTime() - ms);
const after = (ms: number) => new Date(now.getTime() + ms);
const plan: StepPlan = { totalSteps: 3, stepName: (i) => `s${i + 1}`, stepTimeoutMs: 60_000, leaseMs: 5_000 };

/** An execution whose step 2 ("fetch") is in flight with the given lease. */
function inFlight(status: ExecutionStatus, leaseUntil?: Date): ExecutionDocument {
  const started = before(20_000);
  return executionDoc(status, started, {
    steps: [
      { index: 0, name: 's1', status: 'COMPLETED', attempts: 1, effects: [], startedAt: started },
      { index: 1, name: 'fetch', status: 'RUNNING', attempts: 1, effects: [], startedAt: started },
    ],
    progress: { completedSteps: 1, totalSteps: 3 },
    current: {
      index: 1,
      runId: 'r1',
      startedAt: started,
      deadline: after(600_000),
      leaseUntil,
      leaseNode: 'n1',
    },
    logSeq: 3,
    version: 4,
  });
}

describe('a lapsed step lease (the sweeper)', () => {
  it('fails a RUNNING execution at that step, with a recovery notification and an error event', () => {
    const dec = decideLeaseLapsed(inFlight('RUNNING', before(1)), now)!;
    expect(dec.draft.status).toBe('FAILED');
    expect(dec.draft.current).toBeUndefined();
    expect(dec.draft.progress.completedSteps).toBe(1);
    expect(dec.draft.failure).toMatchObject({
      whatFailed: 'Step 2 "fetch": the node running it stopped',
      code: 'UNAVAILABLE',
    });
    expect(dec.draft.steps[1]).toMatchObject({ status: 'FAILED', attempts: 1 });
    expect(dec.notify?.type).toBe('recovery');
    expect(dec.error?.code).toBe('UNAVAILABLE');
    expect(dec.logs[0]!.message).toBe(
      'Step 2 "fetch" failed: the node running it stopped (node n1); retry runs it again',
    );
  });

  it('does nothing while the lease holds, or without a lease', () => {
    expect(decideLeaseLapsed(inFlight('RUNNING', after(1)), now)).toBeNull();
    expect(decideLeaseLapsed(inFlight('RUNNING', undefined), now)).toBeNull();
  });

  it('records the lost step of a paused execution without changing its status', () => {
    const dec = decideLeaseLapsed(inFlight('PAUSED', before(1)), now)!;
    expect(dec.draft.status).toBe('PAUSED');
    expect(dec.draft.current).toBeUndefined();
    expect(dec.draft.steps[1]!.status).toBe('FAILED');
    expect(dec.notify).toBeUndefined();
  });

  it('advance() runs a step whose lease lapsed again at once (before its deadline), with a fresh lease', () => {
    const dec = decision(inFlight('RUNNING', before(1)));
    advance(dec, plan, now);
    expect(dec.start?.index).toBe(1);
    expect(dec.draft.steps[1]).toMatchObject({ status: 'RUNNING', attempts: 2 });
    expect(dec.draft.current?.leaseUntil).toEqual(after(5_000));

    const held = decision(inFlight('RUNNING', after(1)));
    advance(held, plan, now);
    expect(held.start).toBeUndefined(); // its report will advance it
  });
});
