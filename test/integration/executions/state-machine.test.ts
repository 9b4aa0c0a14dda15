import { EXECUTION_ACTIONS } from '../../../schemas/documents/execution';
import { bearer, sleeps, useExecHarness } from './support/harness';

/**
 * Every action from every state, over HTTP: legal moves answer the new status, illegal ones 409
 * `{error, code: 'CONFLICT', status: <current>}` and change nothing.
 */

const s = useExecHarness({
  // Stops whatever still runs (the RUNNING row's executions) before the runtime stops.
  beforeStop: async ({ h, token }) => {
    if (token) await h.http().post('/api/panic').set(bearer(token)).send({});
  },
});

type Row = 'QUEUED' | 'RUNNING' | 'PAUSED' | 'COMPLETED' | 'FAILED' | 'CANCELLED' | 'HELD';

/** A fresh execution in the given state. */
async function inState(row: Row): Promise<string> {
  switch (row) {
    case 'QUEUED':
      return (await s.h.create(s.token, { title: row, start: false, steps: sleeps(1, 10) })).id;
    case 'RUNNING': {
      const { id } = await s.h.create(s.token, { title: row, steps: sleeps(50, 300) });
      await s.h.waitFor(s.token, id, (e) => e.status === 'RUNNING');
      return id;
    }
    case 'PAUSED': {
      const { id } = await s.h.create(s.token, { title: row, start: false, steps: sleeps(1, 10) });
      expect((await s.h.act(s.token, id, 'pause')).status).toBe(200);
      return id;
    }
    case 'CANCELLED': {
      const { id } = await s.h.create(s.token, { title: row, start: false, steps: sleeps(1, 10) });
      expect((await s.h.act(s.token, id, 'cancel')).status).toBe(200);
      return id;
    }
    case 'COMPLETED':
    case 'HELD': {
      const { id } = await s.h.create(s.token, {
        title: row,
        steps: [{ op: 'effect', kind: 'email', target: 'x' }],
      });
      await s.h.waitFor(s.token, id, (e) => e.status === 'COMPLETED');
      if (row === 'HELD') expect((await s.h.act(s.token, id, 'pause')).body.execution.hold).toBeTruthy();
      return id;
    }
    case 'FAILED': {
      const { id } = await s.h.create(s.token, { title: row, steps: [{ op: 'fail' }] });
      await s.h.waitFor(s.token, id, (e) => e.status === 'FAILED');
      return id;
    }
  }
}

const TABLE: Record<Row, Record<(typeof EXECUTION_ACTIONS)[number], string | 409>> = {
  QUEUED: { pause: 'PAUSED', resume: 409, retry: 409, cancel: 'CANCELLED', rollback: 409 },
  RUNNING: { pause: 'PAUSED', resume: 409, retry: 409, cancel: 'CANCELLED', rollback: 409 },
  PAUSED: { pause: 409, resume: 'RUNNING', retry: 409, cancel: 'CANCELLED', rollback: 409 },
  COMPLETED: { pause: 'PAUSED', resume: 409, retry: 409, cancel: 409, rollback: 'COMPLETED' },
  FAILED: { pause: 'PAUSED', resume: 409, retry: 'RUNNING', cancel: 409, rollback: 'FAILED' },
  CANCELLED: { pause: 'PAUSED', resume: 409, retry: 'RUNNING', cancel: 409, rollback: 'CANCELLED' },
  // PAUSED means PAUSED: a hold (paused after it finished) is cancelled like any pause.
  HELD: { pause: 409, resume: 'COMPLETED', retry: 409, cancel: 'CANCELLED', rollback: 409 },
};

describe.each(Object.keys(TABLE) as Row[])('from %s', (row) => {
  it('answers every action as the table says', async () => {
    const results = await Promise.all(
      EXECUTION_ACTIONS.map(async (action) => {
        const id = await inState(row);
        const before = (await s.h.get(s.token, id)).execution;
        const res = await s.h.act(s.token, id, action);
        return { action, id, before, res };
      }),
    );
    for (const { action, before, res, id } of results) {
      const want = TABLE[row][action];
      if (want === 409) {
        expect({ action, status: res.status }).toEqual({ action, status: 409 });
        expect(res.body).toMatchObject({ code: 'CONFLICT', status: before.status });
        expect(typeof res.body.error).toBe('string');
        const after = (await s.h.get(s.token, id)).execution;
        expect(after.status).toBe(before.status);
      } else {
        expect({ action, status: res.status, to: res.body.execution?.status }).toEqual({
          action,
          status: 200,
          to: want,
        });
        if (action === 'pause' && row !== 'QUEUED' && row !== 'RUNNING') {
          expect(res.body.execution.hold).toMatchObject({ previousStatus: row });
        }
        if (action === 'rollback') expect(res.body.rollback).toEqual(expect.objectContaining({ undone: [] }));
      }
    }
  });
});

it('refuses an unknown action (400) and an unknown execution (404)', async () => {
  const id = await inState('QUEUED');
  const bad = await s.h.act(s.token, id, 'explode');
  expect(bad.status).toBe(400);
  expect(bad.body.code).toBe('VALIDATION_ERROR');
  expect((await s.h.act(s.token, 'exe_doesnotexist000', 'pause')).status).toBe(404);
  expect((await s.h.act(s.token, 'nonsense', 'pause')).status).toBe(404);
  expect((await s.h.http().get('/api/executions/exe_doesnotexist000').set(bearer(s.token))).status).toBe(404);
  expect((await s.h.http().get('/api/executions')).status).toBe(401);
});

it('logs every action and notifies it', async () => {
  const id = await inState('QUEUED');
  await s.h.act(s.token, id, 'pause');
  await s.h.act(s.token, id, 'cancel');
  const { logs } = await s.h.get(s.token, id);
  expect(logs.map((l) => l.message)).toEqual([
    'Created (DEMO_STEPS, api)',
    'Paused before step 1',
    'Cancelled before step 1',
  ]);
  expect(logs.map((l) => l.seq)).toEqual([1, 2, 3]);
  const res = await s.h.http().get('/api/notifications?type=workflow').set(bearer(s.token));
  const mine = res.body.notifications.filter((n: { executionId: string }) => n.executionId === id);
  expect(mine.map((n: { title: string }) => n.title)).toEqual([
    'Execution cancelled: QUEUED',
    'Execution paused: QUEUED',
  ]);
});
