import { demoCounterKey } from '../../../actors/executions/demo-steps.runner';
import { newExecutionId } from '../../../actors/executions/executions.repo';
import { executionsCollection } from '../../../actors/executions/executions.collection';
import { cancelForPanic } from '../../../actors/executions/panic.actor';
import type { ExecutionDocument } from '../../../schemas/documents/execution';
import type { ExecutionEvent } from '../../../schemas/messages/executions';
import { bearer, sleep, startExecHarness, type ExecHarness } from './support/harness';

/** Panic: counts, lockdown, no step after it, open streams ended, notification, speed. */

let h: ExecHarness;

beforeAll(async () => {
  h = await startExecHarness();
});
afterAll(async () => {
  await h?.stop();
});

const incrs = (n: number) => Array.from({ length: n }, () => ({ op: 'incr', key: 'n' }));
const counter = async (id: string) => Number((await h.runtime.cache.get(demoCounterKey(id, 'n'))) ?? 0);
const docOf = async (id: string) =>
  (await h.runtime.documents.repository(executionsCollection).findById(id))!;

it('cancels and counts every PAUSED execution, one held after it finished included', async () => {
  const token = await h.account();
  const paused = await h.create(token, { title: 'paused', start: false, steps: incrs(1) });
  await h.act(token, paused.id, 'pause');
  const heldDone = await h.create(token, { title: 'held done', steps: incrs(1) });
  await h.waitFor(token, heldDone.id, (e) => e.status === 'COMPLETED');
  const heldFailed = await h.create(token, { title: 'held failed', steps: [{ op: 'fail' }] });
  await h.waitFor(token, heldFailed.id, (e) => e.status === 'FAILED');
  for (const e of [heldDone, heldFailed]) {
    expect((await h.act(token, e.id, 'pause')).body.execution.hold).toBeTruthy();
  }
  const completed = await h.create(token, { title: 'done, not held', steps: incrs(1) });
  await h.waitFor(token, completed.id, (e) => e.status === 'COMPLETED');

  const res = await h.http().post('/api/panic').set(bearer(token)).send({});
  expect(res.status).toBe(200);
  expect(res.body.stopped).toBe(3);
  expect(res.body.executions.map((e: { id: string }) => e.id).sort()).toEqual(
    [paused.id, heldDone.id, heldFailed.id].sort(),
  );
  for (const e of [paused, heldDone, heldFailed]) {
    const doc = await docOf(e.id);
    expect({ status: doc.status, hold: doc.hold }).toEqual({ status: 'CANCELLED', hold: undefined });
  }
  expect((await docOf(completed.id)).status).toBe('COMPLETED');
  await h.http().delete('/api/panic').set(bearer(token)).send({});
});

