import { startAtOnce } from '../../../actors/executions/execution-at-once';
import { ExecutionSweeper } from '../../../actors/executions/execution-leases';
import { createExecutionsService, newExecutionId } from '../../../actors/executions/executions';
import { executionsCollection } from '../../../actors/executions/executions.collection';
import { silentLogger } from '../../../src/logging/logger';
import { subjectOf } from '../../support/token-claims';
import { bearer, executionServicesOf, startExecHarness, type ExecHarness } from './support/harness';

jest.setTimeout(60_000);

/**
 * An execution run at once (actors/executions/execution-at-once.ts) is stored RUNNING, with the
 * lease of its step, before its first event; its step and end come after (`finish`). What happens
 * when something comes in between: the node stops (the lease lapses), or a panic.
 */
describe('an execution run at once, between its first event and its end', () => {
  let h: ExecHarness;
  let token: string;
  let accountId: string;

  beforeAll(async () => {
    h = await startExecHarness();
    token = await h.account();
    accountId = subjectOf(token, h.runtime.secrets.jwtSecret);
  });
  afterAll(async () => {
    await h?.stop();
  });

  const start = (svc: ReturnType<typeof createExecutionsService>, title: string) =>
    startAtOnce(
      svc,
      newExecutionId(),
      { subjectType: 'account', via: 'bearer', accountId },
      {
        type: 'DEMO_STEPS',
        title,
        sourceType: 'api',
        input: { steps: [{ op: 'incr', key: 'n' }] },
        start: true,
      },
    );

  it('is stored RUNNING with its lease and first lines; finish() records the end with the rest of its lines', async () => {
    const svc = createExecutionsService(executionServicesOf(h.runtime));
    const run = await start(svc, 'at once, whole');
    const id = run.doc._id;
    const stored = await h.get(token, id);
    expect(stored.execution.status).toBe('RUNNING');
    expect(stored.logs.map((l) => l.seq)).toEqual([1, 2]);
    const raw = await h.runtime.documents.repository(executionsCollection).findById(id);
    expect(raw!.current?.leaseUntil!.getTime()).toBeGreaterThan(Date.now());

    const { doc } = await run.finish();
    expect(doc.status).toBe('COMPLETED');
    const after = await h.get(token, id);
    expect(after.execution.status).toBe('COMPLETED');
    expect(after.logs.map((l) => l.seq)).toEqual([1, 2, 3, 4]);
    expect(after.logs.at(-1)!.message).toBe('Completed (1 steps)');
  });

  it('a node that stops after the first event: the lease lapses and the sweeper records the failure (never lost); a retry runs it', async () => {
    const svc = createExecutionsService(executionServicesOf(h.runtime));
    const run = await start(svc, 'at once, left behind');
    const id = run.doc._id;
    // `finish` never runs (the node is gone); its lease lapses.
    await h.runtime.documents
      .repository(executionsCollection)
      .raw.updateOne(
        { _id: id },
        { $set: { 'current.leaseUntil': new Date(Date.now() - 1000) }, $inc: { version: 1 } },
      );
    await new ExecutionSweeper(svc.store, h.runtime.system, silentLogger).sweep();
    const failed = await h.waitFor(token, id, (e) => e.status === 'FAILED');
    expect(JSON.stringify(failed.failure)).toMatch(/the node running it stopped/);
    await h.act(token, id, 'retry').then((r) => expect(r.status).toBe(200));
    await h.waitFor(token, id, (e) => e.status === 'COMPLETED');
  });

  it('a panic before the end: the end is not written over the cancellation, finish() reports CANCELLED', async () => {
    const svc = createExecutionsService(executionServicesOf(h.runtime));
    const run = await start(svc, 'at once, then panic');
    const id = run.doc._id;
    const panic = await h.http().post('/api/panic').set(bearer(token)).send({});
    expect(panic.status).toBe(200);
    try {
      expect(panic.body.stopped).toBeGreaterThanOrEqual(1);
      const { doc } = await run.finish();
      expect(doc.status).toBe('CANCELLED');
      const stored = await h.get(token, id);
      expect(stored.execution.status).toBe('CANCELLED');
      expect(stored.logs.some((l) => l.message === 'Completed (1 steps)')).toBe(false);
    } finally {
      await h.http().delete('/api/panic').set(bearer(token)).send({ workspaceId: panic.body.workspaceId });
    }
  });
});
