import { eventually } from '../../support/async';
import { demoCounterKey } from '../../../actors/executions/demo-steps.runner';
import { executionsCollection } from '../../../actors/executions/executions.collection';
import { FileStore } from '../../../actors/files/file-store';
import type { ExecutionEvent } from '../../../schemas/messages/executions';
import { bearer, sleep, useExecHarness } from './support/harness';

/** The work of executions: step boundaries, pause/resume, retry, cancel, rollback, holds, events. */

const s = useExecHarness();

const counter = async (id: string, key = 'n') =>
  Number((await s.h.runtime.cache.get(demoCounterKey(id, key))) ?? 0);
const incrs = (n: number, key = 'n') => Array.from({ length: n }, () => ({ op: 'incr', key }));
const mcp = (tool: string, input: Record<string, unknown>) =>
  s.h.http().post('/mcp').set(bearer(s.token)).send({ tool, input });

it('pauses at a step boundary, keeps its progress, and resumes without running a step again', async () => {
  const { id } = await s.h.create(s.token, { title: 'pausable', input: { delayMs: 150, steps: incrs(5) } });
  await s.h.waitFor(s.token, id, (e) => e.progress.completedSteps >= 1);
  const paused = await s.h.act(s.token, id, 'pause');
  expect(paused.status).toBe(200);
  expect(paused.body.execution.status).toBe('PAUSED');
  // The step in flight finishes; then nothing more runs.
  const stopped = await s.h.waitFor(s.token, id, (e) => e.stepInFlight === null);
  const done = stopped.progress.completedSteps;
  expect(done).toBeGreaterThanOrEqual(1);
  expect(done).toBeLessThan(5);
  expect(await counter(id)).toBe(done);
  await sleep(400);
  expect(await counter(id)).toBe(done);
  expect((await s.h.get(s.token, id)).execution.progress.completedSteps).toBe(done);

  const resumed = await s.h.act(s.token, id, 'resume');
  expect(resumed.body.execution.status).toBe('RUNNING');
  const end = await s.h.waitFor(s.token, id, (e) => e.status === 'COMPLETED');
  expect(await counter(id)).toBe(5);
  expect(end.steps.map((s) => [s.status, s.attempts])).toEqual(Array(5).fill(['COMPLETED', 1]));
});

it('fails at a step with what failed, and a retry continues from the last good step', async () => {
  const steps = [...incrs(2), { op: 'fail', name: 'flaky', message: 'upstream down' }, ...incrs(1)];
  const { id } = await s.h.create(s.token, { title: 'retry me', input: { steps } });
  const failed = await s.h.waitFor(s.token, id, (e) => e.status === 'FAILED');
  expect(failed.progress.completedSteps).toBe(2);
  expect(failed.failure).toMatchObject({
    whatFailed: 'Step 3 "flaky"',
    code: 'UNAVAILABLE',
    message: 'upstream down',
  });
  expect(await counter(id)).toBe(2);

  const retried = await s.h.act(s.token, id, 'retry');
  expect(retried.body.execution).toMatchObject({ status: 'RUNNING', failure: null });
  const end = await s.h.waitFor(s.token, id, (e) => e.status === 'COMPLETED');
  expect(await counter(id)).toBe(3); // steps 1 and 2 did not run again
  expect(end.steps.map((s) => s.attempts)).toEqual([1, 1, 2, 1]);
  // The last log line is written after the status it reports: wait for it, then check them all.
  const { logs } = await eventually(async () => {
    const got = await s.h.get(s.token, id);
    return got.logs.some((l) => l.message === 'Completed (4 steps)') ? got : undefined;
  });
  expect(logs.map((l) => l.message)).toEqual(
    expect.arrayContaining([
      'Step 3 "flaky" failed: upstream down',
      'Retry from step 3',
      'Completed (4 steps)',
    ]),
  );
});

