import { bearer, startExecHarness, type ExecHarness } from './support/harness';

/** Listings and filters, recovery, notifications, and tenant isolation. */

let h: ExecHarness;
let a: string;
let b: string;
const ids: Record<string, string> = {};
let workspaceA: string;

const list = (token: string, query = '') => h.http().get(`/api/executions${query}`).set(bearer(token));
const idsOf = (res: { body: { executions: Array<{ id: string }> } }) => res.body.executions.map((e) => e.id);

beforeAll(async () => {
  h = await startExecHarness();
  [a, b] = await Promise.all([h.account(), h.account()]);
  const base = { start: false, steps: [{ op: 'sleep', ms: 1 }] };
  const specs: Array<[string, Record<string, unknown>]> = [
    ['chat', { title: 'Summarise the Quarterly report', sourceType: 'super_agent', sessionId: 'sess-1' }],
    ['flow', { title: 'Nightly sync', workflowId: 'wf-9', sourceType: 'workflow' }],
    ['app', { title: 'App install', appSlug: 'notes', sessionId: 'sess-1' }],
    ['skill', { title: 'Skill run', skillSlug: 'pdf' }],
    ['plain1', { title: 'quarterly cleanup' }],
    ['plain2', { title: 'Another one' }],
  ];
  for (const [name, body] of specs) {
    const e = await h.create(a, { ...base, ...body });
    ids[name] = e.id;
    workspaceA = e.workspaceId as string;
  }
  await h.act(a, ids.plain2!, 'cancel');
  const failed = await h.create(a, {
    title: 'Broken',
    steps: [{ op: 'fail', name: 'call upstream', message: 'timeout' }],
  });
  ids.failed = failed.id;
  await h.waitFor(a, failed.id, (e) => e.status === 'FAILED');
  const paused = await h.create(a, { ...base, title: 'Waiting' });
  ids.paused = paused.id;
  await h.act(a, paused.id, 'pause');
  const done = await h.create(a, { title: 'Done', steps: [{ op: 'sleep', ms: 1 }] });
  ids.done = done.id;
  await h.waitFor(a, done.id, (e) => e.status === 'COMPLETED');
  const held = await h.create(a, { title: 'Held', steps: [{ op: 'fail' }] });
  ids.held = held.id;
  await h.waitFor(a, held.id, (e) => e.status === 'FAILED');
  await h.act(a, held.id, 'pause');
  ids.b = (await h.create(b, { ...base, title: 'Quarterly of B' })).id;
});
afterAll(async () => {
  await h?.stop();
});

