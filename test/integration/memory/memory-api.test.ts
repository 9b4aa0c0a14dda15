import { dropDefaultWorkspace } from '../../support/default-workspace';
import { bearer, useExecHarness } from '../executions/support/harness';

/** `/api/memory` over HTTP (docs/memory.md): two accounts on one embedded runtime. */
describe('/api/memory', () => {
  const s = useExecHarness({ accounts: 2, timeoutMs: 60_000 });

  const put = (token: string, body: Record<string, unknown>) =>
    s.h.http().post('/api/memory').set(bearer(token)).send(body);
  const list = (token: string, query: Record<string, string> = {}) =>
    s.h.http().get('/api/memory').query(query).set(bearer(token));
  const del = (token: string, query: Record<string, string>) =>
    s.h.http().delete('/api/memory').query(query).set(bearer(token));

  it('upserts per (namespace, key), recorded as MEMORY_WRITE executions', async () => {
    const first = await put(s.a, { key: 'greeting', content: 'hello', tags: ['intro'] });
    expect(first.status).toBe(201);
    expect(first.body.entry).toMatchObject({
      key: 'greeting',
      content: 'hello',
      namespaceType: 'user',
      namespaceId: 'default',
      visibility: 'private',
      tags: ['intro'],
      version: 1,
    });
    expect(first.body.execution).toMatchObject({ type: 'MEMORY_WRITE', status: 'COMPLETED' });
    expect(first.body.execution.steps[0].effects).toEqual([
      { kind: 'memory', target: 'user/default/greeting', undone: false },
    ]);
    expect(JSON.stringify(first.body)).not.toMatch(/acc_|agt_/);

    const second = await put(s.a, { key: 'greeting', content: { text: 'hi', n: 2 } });
    expect(second.status).toBe(200);
    expect(second.body.entry).toMatchObject({ content: { text: 'hi', n: 2 }, version: 2, tags: ['intro'] });

    // Another namespace is another entry.
    const other = await put(s.a, {
      key: 'greeting',
      content: 'yo',
      namespaceType: 'agent',
      namespaceId: 'bot-1',
    });
    expect(other.status).toBe(201);

    const all = await list(s.a);
    expect(all.status).toBe(200);
    expect(all.body.viewerAgentId).toBeNull();
    const greetings = all.body.entries.filter((e: { key: string }) => e.key === 'greeting');
    expect(greetings).toHaveLength(2);
  });

  it('lists with search, namespace filters and export', async () => {
    await put(s.a, { key: 'colour', content: 'Blue skies', tags: ['prefs'], namespaceType: 'workspace' });
    await put(s.a, { key: 'size', content: { shoe: 42 }, tags: ['Prefs'], namespaceType: 'workspace' });

    const byContent = await list(s.a, { search: 'blue' });
    expect(byContent.body.entries.map((e: { key: string }) => e.key)).toEqual(['colour']);
    const byTag = await list(s.a, { search: 'PREFS' });
    expect(byTag.body.entries.map((e: { key: string }) => e.key).sort()).toEqual(['colour', 'size']);
    const byKey = await list(s.a, { search: 'siz' });
    expect(byKey.body.entries.map((e: { key: string }) => e.key)).toEqual(['size']);
    const byNs = await list(s.a, { namespaceType: 'agent', namespaceId: 'bot-1' });
    expect(byNs.body.entries).toEqual([expect.objectContaining({ key: 'greeting', content: 'yo' })]);

    const exported = await list(s.a, { export: '1', namespaceType: 'workspace' });
    expect(exported.status).toBe(200);
    expect(exported.body).toMatchObject({ format: 'ars.memory.v1', exportedAt: expect.any(String) });
    expect(exported.body.entries.map((e: { key: string }) => e.key).sort()).toEqual(['colour', 'size']);
  });

  it('deletes, and a rollback of the delete brings the entry back', async () => {
    await put(s.a, { key: 'temp', content: 'keep me' });
    const gone = await del(s.a, { key: 'temp' });
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({
      deleted: true,
      execution: { type: 'MEMORY_DELETE', status: 'COMPLETED' },
    });
    expect((await list(s.a, { search: 'keep me' })).body.entries).toEqual([]);
    expect((await del(s.a, { key: 'temp' })).status).toBe(404);

    const rolled = await s.h.act(s.a, gone.body.execution.id, 'rollback');
    expect(rolled.status).toBe(200);
    expect(rolled.body.rollback.notUndone).toEqual([]);
    expect((await list(s.a, { search: 'keep me' })).body.entries).toEqual([
      expect.objectContaining({ key: 'temp', content: 'keep me' }),
    ]);
  });

  it('rolls a write back to the previous entry, and a new entry back to nothing', async () => {
    await put(s.a, { key: 'plan', content: 'v1', visibility: 'private' });
    const update = await put(s.a, { key: 'plan', content: 'v2', visibility: 'public' });
    expect((await s.h.act(s.a, update.body.execution.id, 'rollback')).status).toBe(200);
    expect((await list(s.a, { search: 'plan' })).body.entries).toEqual([
      expect.objectContaining({ key: 'plan', content: 'v1', visibility: 'private' }),
    ]);

    const fresh = await put(s.a, { key: 'fresh-key', content: 'new' });
    const undo = await s.h.act(s.a, fresh.body.execution.id, 'rollback');
    expect(undo.body.rollback.undone).toHaveLength(1);
    expect((await list(s.a, { search: 'fresh-key' })).body.entries).toEqual([]);

    // A rollback after someone else changed the entry is reported, not forced.
    const w = await put(s.a, { key: 'contested', content: 'mine' });
    await put(s.a, { key: 'contested', content: 'later' });
    const late = await s.h.act(s.a, w.body.execution.id, 'rollback');
    expect(late.body.rollback.notUndone).toHaveLength(1);
    expect((await list(s.a, { search: 'contested' })).body.entries[0].content).toBe('later');
  });

  it('undoes changes one execution at a time, newest first', async () => {
    const created = await put(s.a, { key: 'chain', content: 'v1' });
    const second = await put(s.a, { key: 'chain', content: 'v2' });
    const gone = await del(s.a, { key: 'chain' });
    const undo = async (execution: { id: string }) =>
      (await s.h.act(s.a, execution.id, 'rollback')).body.rollback;
    const content = async () =>
      (await list(s.a, { search: 'chain' })).body.entries.map((e: { content: unknown }) => e.content);

    // Each rollback puts back the state the previous execution left, so its rollback still applies.
    expect((await undo(gone.body.execution)).notUndone).toEqual([]);
    expect(await content()).toEqual(['v2']);
    const rolled = await undo(second.body.execution);
    expect(rolled.notUndone).toEqual([]);
    expect(rolled.undone).toEqual([{ step: 0, kind: 'memory', target: 'user/default/chain' }]);
    expect(await content()).toEqual(['v1']);
    expect((await undo(created.body.execution)).notUndone).toEqual([]);
    expect(await content()).toEqual([]);

    // A write after a rollback is a change again: the older rollback is refused.
    const first = await put(s.a, { key: 'chain2', content: 'a' });
    const next = await put(s.a, { key: 'chain2', content: 'b' });
    await undo(next.body.execution);
    await put(s.a, { key: 'chain2', content: 'a' });
    const refused = await undo(first.body.execution);
    expect(refused.undone).toEqual([]);
    expect(refused.notUndone).toHaveLength(1);
  });

  it('applies visibility across two accounts', async () => {
    await put(s.a, { key: 'secret-note', content: 'for A only' });
    await put(s.a, { key: 'public-note', content: 'for everyone', visibility: 'public' });
    await put(s.a, { key: 'team-note', content: 'for the team', visibility: 'workspace' });

    const seen = await list(s.b, { search: 'note' });
    expect(seen.status).toBe(200);
    expect(seen.body.entries).toEqual([expect.objectContaining({ key: 'public-note', owned: false })]);
    expect(JSON.stringify(seen.body)).not.toMatch(/acc_|agt_/);
    const mine = await list(s.a, { search: 'note' });
    expect(mine.body.entries).toHaveLength(3);

    // B's writes and deletes are in B's own entries.
    expect((await del(s.b, { key: 'public-note' })).status).toBe(404);
    expect((await put(s.b, { key: 'public-note', content: 'B own' })).status).toBe(201);
    expect((await list(s.a, { search: 'public-note' })).body.entries).toEqual([
      expect.objectContaining({ content: 'for everyone', owned: true }),
    ]);
  });

  it('writes a workspace entry without workspaceId, also for an older account without a default workspace', async () => {
    const c = await s.h.account();
    const recorded = await dropDefaultWorkspace(s.h.runtime, c);
    const res = await put(c, { key: 'team-first', content: 'shared', visibility: 'workspace' });
    expect(res.status).toBe(201);
    expect(res.body.entry).toMatchObject({ key: 'team-first', visibility: 'workspace' });
    expect(res.body.execution.workspaceId).toBe(recorded);
    const workspaces = await s.h.http().get('/api/workspaces').set(bearer(c));
    expect(workspaces.body.workspaces).toEqual([expect.objectContaining({ id: recorded, isDefault: true })]);
  });

  it('answers viewerAgentId with the public agentRef of an agent caller', async () => {
    const made = await s.h.http().post('/api/agents').set(bearer(s.a)).send({ name: 'Memory bot' });
    expect(made.status).toBe(201);
    const agentKey = made.body.apiKey as string;
    const agentRef = made.body.agent.agentRef as string;
    const written = await put(agentKey, { key: 'from-agent', content: 'agent wrote this' });
    expect(written.status).toBe(201);
    expect(written.body.execution.agentRef).toBe(agentRef);
    const seen = await list(agentKey, { search: 'from-agent' });
    expect(seen.body.viewerAgentId).toBe(agentRef);
    expect(seen.body.entries).toEqual([expect.objectContaining({ key: 'from-agent', owned: true })]);
    // The tenant is the account: the operator sees and owns it too.
    expect((await list(s.a, { search: 'from-agent' })).body.entries).toHaveLength(1);
    expect(JSON.stringify(seen.body)).not.toMatch(/acc_|agt_/);
  });

  it('refuses changes while the workspace is in panic lockdown', async () => {
    const c = await s.h.account();
    await put(c, { key: 'k', content: 'before' });
    expect((await s.h.http().post('/api/panic').set(bearer(c)).send({})).status).toBe(200);
    expect((await put(c, { key: 'k', content: 'during' })).status).toBe(403);
    expect((await del(c, { key: 'k' })).status).toBe(403);
    expect((await s.h.http().delete('/api/panic').set(bearer(c))).status).toBe(200);
    expect((await put(c, { key: 'k', content: 'after' })).status).toBe(200);
  });

  it('validates input', async () => {
    expect((await put(s.a, { content: 'x' })).status).toBe(400);
    expect((await put(s.a, { key: 'k' })).status).toBe(400);
    expect((await put(s.a, { key: 'k', content: 'x', namespaceType: 'planet' })).status).toBe(400);
    expect((await put(s.a, { key: 'k', content: 'x', visibility: 'secret' })).status).toBe(400);
    expect((await put(s.a, { key: 'k', content: 'x', tags: [''] })).status).toBe(400);
    expect((await put(s.a, { key: 'x'.repeat(300), content: 'x' })).status).toBe(400);
    expect((await put(s.a, { key: 'k', content: 'x', workspaceId: 'ws_nope' })).status).toBe(404);
    const big = await put(s.a, { key: 'big', content: 'x'.repeat(70 * 1024) });
    expect(big.status).toBe(413);
    expect((await list(s.a, { namespaceType: 'planet' })).status).toBe(400);
    expect((await del(s.a, {})).status).toBe(400);
    expect((await s.h.http().get('/api/memory')).status).toBe(401);
  });
});