it('cancels for good: the step in flight finishes, no other runs, resume is refused', async () => {
  const { id } = await s.h.create(s.token, { title: 'cancel me', input: { delayMs: 100, steps: incrs(10) } });
  await s.h.waitFor(s.token, id, (e) => e.progress.completedSteps >= 1);
  expect((await s.h.act(s.token, id, 'cancel')).body.execution.status).toBe('CANCELLED');
  const after = await s.h.waitFor(s.token, id, (e) => e.stepInFlight === null);
  const n = after.progress.completedSteps;
  await sleep(300);
  expect(await counter(id)).toBe(n);
  const resume = await s.h.act(s.token, id, 'resume');
  expect(resume.status).toBe(409);
  expect(resume.body).toMatchObject({ code: 'CONFLICT', status: 'CANCELLED' });
});

it('rolls back file writes and mem_set, newest first, and says exactly what it could not undo', async () => {
  expect((await mcp('mem_set', { key: 'rb/k', value: 'old' })).status).toBe(200);
  const steps = [
    { op: 'fs_write', path: 'rb/a.txt', content: 'v1' },
    { op: 'mem_set', key: 'rb/k', value: { n: 1 } },
    { op: 'effect', kind: 'email_sent', target: 'ops@example.com' },
    { op: 'fs_write', path: 'rb/a.txt', content: 'v2' },
    { op: 'mem_set', key: 'rb/fresh', value: 1 },
  ];
  const { id } = await s.h.create(s.token, { title: 'rollback me', input: { steps } });
  await s.h.waitFor(s.token, id, (e) => e.status === 'COMPLETED');
  const doc = (await s.h.runtime.documents.repository(executionsCollection).findById(id))!;
  const files = new FileStore(s.h.runtime.documents);
  const scope = { accountId: doc.accountId, workspaceId: doc.workspaceId };
  expect((await files.read(scope, { path: 'rb/a.txt', encoding: 'utf8' })).data).toBe('v2');
  expect((await mcp('mem_get', { key: 'rb/k' })).body.result).toEqual({ value: { n: 1 }, found: true });

  const res = await s.h.act(s.token, id, 'rollback');
  expect(res.status).toBe(200);
  expect(res.body.execution.status).toBe('COMPLETED');
  expect(res.body.rollback).toEqual({
    undone: [
      { step: 4, kind: 'mem_set', target: 'rb/fresh' },
      { step: 3, kind: 'file', target: 'rb/a.txt' },
      { step: 1, kind: 'mem_set', target: 'rb/k' },
      { step: 0, kind: 'file', target: 'rb/a.txt' },
    ],
    notUndone: [
      {
        effect: { step: 2, kind: 'email_sent', target: 'ops@example.com' },
        reason: 'no undoer for effect kind "email_sent"',
      },
    ],
  });
  await expect(files.stat(scope, { path: 'rb/a.txt' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  expect((await mcp('mem_get', { key: 'rb/k' })).body.result).toEqual({ value: 'old', found: true });
  expect((await mcp('mem_get', { key: 'rb/fresh' })).body.result).toEqual({ value: null, found: false });
  expect(res.body.execution.lastRollback).toMatchObject({ undone: 4, notUndone: 1 });
  expect(res.body.execution.steps[1].effects).toEqual([{ kind: 'mem_set', target: 'rb/k', undone: true }]);
  // Nothing internal in the record: no undo data, no internal ids.
  expect(JSON.stringify(res.body)).not.toMatch(/acc_|agt_|"undo"/);

  // A second rollback undoes nothing more and reports the same effect again.
  const again = await s.h.act(s.token, id, 'rollback');
  expect(again.body.rollback).toEqual({
    undone: [],
    notUndone: [expect.objectContaining({ reason: expect.any(String) })],
  });
});

it('does not undo a key changed after the step wrote it', async () => {
  const { id } = await s.h.create(s.token, {
    title: 'mem race',
    input: { steps: [{ op: 'mem_set', key: 'race/k', value: 1 }] },
  });
  await s.h.waitFor(s.token, id, (e) => e.status === 'COMPLETED');
  await mcp('mem_set', { key: 'race/k', value: 2 });
  const res = await s.h.act(s.token, id, 'rollback');
  expect(res.body.rollback.notUndone).toEqual([
    {
      effect: { step: 0, kind: 'mem_set', target: 'race/k' },
      reason: 'the key was changed after the step wrote it',
    },
  ]);
  expect((await mcp('mem_get', { key: 'race/k' })).body.result.value).toBe(2);
});

it('cancels a held execution (paused after it finished): PAUSED means PAUSED', async () => {
  const { id } = await s.h.create(s.token, {
    title: 'held then cancelled',
    input: { steps: [{ op: 'effect', kind: 'email', target: 'x' }] },
  });
  await s.h.waitFor(s.token, id, (e) => e.status === 'COMPLETED');
  expect((await s.h.act(s.token, id, 'pause')).body.execution.hold).toMatchObject({
    previousStatus: 'COMPLETED',
  });
  const res = await s.h.act(s.token, id, 'cancel');
  expect(res.status).toBe(200);
  expect(res.body.execution).toMatchObject({ status: 'CANCELLED', hold: null });
  const { logs } = await s.h.get(s.token, id);
  expect(logs.at(-1)?.message).toBe('Cancelled before step 2 (held, was COMPLETED)');
  // Cancelled like any other: its effects can be rolled back.
  const rollback = await s.h.act(s.token, id, 'rollback');
  expect(rollback.status).toBe(200);
  expect(rollback.body.execution.status).toBe('CANCELLED');
});

it('holds a finished execution: retry and rollback wait until resume restores its status', async () => {
  const { id } = await s.h.create(s.token, { title: 'hold', input: { steps: [{ op: 'fail' }] } });
  await s.h.waitFor(s.token, id, (e) => e.status === 'FAILED');
  const hold = await s.h.act(s.token, id, 'pause');
  expect(hold.body.execution).toMatchObject({ status: 'PAUSED', hold: { previousStatus: 'FAILED' } });
  for (const action of ['retry', 'rollback', 'pause']) {
    const res = await s.h.act(s.token, id, action);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      code: 'CONFLICT',
      status: 'PAUSED',
      hold: { previousStatus: 'FAILED' },
    });
  }
  const back = await s.h.act(s.token, id, 'resume');
  expect(back.body.execution).toMatchObject({ status: 'FAILED', hold: null });
  expect((await s.h.act(s.token, id, 'retry')).body.execution.status).toBe('RUNNING');
  await s.h.waitFor(s.token, id, (e) => e.status === 'COMPLETED');
});

it('streams events of a run through execution.watch until done', async () => {
  const { id } = await s.h.create(s.token, { title: 'watched', start: false, steps: incrs(2) });
  const principal = await principalOf(id);
  const events: ExecutionEvent[] = [];
  const ended = new Promise<void>((resolve, reject) =>
    s.h.runtime.system
      .stream<ExecutionEvent>(`execution:${id}`, 'execution.watch', {}, { auth: principal })
      .subscribe({ next: (e) => events.push(e), complete: resolve, error: reject }),
  );
  await sleep(100);
  await s.h.act(s.token, id, 'pause');
  await s.h.act(s.token, id, 'resume');
  await ended;
  expect(events[0]).toMatchObject({ type: 'execution', execution: { id, status: 'QUEUED' } });
  expect(events.at(-1)).toEqual({ type: 'done', executionId: id, status: 'COMPLETED' });
  const types = new Set(events.map((e) => e.type));
  expect([...types].sort()).toEqual(['done', 'execution', 'log', 'step']);
  const seqs = events.flatMap((e) => (e.type === 'log' ? [e.log.seq] : []));
  expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
});

/** The principal the front door would put in envelopes for this account (internal, test only). */
async function principalOf(id: string) {
  const doc = (await s.h.runtime.documents.repository(executionsCollection).findById(id))!;
  return { subjectType: 'account' as const, accountId: doc.accountId, via: 'bearer' as const };
}
