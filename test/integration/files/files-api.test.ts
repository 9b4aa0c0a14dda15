import { dropDefaultWorkspace } from '../../support/default-workspace';
import { bearer, useExecHarness } from '../executions/support/harness';

/** `/api/files` over HTTP (docs/files.md, "HTTP"): two accounts on one embedded runtime. */
describe('/api/files', () => {
  const s = useExecHarness({ accounts: 2, timeoutMs: 60_000 });

  const write = (token: string, body: Record<string, unknown>) =>
    s.h.http().post('/api/files').set(bearer(token)).send(body);
  const list = (token: string, query: Record<string, string> = {}) =>
    s.h.http().get('/api/files').query(query).set(bearer(token));

  it('writes, previews and summarizes a file, recorded as a completed execution', async () => {
    const res = await write(s.a, { path: 'notes/./todo.md', data: 'one\ntwo\nthree\n' });
    expect(res.status).toBe(201);
    expect(res.body.entry).toMatchObject({
      path: 'notes/todo.md',
      visibility: 'private',
      size: 14,
      contentEncoding: 'utf8',
      version: 1,
      owned: true,
    });
    expect(res.body.execution).toMatchObject({ type: 'FILE_WRITE', status: 'COMPLETED' });
    expect(res.body.execution.steps[0].effects).toEqual([
      { kind: 'file', target: 'notes/todo.md', undone: false },
    ]);
    expect(JSON.stringify(res.body)).not.toMatch(/acc_|agt_/);

    const detail = await s.h.get(s.a, res.body.execution.id);
    expect(detail.execution.status).toBe('COMPLETED');

    const preview = await list(s.a, { action: 'preview', path: 'notes/todo.md' });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      content: 'one\ntwo\nthree\n',
      truncated: false,
      contentEncoding: 'utf8',
    });

    const summary = await list(s.a, { action: 'summarize', path: 'notes/todo.md' });
    expect(summary.status).toBe(200);
    expect(summary.body.summary).toEqual({
      size: 14,
      type: 'text/markdown',
      text: true,
      lineCount: 3,
      firstLines: ['one', 'two', 'three'],
    });
  });

  it('previews binary content as base64 and truncates large files', async () => {
    const bytes = Buffer.from([0, 1, 2, 255]);
    expect(
      (await write(s.a, { path: 'bin/x.bin', data: bytes.toString('base64'), contentEncoding: 'base64' }))
        .status,
    ).toBe(201);
    const preview = await list(s.a, { action: 'preview', path: 'bin/x.bin' });
    expect(preview.body).toMatchObject({ contentEncoding: 'base64', content: bytes.toString('base64') });
    const summary = await list(s.a, { action: 'summarize', path: 'bin/x.bin' });
    expect(summary.body.summary).toMatchObject({ text: false, lineCount: null, firstLines: [] });

    expect((await write(s.a, { path: 'big.txt', data: 'é'.repeat(40_000) })).status).toBe(201);
    const big = await list(s.a, { action: 'preview', path: 'big.txt' });
    expect(big.body.truncated).toBe(true);
    expect(Buffer.byteLength(big.body.content as string)).toBeLessThanOrEqual(64 * 1024);
    expect(big.body.content).toMatch(/^é+$/);
  });

  it('rolls a write back to the previous content, and a new file back to nothing', async () => {
    await write(s.a, { path: 'doc.txt', data: 'first' });
    const second = await write(s.a, { path: 'doc.txt', data: 'second' });
    expect(second.body.entry.version).toBe(2);

    const rolled = await s.h.act(s.a, second.body.execution.id, 'rollback');
    expect(rolled.status).toBe(200);
    expect(rolled.body.rollback.undone).toHaveLength(1);
    expect(rolled.body.rollback.notUndone).toEqual([]);
    const preview = await list(s.a, { action: 'preview', path: 'doc.txt' });
    expect(preview.body.content).toBe('first');

    const fresh = await write(s.a, { path: 'fresh/new.txt', data: 'x' });
    expect((await s.h.act(s.a, fresh.body.execution.id, 'rollback')).status).toBe(200);
    expect((await list(s.a, { action: 'preview', path: 'fresh/new.txt' })).status).toBe(404);

    // B cannot roll back A's execution.
    expect((await s.h.act(s.b, second.body.execution.id, 'rollback')).status).toBe(404);
  });

  it('renames and deletes, each with an execution that a rollback undoes', async () => {
    await write(s.a, { path: 'old.txt', data: 'moving' });
    const moved = await s.h
      .http()
      .patch('/api/files')
      .set(bearer(s.a))
      .send({ path: 'old.txt', nextPath: 'new/place.txt' });
    expect(moved.status).toBe(200);
    expect(moved.body.entry).toMatchObject({ path: 'new/place.txt' });
    expect(moved.body.execution).toMatchObject({ type: 'FILE_RENAME', status: 'COMPLETED' });
    expect((await list(s.a, { action: 'preview', path: 'old.txt' })).status).toBe(404);

    const onto = await s.h
      .http()
      .patch('/api/files')
      .set(bearer(s.a))
      .send({ path: 'doc.txt', nextPath: 'new/place.txt' });
    expect(onto.status).toBe(409);

    const del = await s.h.http().delete('/api/files').query({ path: 'new/place.txt' }).set(bearer(s.a));
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({
      path: 'new/place.txt',
      deleted: true,
      execution: { type: 'FILE_DELETE' },
    });
    expect((await list(s.a, { action: 'preview', path: 'new/place.txt' })).status).toBe(404);

    expect((await s.h.act(s.a, del.body.execution.id, 'rollback')).status).toBe(200);
    expect((await list(s.a, { action: 'preview', path: 'new/place.txt' })).body.content).toBe('moving');
    expect((await s.h.act(s.a, moved.body.execution.id, 'rollback')).status).toBe(200);
    expect((await list(s.a, { action: 'preview', path: 'old.txt' })).body.content).toBe('moving');
  });

  it('undoes changes one execution at a time, newest first', async () => {
    const created = await write(s.a, { path: 'chain/q3.md', data: 'v1' });
    const rewritten = await write(s.a, { path: 'chain/q3.md', data: 'v2' });
    const renamed = await s.h
      .http()
      .patch('/api/files')
      .set(bearer(s.a))
      .send({ path: 'chain/q3.md', nextPath: 'chain/q3-final.md' });
    expect(renamed.status).toBe(200);
    const undo = async (execution: { id: string }) =>
      (await s.h.act(s.a, execution.id, 'rollback')).body.rollback;

    // Each rollback leaves the path as the previous execution left it (a new version with the
    // same bytes), so the previous execution's rollback still applies.
    expect((await undo(renamed.body.execution)).notUndone).toEqual([]);
    expect((await list(s.a, { action: 'preview', path: 'chain/q3.md' })).body.content).toBe('v2');
    const second = await undo(rewritten.body.execution);
    expect(second.notUndone).toEqual([]);
    expect(second.undone).toEqual([{ step: 0, kind: 'file', target: 'chain/q3.md' }]);
    expect((await list(s.a, { action: 'preview', path: 'chain/q3.md' })).body.content).toBe('v1');
    expect((await undo(created.body.execution)).notUndone).toEqual([]);
    expect((await list(s.a, { action: 'preview', path: 'chain/q3.md' })).status).toBe(404);

    // New bytes written since are a change, even when they equal the old ones: not undone.
    const again = await write(s.a, { path: 'chain/same.txt', data: 'same' });
    await write(s.a, { path: 'chain/same.txt', data: 'same' });
    const refused = await undo(again.body.execution);
    expect(refused.undone).toEqual([]);
    expect(refused.notUndone).toHaveLength(1);
  });

  it('applies visibility across two accounts', async () => {
    await write(s.a, { path: 'vis/secret.txt', data: 'private' });
    await write(s.a, { path: 'vis/open.txt', data: 'hello world', visibility: 'public' });

    const mine = await list(s.a, { prefix: 'vis' });
    expect(mine.body.entries.map((e: { path: string }) => e.path)).toEqual([
      'vis/open.txt',
      'vis/secret.txt',
    ]);
    expect(mine.body.entries.every((e: { owned: boolean }) => e.owned)).toBe(true);

    const theirs = await list(s.b, { prefix: 'vis' });
    expect(theirs.status).toBe(200);
    expect(theirs.body.entries).toEqual([expect.objectContaining({ path: 'vis/open.txt', owned: false })]);
    expect(JSON.stringify(theirs.body)).not.toMatch(/acc_|agt_/);

    expect((await list(s.b, { action: 'preview', path: 'vis/open.txt' })).body.content).toBe('hello world');
    expect((await list(s.b, { action: 'preview', path: 'vis/secret.txt' })).status).toBe(404);
    // B's delete works in B's own space: A's public file is not B's.
    expect(
      (await s.h.http().delete('/api/files').query({ path: 'vis/open.txt' }).set(bearer(s.b))).status,
    ).toBe(404);

    // Filters: text (substring of the path, any case), visibility.
    const text = await list(s.a, { text: 'OPEN' });
    expect(text.body.entries.map((e: { path: string }) => e.path)).toEqual(['vis/open.txt']);
    const pub = await list(s.a, { visibility: 'private', prefix: 'vis' });
    expect(pub.body.entries.map((e: { path: string }) => e.path)).toEqual(['vis/secret.txt']);
  });

  it('pages with limit and cursor', async () => {
    for (const n of [1, 2, 3]) await write(s.a, { path: `page/f${n}.txt`, data: String(n) });
    const first = await list(s.a, { prefix: 'page', limit: '2' });
    expect(first.body.entries).toHaveLength(2);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await list(s.a, { prefix: 'page', limit: '2', cursor: first.body.nextCursor as string });
    expect(second.body.entries.map((e: { path: string }) => e.path)).toEqual(['page/f3.txt']);
    expect(second.body.nextCursor).toBeNull();
  });

  it('writes in a workspace the caller is a member of, and refuses others', async () => {
    const res = await write(s.a, { path: 'ws.txt', data: 'team' });
    const workspaceId = res.body.execution.workspaceId as string;
    const inWs = await write(s.a, {
      path: 'team/plan.md',
      data: 'plan',
      visibility: 'workspace',
      workspaceId,
    });
    expect(inWs.status).toBe(201);
    expect(inWs.body.execution.workspaceId).toBe(workspaceId);
    expect((await list(s.a, { workspaceId, prefix: 'team' })).body.entries).toHaveLength(1);
    expect((await list(s.b, { prefix: 'team' })).body.entries).toEqual([]);
    expect((await write(s.b, { path: 'x.txt', data: 'x', workspaceId })).status).toBe(404);
  });

  const defaultWorkspace = async (token: string) => {
    const res = await s.h.http().get('/api/workspaces').set(bearer(token));
    return (res.body.workspaces as Array<{ id: string; isDefault: boolean }>).find((w) => w.isDefault)?.id;
  };

  it('writes a workspace-visible file without workspaceId into the default workspace', async () => {
    const res = await write(s.a, { path: 'box/out-of-the-box.md', data: 'v1', visibility: 'workspace' });
    expect(res.status).toBe(201);
    expect(res.body.entry).toMatchObject({
      path: 'box/out-of-the-box.md',
      visibility: 'workspace',
      owned: true,
    });
    const workspaceId = await defaultWorkspace(s.a);
    expect(res.body.execution.workspaceId).toBe(workspaceId);
    const inWs = await list(s.a, { workspaceId: workspaceId!, prefix: 'box' });
    expect(inWs.body.entries).toEqual([expect.objectContaining({ path: 'box/out-of-the-box.md' })]);
    // The same path without workspaceId finds that file: read, rewrite, rename, delete.
    const preview = await list(s.a, { action: 'preview', path: 'box/out-of-the-box.md' });
    expect(preview.body).toMatchObject({ content: 'v1', entry: { visibility: 'workspace' } });
    // Another account, not a member of that workspace, sees none of it.
    expect((await list(s.b, { prefix: 'box' })).body.entries).toEqual([]);
    const again = await write(s.a, { path: 'box/out-of-the-box.md', data: 'v2' });
    expect(again.body.entry).toMatchObject({ version: 2, visibility: 'workspace' });
    const moved = await s.h
      .http()
      .patch('/api/files')
      .set(bearer(s.a))
      .send({ path: 'box/out-of-the-box.md', nextPath: 'box/moved.md' });
    expect(moved.status).toBe(200);
    const gone = await s.h.http().delete('/api/files').query({ path: 'box/moved.md' }).set(bearer(s.a));
    expect(gone.status).toBe(200);
    expect((await list(s.a, { workspaceId: workspaceId!, prefix: 'box' })).body.entries).toEqual([]);
  });

  it('refuses (409) a workspace write over a path of the own space, which belongs to no workspace', async () => {
    expect((await write(s.a, { path: 'dup.md', data: 'private' })).status).toBe(201);
    const res = await write(s.a, { path: 'dup.md', data: 'shared', visibility: 'workspace' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'CONFLICT', field: 'visibility' });
    expect(res.body.error).toMatch(/own space, which belongs to no workspace/);
  });

  it('gives an older account without a default workspace one on first use', async () => {
    const c = await s.h.account();
    const recorded = await dropDefaultWorkspace(s.h.runtime, c);
    expect(await defaultWorkspace(c)).toBeUndefined();
    const res = await write(c, { path: 'first.md', data: 'x', visibility: 'workspace' });
    expect(res.status).toBe(201);
    expect(res.body.execution.workspaceId).toBe(recorded);
    expect(await defaultWorkspace(c)).toBe(recorded);
  });

  it('refuses changes while the workspace is in panic lockdown', async () => {
    const c = await s.h.account();
    expect((await s.h.http().post('/api/panic').set(bearer(c)).send({})).status).toBe(200);
    const refused = await write(c, { path: 'locked.txt', data: 'x' });
    expect(refused.status).toBe(403);
    expect((await list(c, { action: 'preview', path: 'locked.txt' })).status).toBe(404);
    expect((await s.h.http().delete('/api/panic').set(bearer(c))).status).toBe(200);
    expect((await write(c, { path: 'locked.txt', data: 'x' })).status).toBe(201);
  });

  it('takes named tokens with the workspace or project scope, not others', async () => {
    const token = async (name: string, scopes: string[]) => {
      const res = await s.h.http().post('/api/bearer-tokens').set(bearer(s.a)).send({ name, scopes });
      expect(res.status).toBe(201);
      return res.body.bearerToken as string;
    };
    expect((await list(await token('files-ws', ['workspace']))).status).toBe(200);
    expect(
      (await write(await token('files-project', ['project']), { path: 'scoped.txt', data: 's' })).status,
    ).toBe(201);
    expect((await list(await token('files-workflow', ['workflow']))).status).toBe(403);
  });

  it('answers 400, 401, 404 and 413', async () => {
    expect((await write(s.a, { path: '../etc/passwd', data: 'x' })).status).toBe(400);
    expect((await write(s.a, { path: '/abs.txt', data: 'x' })).status).toBe(400);
    expect((await write(s.a, { data: 'x' })).status).toBe(400);
    expect((await write(s.a, { path: 'a.txt', data: 'x', contentEncoding: 'hex' })).status).toBe(400);
    expect((await list(s.a, { action: 'preview' })).status).toBe(400);
    expect((await list(s.a, { limit: '0' })).status).toBe(400);
    expect((await list(s.a, { cursor: 'nonsense' })).status).toBe(400);
    expect((await list(s.a, { action: 'preview', path: 'missing.txt' })).status).toBe(404);
    expect(
      (await s.h.http().delete('/api/files').query({ path: 'missing.txt' }).set(bearer(s.a))).status,
    ).toBe(404);
    expect((await s.h.http().delete('/api/files').set(bearer(s.a))).status).toBe(400);
    expect((await s.h.http().get('/api/files')).status).toBe(401);
    const tooBig = await write(s.a, { path: 'huge.txt', data: 'x'.repeat(5 * 1024 * 1024 + 1) });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.code).toBe('PAYLOAD_TOO_LARGE');
  }, 30_000);
});
