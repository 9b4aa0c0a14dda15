import { randomBytes } from 'node:crypto';
import { membershipEpochsCollection } from '../../../actors/workspaces/membership-epochs.collection';
import { accountsCollection } from '../../../actors/identity/accounts.collection';
import { startTcpProxyTo, type TcpProxy } from '../../support/tcp-proxy';
import { describeWithService } from '../../support/services';
import { waitFor } from '../../support/async';
import {
  bearer,
  startWorkspaceHarness,
  type TestAccount,
  type WorkspaceHarness,
} from './support/workspace-harness';

/**
 * Membership reads (docs/workspaces.md, "Cache") when only Redis is unreachable, over HTTP against
 * the real Redis behind a TCP proxy: the listings keep answering 200 from the document store, a
 * member removed during the outage loses the workspace at once, and does not get it back when
 * Redis returns with the list it cached before the outage; then the listings use the cache again.
 *
 * While Redis is cut the bearer tokens are accepted only within the revocation feed's freshness
 * bound (3 s: docs/authentication.md); the checks made during the cut fit well inside it.
 */
describeWithService('redis', 'workspace membership with the cache unreachable', (redisUrl) => {
  let proxy: TcpProxy;
  let h: WorkspaceHarness;
  let a: TestAccount;
  let b: TestAccount;
  let ws: string;
  let memberB: string;
  const tag = `cd${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    proxy = await startTcpProxyTo(redisUrl, 6379);
    h = await startWorkspaceHarness({ REDIS_URL: proxy.url(redisUrl) });
    [a, b] = await Promise.all([h.account(), h.account()]);
    ws = await h.workspace(a, 'cache-down');
    memberB = await h.addMember(a, ws, { email: b.email });
    const file = await h
      .http()
      .post('/api/files')
      .set(bearer(a.token))
      .send({ path: `${tag}/shared.txt`, data: 'shared', visibility: 'workspace', workspaceId: ws });
    expect(file.status).toBe(201);
    const mem = await h
      .http()
      .post('/api/memory')
      .set(bearer(a.token))
      .send({ key: `${tag}-shared`, content: 1, visibility: 'workspace', workspaceId: ws, tags: [tag] });
    expect(mem.status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
    await proxy?.close();
  });

  /** What B's listings show of the workspace: its id, the shared file, the shared memory entry. */
  async function seenByB() {
    const get = (url: string, query: Record<string, string> = {}) =>
      h.http().get(url).query(query).set(bearer(b.token)).timeout(5_000);
    const [workspaces, files, memory] = await Promise.all([
      get('/api/workspaces'),
      get('/api/files', { prefix: tag }),
      get('/api/memory', { search: tag }),
    ]);
    return {
      status: [workspaces.status, files.status, memory.status],
      workspace: workspaces.body.workspaces?.some((w: { id: string }) => w.id === ws),
      file: files.body.entries?.some((e: { path: string }) => e.path === `${tag}/shared.txt`),
      memory: memory.body.entries?.some((e: { key: string }) => e.key === `${tag}-shared`),
    };
  }

  const cachedListOfB = async () => {
    const account = await h.runtime.documents.repository(accountsCollection).findOne({ email: b.email });
    const raw = await h.runtime.cache.get(`wsm:list:account:${account!._id}`);
    return raw === null ? null : (JSON.parse(raw) as { epoch?: number; ids: string[] });
  };
  const epochNow = async () =>
    (await h.runtime.documents.repository(membershipEpochsCollection).findById('membership'))?.epoch ?? 0;

  it('answers 200 from the documents while Redis is cut; a removal then takes effect and holds after', async () => {
    const member = { status: [200, 200, 200], workspace: true, file: true, memory: true };
    const outsider = { status: [200, 200, 200], workspace: false, file: false, memory: false };
    expect(await seenByB()).toEqual(member); // B's list is in Redis now
    expect((await cachedListOfB())?.ids).toContain(ws);
    const epochBefore = await epochNow();

    await proxy.cut();
    expect(await seenByB()).toEqual(member);
    const one = await h.http().get(`/api/workspaces/${ws}`).set(bearer(b.token)).timeout(5_000);
    expect(one.status).toBe(200);
    const removed = await h
      .http()
      .delete(`/api/workspaces/${ws}/members/${memberB}`)
      .set(bearer(a.token))
      .timeout(5_000);
    expect(removed.status).toBe(200);
    expect(await seenByB()).toEqual(outsider); // at once
    const refused = await h
      .http()
      .post('/api/files')
      .set(bearer(b.token))
      .send({ path: 'x.txt', data: 'x', workspaceId: ws })
      .timeout(5_000);
    expect(refused.status).toBe(404);
    expect(await epochNow()).toBe(epochBefore + 1);

    await proxy.restore();
    await waitFor(async () => (await h.runtime.cache.status()).state === 'up', 'redis back', 10_000, 50);
    // Redis still holds B's list from before the outage (the removal could not delete it)...
    expect((await cachedListOfB())?.ids).toContain(ws);
    await waitFor(
      async () => (await h.http().get('/api/workspaces').set(bearer(b.token))).status === 200,
      'the listing answering with Redis back',
      10_000,
      50,
    );
    // ... and it is never served: B stays removed on every read, until (for a second after the
    // last failure, reads skip the cache) the list is read through the cache again, found stale
    // and replaced by the one from the documents, under the new epoch.
    await waitFor(
      async () => {
        expect(await seenByB()).toEqual(outsider);
        return (await cachedListOfB())?.epoch === epochBefore + 1;
      },
      'the list cached again under the new epoch',
      10_000,
      100,
    );
    expect((await cachedListOfB())?.ids).not.toContain(ws);
    expect(await seenByB()).toEqual(outsider);

    // Changes reach the cache again: added back, B sees the workspace at once.
    memberB = await h.addMember(a, ws, { email: b.email });
    expect(await seenByB()).toEqual(member);
    expect(await epochNow()).toBe(epochBefore + 1);
  });
});
