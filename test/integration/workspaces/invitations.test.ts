import {
  bearer,
  startWorkspaceHarness,
  type TestAccount,
  type WorkspaceHarness,
} from './support/workspace-harness';

/**
 * Workspace membership of another account needs its consent (docs/workspaces.md, "Invitations"):
 * the owner invites, the invitee accepts or declines; until then nothing of the workspace reaches
 * the invitee, and the owner's answer discloses nothing about it.
 */
describe('workspace invitations', () => {
  let h: WorkspaceHarness;
  let owner: TestAccount;
  let invitee: TestAccount;

  beforeAll(async () => {
    h = await startWorkspaceHarness();
    [owner, invitee] = await Promise.all([h.account(), h.account()]);
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  });

  const received = (token: string) => h.http().get('/api/workspace-invitations').set(bearer(token));
  const answer = (token: string, id: string, action: 'accept' | 'decline') =>
    h.http().post(`/api/workspace-invitations/${id}/${action}`).set(bearer(token)).send({});
  const workspaceIds = async (token: string) =>
    ((await h.http().get('/api/workspaces').set(bearer(token))).body.workspaces as Array<{ id: string }>).map(
      (w) => w.id,
    );
  const filesOf = async (token: string, prefix: string) =>
    (
      (await h.http().get('/api/files').query({ prefix }).set(bearer(token))).body.entries as Array<{
        path: string;
      }>
    ).map((e) => e.path);

  it('an invited account sees nothing of the workspace until it accepts', async () => {
    const ws = await h.workspace(owner, 'Pushy');
    const pushed = await h
      .http()
      .post('/api/files')
      .set(bearer(owner.token))
      .send({ path: 'pushed/ad.md', data: 'buy now', visibility: 'workspace', workspaceId: ws });
    expect(pushed.status).toBe(201);

    const invited = await h.http().post(`/api/workspaces/${ws}/members`).set(bearer(owner.token)).send({
      email: invitee.email,
    });
    expect(invited.status).toBe(202);
    expect(Object.keys(invited.body)).toEqual(['invitation']);
    const id = invited.body.invitation.id as string;

    // Not a member: no workspace, no files, no access by id.
    expect(await workspaceIds(invitee.token)).not.toContain(ws);
    expect(await filesOf(invitee.token, 'pushed')).toEqual([]);
    expect((await h.http().get(`/api/workspaces/${ws}`).set(bearer(invitee.token))).status).toBe(404);
    // The owner sees the pending invitation, as given.
    const detail = await h.http().get(`/api/workspaces/${ws}`).set(bearer(owner.token));
    expect(detail.body.invitations).toEqual([
      {
        id,
        kind: 'account',
        role: 'member',
        email: invitee.email,
        status: 'pending',
        invitedAt: expect.any(String),
      },
    ]);
    expect(detail.body.members).toHaveLength(1);

    // The invitee lists it, with who invites it to what.
    const mine = await received(invitee.token);
    expect(mine.status).toBe(200);
    expect(mine.body.invitations).toEqual([
      expect.objectContaining({
        id,
        kind: 'account',
        role: 'member',
        workspace: { id: ws, name: 'Pushy' },
        invitedBy: { email: owner.email },
      }),
    ]);
    expect(JSON.stringify(mine.body)).not.toMatch(/acc_|agt_/);

    const accepted = await answer(invitee.token, id, 'accept');
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({
      accepted: true,
      workspace: { id: ws, name: 'Pushy' },
      member: { kind: 'account', email: invitee.email, role: 'member' },
    });
    expect(await workspaceIds(invitee.token)).toContain(ws);
    expect(await filesOf(invitee.token, 'pushed')).toEqual(['pushed/ad.md']);
    expect((await received(invitee.token)).body.invitations).toEqual([]);
    expect((await answer(invitee.token, id, 'accept')).status).toBe(404);
  });

  it('a declined invitation leaves no trace; the invitee stays outside', async () => {
    const ws = await h.workspace(owner, 'Declined');
    const id = await h.invite(owner, ws, { email: invitee.email, role: 'admin' });
    const declined = await answer(invitee.token, id, 'decline');
    expect(declined.status).toBe(200);
    expect(declined.body).toEqual({ accepted: false, invitation: { id, status: 'declined' } });
    expect(await workspaceIds(invitee.token)).not.toContain(ws);
    expect((await h.http().get(`/api/workspaces/${ws}`).set(bearer(owner.token))).body.invitations).toEqual(
      [],
    );
    // The owner may invite again.
    expect(
      (
        await h
          .http()
          .post(`/api/workspaces/${ws}/members`)
          .set(bearer(owner.token))
          .send({ email: invitee.email })
      ).status,
    ).toBe(202);
  });

  it("inviting another account's agent discloses nothing about it; that account decides for it", async () => {
    const other = await h.account();
    const bot = await h.agent(other, 'Secret Project Falcon');
    const ws = await h.workspace(owner, 'Agents');
    const res = await h.http().post(`/api/workspaces/${ws}/members`).set(bearer(owner.token)).send({
      agentRef: bot.agentRef,
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      invitation: {
        id: expect.stringMatching(/^wsi_[a-f0-9]{24}$/),
        kind: 'agent',
        role: 'member',
        agentRef: bot.agentRef,
        status: 'pending',
        invitedAt: expect.any(String),
      },
    });
    expect(JSON.stringify(res.body)).not.toContain('Falcon');
    // The same answer for an agentRef and an email that match nothing.
    for (const body of [{ agentRef: 'agref-doesnotexist0000000000' }, { email: 'nobody-here@example.com' }]) {
      const unknown = await h
        .http()
        .post(`/api/workspaces/${ws}/members`)
        .set(bearer(owner.token))
        .send(body);
      expect(unknown.status).toBe(202);
      expect(unknown.body).toEqual({
        invitation: {
          id: expect.stringMatching(/^wsi_/),
          kind: 'email' in body ? 'account' : 'agent',
          role: 'member',
          ...body,
          status: 'pending',
          invitedAt: expect.any(String),
        },
      });
    }
    const detail = await h.http().get(`/api/workspaces/${ws}`).set(bearer(owner.token));
    expect(JSON.stringify(detail.body)).not.toContain('Falcon');

    // The agent itself may not answer for its account; nor may a stranger; its account may.
    expect(await workspaceIds(bot.key)).not.toContain(ws);
    expect((await received(bot.key)).body.invitations).toEqual([]);
    const id = res.body.invitation.id as string;
    expect((await answer(bot.key, id, 'accept')).status).toBe(404);
    expect((await answer(invitee.token, id, 'accept')).status).toBe(404);
    const listed = (await received(other.token)).body.invitations;
    expect(listed).toEqual([expect.objectContaining({ id, kind: 'agent', agentRef: bot.agentRef })]);
    const accepted = await answer(other.token, id, 'accept');
    expect(accepted.status).toBe(200);
    expect(accepted.body.member).toMatchObject({ kind: 'agent', agentRef: bot.agentRef });
    expect(await workspaceIds(bot.key)).toContain(ws);
  });

  it("adds the owner's own agent at once (201): nobody else to ask", async () => {
    const own = await h.agent(owner);
    const ws = await h.workspace(owner, 'Own agents');
    const res = await h.http().post(`/api/workspaces/${ws}/members`).set(bearer(owner.token)).send({
      agentRef: own.agentRef,
    });
    expect(res.status).toBe(201);
    expect(res.body.member).toMatchObject({ kind: 'agent', agentRef: own.agentRef });
  });

  it('the owner withdraws a pending invitation; then it cannot be accepted', async () => {
    const ws = await h.workspace(owner, 'Withdrawn');
    const id = await h.invite(owner, ws, { email: invitee.email });
    // Not the owner: refused; unknown ids: 404; malformed: 400.
    expect(
      (await h.http().delete(`/api/workspaces/${ws}/invitations/${id}`).set(bearer(invitee.token))).status,
    ).toBe(404);
    expect(
      (
        await h
          .http()
          .delete(`/api/workspaces/${ws}/invitations/wsi_000000000000000000000000`)
          .set(bearer(owner.token))
      ).status,
    ).toBe(404);
    expect(
      (await h.http().delete(`/api/workspaces/${ws}/invitations/nope`).set(bearer(owner.token))).status,
    ).toBe(400);
    expect((await answer(invitee.token, 'nope', 'accept')).status).toBe(400);
    const revoked = await h.http().delete(`/api/workspaces/${ws}/invitations/${id}`).set(bearer(owner.token));
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ revoked: true, invitation: { id, email: invitee.email } });
    expect((await answer(invitee.token, id, 'accept')).status).toBe(404);
    expect(await workspaceIds(invitee.token)).not.toContain(ws);
  });

  it('a second invitation of the same invitee is 409; an existing member is 409', async () => {
    const ws = await h.workspace(owner, 'Twice');
    await h.invite(owner, ws, { email: invitee.email });
    const again = await h
      .http()
      .post(`/api/workspaces/${ws}/members`)
      .set(bearer(owner.token))
      .send({ email: invitee.email });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/already invited/i);
    const ws2 = await h.workspace(owner, 'Member already');
    await h.addMember(owner, ws2, { email: invitee.email });
    const member = await h
      .http()
      .post(`/api/workspaces/${ws2}/members`)
      .set(bearer(owner.token))
      .send({ email: invitee.email });
    expect(member.status).toBe(409);
    expect(member.body.error).toMatch(/already a member/i);
  });
});