it('stops every active execution of the workspace, and no step runs after it', async () => {
  const token = await h.account();
  const running = await Promise.all(
    [1, 2, 3].map((n) =>
      h.create(token, { title: `writer ${n}`, input: { delayMs: 60, steps: incrs(100) } }),
    ),
  );
  const queued = await h.create(token, { title: 'queued', start: false, steps: incrs(1) });
  const paused = await h.create(token, { title: 'paused', start: false, steps: incrs(1) });
  await h.act(token, paused.id, 'pause');
  const completed = await h.create(token, { title: 'done', steps: incrs(1) });
  await h.waitFor(token, completed.id, (e) => e.status === 'COMPLETED');
  for (const e of running) await h.waitFor(token, e.id, (x) => x.progress.completedSteps >= 2);

  // A watcher of one of them: its stream must end with error then done.
  const doc = await docOf(running[0]!.id);
  const events: ExecutionEvent[] = [];
  const streamEnded = new Promise<void>((resolve, reject) =>
    h.runtime.system
      .stream<ExecutionEvent>(
        `execution:${doc._id}`,
        'execution.watch',
        {},
        {
          auth: { subjectType: 'account', accountId: doc.accountId, via: 'bearer' },
        },
      )
      .subscribe({ next: (e) => events.push(e), complete: resolve, error: reject }),
  );
  await sleep(50);

  const res = await h.http().post('/api/panic').set(bearer(token)).send({});
  const counts = await Promise.all(running.map((e) => counter(e.id)));
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({
    stopped: 5,
    lockdown: true,
    workspaceId: doc.workspaceId,
    sessionId: null,
  });
  const stoppedIds = res.body.executions.map((e: { id: string }) => e.id).sort();
  expect(stoppedIds).toEqual([...running.map((e) => e.id), queued.id, paused.id].sort());
  expect(res.body.executions.every((e: { status: string }) => e.status === 'CANCELLED')).toBe(true);

  // The work itself stopped: the counters do not move any more.
  await sleep(500);
  expect(await Promise.all(running.map((e) => counter(e.id)))).toEqual(counts);
  await streamEnded;
  expect(events.slice(-2)).toEqual([
    { type: 'error', executionId: doc._id, error: 'Stopped by panic', code: 'PANIC' },
    { type: 'done', executionId: doc._id, status: 'CANCELLED' },
  ]);

  for (const e of running) {
    const after = await h.waitFor(token, e.id, (x) => x.stepInFlight === null);
    expect(after.status).toBe('CANCELLED');
    // The step in flight (if any) was aborted: nothing past the progress completed.
    expect(after.steps.slice(after.progress.completedSteps).every((st) => st.status === 'CANCELLED')).toBe(
      true,
    );
    expect(after.steps.some((st) => st.status === 'RUNNING')).toBe(false);
    expect(after.progress.completedSteps).toBe(await counter(e.id));
    const { logs } = await h.get(token, e.id);
    const panicLines = logs.filter((l) => /^Cancelled by panic before step \d+$/.test(l.message));
    expect(panicLines).toHaveLength(1);
    const before = Number(panicLines[0]!.message.split(' ').at(-1));
    // The line names the first step not completed when the panic cancelled it. The step in flight
    // then may have finished just before its abort: it is recorded as completed after that line
    // (its work was done), and nothing after it.
    const completedLater = logs.filter((l) => l.seq > panicLines[0]!.seq && / completed$/.test(l.message));
    expect(completedLater.length).toBeLessThanOrEqual(1);
    expect(after.progress.completedSteps).toBe(before - 1 + completedLater.length);
  }
  expect((await h.get(token, completed.id)).execution.status).toBe('COMPLETED');
  const recovery = await h.http().get('/api/recovery').set(bearer(token));
  expect(recovery.body.executions.find((e: { id: string }) => e.id === queued.id).failure.whatFailed).toBe(
    'Stopped by panic before its first step',
  );

  const notes = await h.http().get('/api/notifications?type=panic').set(bearer(token));
  expect(notes.body.notifications).toHaveLength(1);
  expect(notes.body.notifications[0]).toMatchObject({
    type: 'panic',
    status: 'unread',
    title: 'Panic: 5 execution(s) stopped',
  });

  // Lockdown until lifted: the router refuses, nothing starts again.
  const mcp = () =>
    h
      .http()
      .post('/mcp')
      .set(bearer(token))
      .send({ tool: 'mem_get', input: { key: 'k' } });
  expect((await mcp()).status).toBe(403);
  expect((await h.http().get('/api/panic').set(bearer(token))).body).toMatchObject({
    lockdown: true,
    since: expect.any(String),
  });
  const create = await h
    .http()
    .post('/api/executions')
    .set(bearer(token))
    .send({ title: 'x', steps: incrs(1) });
  expect(create.status).toBe(403);
  expect((await h.act(token, queued.id, 'retry')).status).toBe(403);

  const lifted = await h.http().delete('/api/panic').set(bearer(token)).send({});
  expect(lifted.body).toEqual({ workspaceId: doc.workspaceId, lockdown: false, since: null });
  expect((await mcp()).status).toBe(200);
  expect((await h.act(token, queued.id, 'retry')).body.execution.status).toBe('RUNNING');
  await h.waitFor(token, queued.id, (e) => e.status === 'COMPLETED');
});

