import {
  bearer,
  startWorkspaceHarness,
  type TestAccount,
  type WorkspaceHarness,
} from './support/workspace-harness';

/** Named tokens (`POST /api/bearer-tokens {workspaceId}`) follow workspace membership. */
describe('named tokens in a shared workspace', () => {
  let h: WorkspaceHarness;
  let owner: TestAccount;
  let member: TestAccount;
  let outsider: TestAccount;
  let ws: string;

  beforeAll(async () => {
    h = await startWorkspaceHarness();
    [owner, member, outsider] = await Promise.all([h.account(), h.account(), h.account()]);
    ws = await h.workspace(owner, 'Shared');
    await h.addMember(owner, ws, { email: member.email });
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  });

  const create = (who: TestAccount, name: string) =>
    h
      .http()
      .post('/api/bearer-tokens')
      .set(bearer(who.token))
      .send({ name, workspaceId: ws, scopes: ['workspace'] });

  it('lets the owner and a member scope a token to the workspace, not an outsider', async () => {
    expect((await create(owner, 'owner-ci')).status).toBe(201);
    expect((await create(member, 'member-ci')).status).toBe(201);
    const refused = await create(outsider, 'outsider-ci');
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ code: 'NOT_FOUND', error: 'Workspace not found' });
  });

  it('refuses a member who was removed', async () => {
    const team = await h.workspace(owner, 'Short-lived');
    const memberId = await h.addMember(owner, team, { email: member.email });
    const before = await h
      .http()
      .post('/api/bearer-tokens')
      .set(bearer(member.token))
      .send({ name: 'before-removal', workspaceId: team });
    expect(before.status).toBe(201);
    const removed = await h
      .http()
      .delete(`/api/workspaces/${team}/members/${memberId}`)
      .set(bearer(owner.token));
    expect(removed.status).toBe(200);
    const after = await h
      .http()
      .post('/api/bearer-tokens')
      .set(bearer(member.token))
      .send({ name: 'after-removal', workspaceId: team });
    expect(after.status).toBe(404);
  });
});
