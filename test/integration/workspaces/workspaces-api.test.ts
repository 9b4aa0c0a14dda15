import {
  bearer,
  startWorkspaceHarness,
  type TestAccount,
  type WorkspaceHarness,
} from './support/workspace-harness';

/** `/api/workspaces` (docs/workspaces.md): shared workspaces, members, and the 4xx answers. */
describe('/api/workspaces', () => {
  let h: WorkspaceHarness;
  let a: TestAccount;
  let b: TestAccount;
  let c: TestAccount;

  beforeAll(async () => {
    h = await startWorkspaceHarness();
    [a, b, c] = await Promise.all([h.account(), h.account(), h.account()]);
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  });

  const list = (who: { token: string } | string) =>
    h
      .http()
      .get('/api/workspaces')
      .set(bearer(typeof who === 'string' ? who : who.token));

  it('lists the default workspace of a new account', async () => {
    const res = await list(a);
    expect(res.status).toBe(200);
    expect(res.body.workspaces).toEqual([
      expect.objectContaining({
        isDefault: true,
        role: 'owner',
        owned: true,
        id: expect.stringMatching(/^ws_/),
      }),
    ]);
    expect(JSON.stringify(res.body)).not.toMatch(/acc_|agt_/);
  });

  it('creates a shared workspace, adds and removes members (owner only)', async () => {
    const created = await h.http().post('/api/workspaces').set(bearer(a.token)).send({ name: '  Team  ' });
    expect(created.status).toBe(201);
    expect(created.body.workspace).toMatchObject({
      name: 'Team',
      isDefault: false,
      role: 'owner',
      owned: true,
    });
    const ws = created.body.workspace.id as string;

    // B is not a member yet: the workspace does not exist for it.
    expect((await h.http().get(`/api/workspaces/${ws}`).set(bearer(b.token))).status).toBe(404);

    const added = await h
      .http()
      .post(`/api/workspaces/${ws}/members`)
      .set(bearer(a.token))
      .send({ email: b.email.toUpperCase() });
    // Another account is invited (202), a member only once it accepts.
    expect(added.status).toBe(202);
    expect(added.body.invitation).toMatchObject({
      kind: 'account',
      email: b.email,
      role: 'member',
      status: 'pending',
      id: expect.stringMatching(/^wsi_/),
    });
    expect((await list(b)).body.workspaces.map((w: { id: string }) => w.id)).not.toContain(ws);
    const accepted = await h
      .http()
      .post(`/api/workspace-invitations/${added.body.invitation.id}/accept`)
      .set(bearer(b.token));
    expect(accepted.status).toBe(200);
    expect(accepted.body.member).toMatchObject({
      kind: 'account',
      email: b.email,
      role: 'member',
      id: expect.stringMatching(/^wsm_/),
    });
    const memberId = accepted.body.member.id as string;

    const bList = await list(b);
    expect(bList.body.workspaces).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: ws, name: 'Team', role: 'member', owned: false }),
      ]),
    );
    const detail = await h.http().get(`/api/workspaces/${ws}`).set(bearer(b.token));
    expect(detail.status).toBe(200);
    expect(detail.body.members).toEqual([
      expect.objectContaining({ id: null, role: 'owner', email: a.email }),
      expect.objectContaining({ id: memberId, role: 'member', email: b.email }),
    ]);
    expect(JSON.stringify(detail.body)).not.toMatch(/acc_|agt_/);

    // Duplicate member 409; the owner itself 409.
    const again = await h
      .http()
      .post(`/api/workspaces/${ws}/members`)
      .set(bearer(a.token))
      .send({ email: b.email });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'CONFLICT', error: expect.stringMatching(/already a member/i) });
    expect(
      (await h.http().post(`/api/workspaces/${ws}/members`).set(bearer(a.token)).send({ email: a.email }))
        .status,
    ).toBe(409);

    // A member is not the owner: 403 to add or remove someone else; C is outside: 404.
    const byMember = await h
      .http()
      .post(`/api/workspaces/${ws}/members`)
      .set(bearer(b.token))
      .send({ email: c.email });
    expect(byMember.status).toBe(403);
    expect(byMember.body.code).toBe('PERMISSION_DENIED');
    expect(
      (await h.http().post(`/api/workspaces/${ws}/members`).set(bearer(c.token)).send({ email: c.email }))
        .status,
    ).toBe(404);
    expect(
      (await h.http().delete(`/api/workspaces/${ws}/members/${memberId}`).set(bearer(c.token))).status,
    ).toBe(404);

    // An agent is added by its public agentRef; agents of the owner cannot manage members.
    const bot = await h.agent(c);
    const agentMember = await h.addMember(a, ws, { agentRef: bot.agentRef, role: 'member' });
    expect((await list(bot.key)).body.workspaces.map((w: { id: string }) => w.id)).toContain(ws);
    const ownBot = await h.agent(a);
    expect(
      (await h.http().post(`/api/workspaces/${ws}/members`).set(bearer(ownBot.key)).send({ email: c.email }))
        .status,
    ).toBe(403);

    // Removal by the owner: at once out of the member's list.
    const removed = await h
      .http()
      .delete(`/api/workspaces/${ws}/members/${agentMember}`)
      .set(bearer(a.token));
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ removed: true, member: { kind: 'agent', agentRef: bot.agentRef } });
    expect((await list(bot.key)).body.workspaces.map((w: { id: string }) => w.id)).not.toContain(ws);
    expect(
      (await h.http().delete(`/api/workspaces/${ws}/members/${agentMember}`).set(bearer(a.token))).status,
    ).toBe(404);

    // A member may leave.
    expect(
      (await h.http().delete(`/api/workspaces/${ws}/members/${memberId}`).set(bearer(b.token))).status,
    ).toBe(200);
    expect((await list(b)).body.workspaces.map((w: { id: string }) => w.id)).not.toContain(ws);
  });

  it('answers 400 for malformed input, 404 for unknown workspaces, and 202 for any invitee', async () => {
    const ws = await h.workspace(a, 'Errors');
    const post = (path: string, body: object) => h.http().post(path).set(bearer(a.token)).send(body);
    for (const body of [{}, { name: '' }, { name: 'x'.repeat(121) }, { name: 42 }]) {
      const res = await post('/api/workspaces', body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    for (const body of [
      {},
      { email: 'not-an-email' },
      { email: b.email, agentRef: 'agref-x' },
      { email: b.email, role: 'owner' },
      { email: b.email, extra: true },
    ]) {
      expect((await post(`/api/workspaces/${ws}/members`, body)).status).toBe(400);
    }
    expect((await post('/api/workspaces/not-a-workspace/members', { email: b.email })).status).toBe(400);
    expect((await h.http().delete(`/api/workspaces/${ws}/members/nope`).set(bearer(a.token))).status).toBe(
      400,
    );
    const unknownWs = await post('/api/workspaces/ws_000000000000000000000000/members', { email: b.email });
    expect(unknownWs.status).toBe(404);
    expect(unknownWs.body).toMatchObject({ code: 'NOT_FOUND', error: 'Workspace not found' });
    // Whether the invitee exists is not disclosed: an invitation either way.
    expect((await post(`/api/workspaces/${ws}/members`, { email: 'nobody@example.com' })).status).toBe(202);
    expect((await post(`/api/workspaces/${ws}/members`, { agentRef: 'agref-missing' })).status).toBe(202);
    expect(
      (
        await h
          .http()
          .delete(`/api/workspaces/${ws}/members/wsm_000000000000000000000000`)
          .set(bearer(a.token))
      ).status,
    ).toBe(404);
    expect((await h.http().get('/api/workspaces')).status).toBe(401);
  });

  it('asks the same membership in the vault: a plain member may not manage, an outsider gets 404', async () => {
    // The vault asks the same membership: a plain member of A's workspace cannot manage its vault.
    const ws = await h.workspace(a, 'Vault');
    await h.addMember(a, ws, { email: b.email });
    const res = await h
      .http()
      .post('/api/vault')
      .set(bearer(b.token))
      .send({ workspaceId: ws, name: 'K_ONE', value: 'v' });
    expect(res.status).toBe(403);
    // C is outside: 404.
    const outside = await h
      .http()
      .post('/api/vault')
      .set(bearer(c.token))
      .send({ workspaceId: ws, name: 'K_ONE', value: 'v' });
    expect(outside.status).toBe(404);
  });
});