it('narrows to a session without locking the workspace down', async () => {
  const token = await h.account();
  const inSession = await h.create(token, { title: 's', start: false, sessionId: 'sess-A', steps: incrs(1) });
  const other = await h.create(token, { title: 'o', start: false, sessionId: 'sess-B', steps: incrs(1) });
  const res = await h.http().post('/api/panic').set(bearer(token)).send({ sessionId: 'sess-A' });
  expect(res.body).toMatchObject({ stopped: 1, lockdown: false, sessionId: 'sess-A' });
  expect(res.body.executions).toEqual([{ id: inSession.id, status: 'CANCELLED' }]);
  expect((await h.get(token, other.id)).execution.status).toBe('QUEUED');
  expect((await h.http().get('/api/panic').set(bearer(token))).body.lockdown).toBe(false);
});

// The 2-second figure is measured by `npm run bench:streams` (bench/results/streams.md), not here.
it('cancels 1,000 executions in one press', async () => {
  const token = await h.account();
  const seed = await h.create(token, { title: 'seed', start: false, steps: incrs(1) });
  const base = await docOf(seed.id);
  const now = new Date();
  const docs: ExecutionDocument[] = Array.from({ length: 999 }, (_, i) => ({
    ...base,
    _id: newExecutionId(),
    title: `bulk ${i}`,
    createdAt: now,
    updatedAt: now,
  }));
  await h.runtime.documents.repository(executionsCollection).raw.insertMany(docs);
  const res = await h.http().post('/api/panic').set(bearer(token)).send({});
  expect(res.status).toBe(200);
  expect(res.body.stopped).toBe(1000);
  const left = await h.http().get('/api/executions?status=QUEUED,RUNNING,PAUSED').set(bearer(token));
  expect(left.body.executions).toEqual([]);
  const { logs } = await h.get(token, docs[500]!._id);
  expect(logs.at(-1)?.message).toBe('Cancelled by panic before step 1');
  await h.http().delete('/api/panic').set(bearer(token)).send({});
});

describe('the bulk cancel of a panic, when executions move while it runs', () => {
  type Raw = ReturnType<typeof rawExecutions>;
  const rawExecutions = () => h.runtime.documents.repository(executionsCollection).raw;

  /** The collection, where someone appends a log line to `id` right before each of the first `times` bulk writes. */
  const racing = (raw: Raw, id: string, times: number): Raw => {
    let left = times;
    return new Proxy(raw, {
      get(target, prop) {
        if (prop === 'bulkWrite') {
          return async (...args: Parameters<Raw['bulkWrite']>) => {
            if (left-- > 0) await target.updateOne({ _id: id }, { $inc: { logSeq: 1 } });
            return target.bulkWrite(...args);
          };
        }
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  };

  it.each([
    ['read again and written', 1],
    ['cancelled by the pipeline update', 10],
  ])('an execution whose log counter moved is %s', async (_how, moves) => {
    const token = await h.account();
    const created = await Promise.all(
      [1, 2, 3].map((n) => h.create(token, { title: `q${n}`, start: false, steps: incrs(1) })),
    );
    const ids = created.map((e) => e.id);
    const read = await Promise.all(ids.map(docOf));
    const panicId = `test-${moves}`;
    const stopped = await cancelForPanic(racing(rawExecutions(), ids[0]!, moves), read, panicId, new Date());

    expect(stopped.map((s) => s._id).sort()).toEqual([...ids].sort());
    for (const [i, id] of ids.entries()) {
      const doc = await docOf(id);
      expect(doc.status).toBe('CANCELLED');
      expect(doc.stopped).toMatchObject({ action: 'panic', panicId, logSeq: doc.logSeq });
      // Each reserved exactly one number after what others took: no line shares it.
      const moved = i === 0 ? Math.min(moves, 3) : 0;
      expect(doc.logSeq).toBe(read[i]!.logSeq + moved + 1);
      expect(stopped.find((s) => s._id === id)!.stopped!.logSeq).toBe(doc.logSeq);
    }
  });
});