describe('GET /api/executions', () => {
  it('lists the account’s executions newest first, with the spec’s fields', async () => {
    const res = await list(a);
    expect(res.status).toBe(200);
    expect(res.body.executions).toHaveLength(10);
    expect(res.body.nextCursor).toBeNull();
    expect(idsOf(res)[0]).toBe(ids.held);
    expect(res.body.executions.at(-1).id).toBe(ids.chat);
    expect(res.body.executions.at(-1)).toMatchObject({
      id: ids.chat,
      type: 'DEMO_STEPS',
      status: 'QUEUED',
      sourceType: 'super_agent',
      title: 'Summarise the Quarterly report',
      sessionId: 'sess-1',
      workspaceId: workspaceA,
    });
    expect(idsOf(res)).not.toContain(ids.b);
  });

  it.each([
    ['?status=CANCELLED', ['plain2']],
    ['?status=failed,cancelled', ['plain2', 'failed']],
    ['?sourceType=workflow', ['flow']],
    ['?workflowId=wf-9', ['flow']],
    ['?appSlug=notes', ['app']],
    ['?skillSlug=pdf', ['skill']],
    ['?sessionId=sess-1', ['chat', 'app']],
    ['?title=QUARTERLY', ['chat', 'plain1']],
    ['?title=quarterly&sessionId=sess-1', ['chat']],
    ['?title=.*', []],
    ['?type=demo_steps&status=PAUSED', ['paused', 'held']],
    ['?type=CHAT_EXECUTION', []],
  ])('filters %s', async (query, names) => {
    const res = await list(a, query);
    expect(res.status).toBe(200);
    expect(idsOf(res).sort()).toEqual(names.map((n) => ids[n]).sort());
  });

  it('filters by workspace (another one lists nothing)', async () => {
    expect(idsOf(await list(a, `?workspaceId=${workspaceA}`))).toHaveLength(10);
    expect(idsOf(await list(a, '?workspaceId=ws_other'))).toEqual([]);
  });

  it('pages with an opaque cursor, without repeats or gaps', async () => {
    const all = idsOf(await list(a));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(a, `?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...idsOf(res));
      cursor = res.body.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(4);
    expect(seen).toEqual(all);
  });

  it.each(['?limit=0', '?limit=201', '?cursor=garbage', '?status=DONE', '?type=bad type'])(
    'refuses %s with 400',
    async (query) => {
      const res = await list(a, query);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    },
  );

  it('answers {execution, logs} for one execution', async () => {
    const res = await h.http().get(`/api/executions/${ids.failed}`).set(bearer(a));
    expect(res.status).toBe(200);
    expect(res.body.execution).toMatchObject({ id: ids.failed, status: 'FAILED' });
    expect(res.body.logs.map((l: { level: string }) => l.level)).toContain('error');
    expect(res.body.logs[0]).toEqual({
      seq: 1,
      level: 'info',
      message: expect.any(String),
      at: expect.any(String),
    });
  });

  it('refuses bad creations', async () => {
    const unknown = await h.http().post('/api/executions').set(bearer(a)).send({ type: 'NOPE', title: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.types).toContain('DEMO_STEPS');
    const badInput = await h
      .http()
      .post('/api/executions')
      .set(bearer(a))
      .send({ title: 'x', steps: [{ op: 'dance' }] });
    expect(badInput.status).toBe(400);
    const noTitle = await h.http().post('/api/executions').set(bearer(a)).send({ steps: [] });
    expect(noTitle.status).toBe(400);
    const foreign = await h
      .http()
      .post('/api/executions')
      .set(bearer(a))
      .send({ title: 'x', workspaceId: 'ws_nope', steps: [{ op: 'sleep', ms: 1 }] });
    expect(foreign.status).toBe(404);
  });
});

describe('recovery', () => {
  it('lists FAILED, PAUSED (holds included) and CANCELLED executions with what failed (upper-case statuses)', async () => {
    const res = await h.http().get('/api/recovery').set(bearer(a));
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(res.body.executions.map((e: { id: string }) => [e.id, e]));
    expect(Object.keys(byId).sort()).toEqual([ids.failed, ids.paused, ids.plain2, ids.held].sort());
    // A hold over a failed execution: PAUSED, listed with the failure it was held over.
    expect(byId[ids.held!]).toMatchObject({
      status: 'PAUSED',
      hold: { previousStatus: 'FAILED' },
      failure: { whatFailed: expect.stringMatching(/^Step 1/), code: expect.any(String) },
    });
    expect(byId[ids.failed!]).toMatchObject({
      status: 'FAILED',
      failure: { whatFailed: 'Step 1 "call upstream"', code: 'UNAVAILABLE', message: 'timeout' },
    });
    expect(byId[ids.paused!].failure.whatFailed).toBe('Paused before its first step');
    expect(byId[ids.plain2!].failure).toMatchObject({
      whatFailed: 'Cancelled before its first step',
      code: 'CANCELLED',
    });
    expect((await h.http().get('/api/recovery?status=FAILED').set(bearer(a))).body.executions).toHaveLength(
      1,
    );
  });

  it('lists a hold over a completed execution (whatFailed null) and cancels it through POST /api/recovery', async () => {
    const c = await h.account();
    const e = await h.create(c, { title: 'Held done', steps: [{ op: 'sleep', ms: 1 }] });
    await h.waitFor(c, e.id, (x) => x.status === 'COMPLETED');
    expect((await h.act(c, e.id, 'pause')).body.execution.hold).toMatchObject({
      previousStatus: 'COMPLETED',
    });
    const listed = await h.http().get('/api/recovery').set(bearer(c));
    expect(listed.body.executions).toEqual([
      expect.objectContaining({
        id: e.id,
        status: 'PAUSED',
        failure: {
          whatFailed: null,
          code: 'HELD',
          message: expect.stringContaining('COMPLETED'),
          at: expect.any(String),
        },
      }),
    ]);
    const cancel = await h
      .http()
      .post('/api/recovery')
      .set(bearer(c))
      .send({ executionId: e.id, action: 'cancel' });
    expect(cancel.status).toBe(200);
    expect(cancel.body.execution).toMatchObject({ id: e.id, status: 'CANCELLED', hold: null });
  });

  it('acts through POST /api/recovery', async () => {
    const e = await h.create(a, { title: 'recover', steps: [{ op: 'fail' }] });
    await h.waitFor(a, e.id, (x) => x.status === 'FAILED');
    const res = await h
      .http()
      .post('/api/recovery')
      .set(bearer(a))
      .send({ executionId: e.id, action: 'retry' });
    expect(res.status).toBe(200);
    expect(res.body.execution).toMatchObject({ id: e.id, status: 'RUNNING' });
    await h.waitFor(a, e.id, (x) => x.status === 'COMPLETED');
    const illegal = await h
      .http()
      .post('/api/recovery')
      .set(bearer(a))
      .send({ executionId: e.id, action: 'resume' });
    expect(illegal.status).toBe(409);
    expect(illegal.body).toMatchObject({ code: 'CONFLICT', status: 'COMPLETED' });
    const pause = await h
      .http()
      .post('/api/recovery')
      .set(bearer(a))
      .send({ executionId: e.id, action: 'pause' });
    expect(pause.status).toBe(400);
    const notes = await h.http().get('/api/notifications?type=recovery').set(bearer(a));
    expect(notes.body.notifications.map((n: { title: string }) => n.title)).toContain(
      'Execution retried: recover',
    );
  });
});

describe('notifications', () => {
  it('creates, filters, updates and marks all read', async () => {
    const token = await h.account();
    const created = await h
      .http()
      .post('/api/notifications')
      .set(bearer(token))
      .send({ title: 'Hello', body: 'world' });
    expect(created.status).toBe(201);
    const n = created.body.notification;
    expect(n).toMatchObject({
      title: 'Hello',
      body: 'world',
      status: 'unread',
      type: 'task',
      readAt: null,
      executionId: null,
    });
    expect(n.notificationId).toBe(n.id);
    await h
      .http()
      .post('/api/notifications')
      .set(bearer(token))
      .send({ title: 'Approve?', type: 'approval' });
    await h.http().post('/api/notifications').set(bearer(token)).send({ title: 'Third' });

    const read = await h
      .http()
      .post('/api/notifications')
      .set(bearer(token))
      .send({ notificationId: n.id, status: 'read' });
    expect(read.status).toBe(200);
    expect(read.body.notification).toMatchObject({ status: 'read', readAt: expect.any(String) });
    const unread = await h.http().get('/api/notifications?status=unread').set(bearer(token));
    expect(unread.body.notifications.map((x: { title: string }) => x.title)).toEqual(['Third', 'Approve?']);
    const approvals = await h.http().get('/api/notifications?type=approval').set(bearer(token));
    expect(approvals.body.notifications).toHaveLength(1);

    const archived = await h
      .http()
      .post('/api/notifications')
      .set(bearer(token))
      .send({ notificationId: n.id, status: 'archived' });
    expect(archived.body.notification.status).toBe('archived');
    const back = await h
      .http()
      .post('/api/notifications')
      .set(bearer(token))
      .send({ notificationId: n.id, status: 'unread' });
    expect(back.body.notification).toMatchObject({ status: 'unread', readAt: null });

    const all = await h
      .http()
      .post('/api/notifications')
      .set(bearer(token))
      .send({ action: 'mark_all_read' });
    expect(all.body).toEqual({ updated: 3 });
    expect(
      (await h.http().get('/api/notifications?status=unread').set(bearer(token))).body.notifications,
    ).toEqual([]);
  });

  it('validates bodies and queries', async () => {
    const post = (body: unknown) =>
      h
        .http()
        .post('/api/notifications')
        .set(bearer(a))
        .send(body as object);
    expect((await post({ action: 'delete_all' })).status).toBe(400);
    expect((await post({ notificationId: 'ntf_x', status: 'gone' })).status).toBe(400);
    expect((await post({})).status).toBe(400);
    expect((await post({ notificationId: 'ntf_000000000000000000000000', status: 'read' })).status).toBe(404);
    expect((await h.http().get('/api/notifications?status=new').set(bearer(a))).status).toBe(400);
  });
});

describe('tenant isolation', () => {
  it('B can neither see nor act on A’s executions and notifications (404), and no internal id leaks', async () => {
    for (const path of [`/api/executions/${ids.failed}`]) {
      expect((await h.http().get(path).set(bearer(b))).status).toBe(404);
    }
    const act = await h.act(b, ids.failed!, 'retry');
    expect(act.status).toBe(404);
    const recovery = await h
      .http()
      .post('/api/recovery')
      .set(bearer(b))
      .send({ executionId: ids.failed, action: 'cancel' });
    expect(recovery.status).toBe(404);
    expect(idsOf(await list(b))).toEqual([ids.b]);
    expect((await h.http().get('/api/recovery').set(bearer(b))).body.executions).toEqual([]);

    const noteOfA = (await h.http().get('/api/notifications').set(bearer(a))).body.notifications[0];
    const steal = await h
      .http()
      .post('/api/notifications')
      .set(bearer(b))
      .send({ notificationId: noteOfA.id, status: 'archived' });
    expect(steal.status).toBe(404);
    const mine = (await h.http().get('/api/notifications').set(bearer(b))).body.notifications;
    expect(mine.map((n: { id: string }) => n.id)).not.toContain(noteOfA.id);
    expect((await h.http().post('/api/panic').set(bearer(b)).send({ workspaceId: workspaceA })).status).toBe(
      404,
    );
    expect((await h.http().get(`/api/panic?workspaceId=${workspaceA}`).set(bearer(b))).status).toBe(404);

    const bodies = [
      (await list(a)).body,
      (await h.http().get(`/api/executions/${ids.failed}`).set(bearer(a))).body,
      (await h.http().get('/api/recovery').set(bearer(a))).body,
      (await h.http().get('/api/notifications').set(bearer(a))).body,
    ];
    expect(JSON.stringify(bodies)).not.toMatch(/acc_|agt_/);
  });
});

describe('who may call', () => {
  it('takes workflow-scoped tokens (whose steps keep their scopes) and refuses other scopes and bare agents', async () => {
    const named = async (scopes: string[]) => {
      const res = await h
        .http()
        .post('/api/bearer-tokens')
        .set(bearer(a))
        .send({ name: `t-${scopes.join('-')}`, scopes });
      expect(res.status).toBe(201);
      return res.body.bearerToken as string;
    };
    const workflow = await named(['workflow']);
    expect((await list(workflow)).status).toBe(200);
    const e = await h.create(workflow, {
      title: 'scoped',
      steps: [{ op: 'mem_set', key: 'scoped/k', value: 1 }],
    });
    const failed = await h.waitFor(workflow, e.id, (x) => x.status === 'FAILED');
    expect(failed.failure).toMatchObject({ code: 'PERMISSION_DENIED' }); // tools need mcp_connector

    const app = await named(['app']);
    expect((await list(app)).status).toBe(403);
    expect((await h.http().get('/api/notifications').set(bearer(app))).status).toBe(403);

    const agent = await h
      .http()
      .post('/register')
      .send({ name: `exec-agent-${Date.now()}` });
    expect(agent.status).toBe(201);
    expect((await list(agent.body.token)).status).toBe(403);
  });
});
