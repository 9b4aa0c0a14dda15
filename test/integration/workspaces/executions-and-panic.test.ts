import { eventually } from '../../support/async';
import {
  bearer,
  startWorkspaceHarness,
  type TestAccount,
  type WorkspaceHarness,
} from './support/workspace-harness';

/**
 * Executions and panic in a shared workspace (docs/workspaces.md, "Executions and panic"): any
 * member may start work there, an execution stays its account's own, and only the owner or an
 * admin may press panic, which stops every member's work in the workspace.
 */
describe('executions and panic in a shared workspace', () => {
  let h: WorkspaceHarness;
  let owner: TestAccount;
  let admin: TestAccount;
  let member: TestAccount;
  let outsider: TestAccount;
  let ws: string;

  beforeAll(async () => {
    h = await startWorkspaceHarness();
    [owner, admin, member, outsider] = await Promise.all([
      h.account(),
      h.account(),
      h.account(),
      h.account(),
    ]);
    ws = await h.workspace(owner, 'Ops');
    await h.addMember(owner, ws, { email: admin.email, role: 'admin' });
    await h.addMember(owner, ws, { email: member.email });
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  });

  const sleeper = (who: TestAccount, workspaceId: string) =>
    h
      .http()
      .post('/api/executions')
      .set(bearer(who.token))
      .send({ title: 'long', workspaceId, steps: [{ op: 'sleep', name: 'wait', ms: 60_000 }] });

  const status = async (who: TestAccount, id: string) =>
    (await h.http().get(`/api/executions/${id}`).set(bearer(who.token))).body.execution?.status as string;

  it('lets a member start work in the workspace, not an outsider', async () => {
    const started = await sleeper(member, ws);
    expect(started.status).toBe(201);
    expect(started.body.execution).toMatchObject({ workspaceId: ws });
    const refused = await sleeper(outsider, ws);
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ code: 'NOT_FOUND', error: expect.any(String) });
    // The execution stays the member's own: the owner does not see it in its listing.
    const listed = await h.http().get('/api/executions').set(bearer(owner.token)).query({ workspaceId: ws });
    expect(listed.status).toBe(200);
    expect(listed.body.executions.map((e: { id: string }) => e.id)).not.toContain(started.body.execution.id);
  });

  it('refuses panic to a plain member (403) and an outsider (404)', async () => {
    const byMember = await h.http().post('/api/panic').set(bearer(member.token)).send({ workspaceId: ws });
    expect(byMember.status).toBe(403);
    expect(byMember.body).toMatchObject({
      code: 'PERMISSION_DENIED',
      error: expect.stringMatching(/owner or an admin/),
    });
    const byOutsider = await h
      .http()
      .post('/api/panic')
      .set(bearer(outsider.token))
      .send({ workspaceId: ws });
    expect(byOutsider.status).toBe(404);
  });

  it('lets a plain member read the lockdown state, not lift it', async () => {
    const state = (who: TestAccount) =>
      h.http().get('/api/panic').set(bearer(who.token)).query({ workspaceId: ws });
    expect(
      (await h.http().post('/api/panic').set(bearer(owner.token)).send({ workspaceId: ws })).status,
    ).toBe(200);
    try {
      // The member's work is refused during the lockdown: reading the state tells it why.
      const read = await state(member);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ workspaceId: ws, lockdown: true, since: expect.any(String) });
      expect((await state(outsider)).status).toBe(404);
      const lift = await h.http().delete('/api/panic').set(bearer(member.token)).send({ workspaceId: ws });
      expect(lift.status).toBe(403);
      expect(lift.body).toMatchObject({
        code: 'PERMISSION_DENIED',
        error: expect.stringMatching(/lift panic/),
      });
      expect((await state(member)).body).toMatchObject({ lockdown: true });
    } finally {
      await h.http().delete('/api/panic').set(bearer(owner.token)).send({ workspaceId: ws });
    }
    expect((await state(member)).body).toMatchObject({ lockdown: false, since: null });
  });

  it("an admin's panic stops every member's work in the workspace, and only there", async () => {
    const ofMember = (await sleeper(member, ws)).body.execution.id as string;
    const ofOwner = (await sleeper(owner, ws)).body.execution.id as string;
    const started = await h
      .http()
      .post('/api/executions')
      .set(bearer(member.token))
      .send({ title: 'default', steps: [{ op: 'sleep', name: 'wait', ms: 60_000 }] });
    const inDefault = started.body.execution.id as string;

    const res = await h.http().post('/api/panic').set(bearer(admin.token)).send({ workspaceId: ws });
    expect(res.status).toBe(200);
    const stoppedIds = res.body.executions.map((e: { id: string }) => e.id);
    expect(stoppedIds).toEqual(expect.arrayContaining([ofMember, ofOwner]));
    await eventually(
      async () =>
        (await status(member, ofMember)) === 'CANCELLED' && (await status(owner, ofOwner)) === 'CANCELLED',
    );
    // The member's default workspace is not touched.
    expect(await status(member, inDefault)).toBe('RUNNING');

    // Lockdown refuses new work to every member until the owner lifts it.
    expect((await sleeper(member, ws)).status).toBe(403);
    const lifted = await h.http().delete('/api/panic').set(bearer(owner.token)).send({ workspaceId: ws });
    expect(lifted.status).toBe(200);
    expect((await sleeper(member, ws)).status).toBe(201);
    await h.http().post('/api/panic').set(bearer(owner.token)).send({ workspaceId: ws });
    await h.http().delete('/api/panic').set(bearer(owner.token)).send({ workspaceId: ws });
    await h
      .http()
      .post(`/api/executions/${inDefault}/actions`)
      .set(bearer(member.token))
      .send({ action: 'cancel' });
  });
});
