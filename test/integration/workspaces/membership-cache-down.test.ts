import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy';
import { describeWithService } from '../../support/services';
import { waitFor } from '../../support/async';
import { bearer, startWorkspaceHarness, type WorkspaceHarness } from './support/workspace-harness';

/**
 * Membership reads (docs/workspaces.md, "Cache") when the cache is unreachable: the listing of a
 * caller's workspaces reads its cached list first, so with Redis cut the answer must be a clear
 * 503 UNAVAILABLE (never a 500, never a hang), and the service answers again once Redis is back.
 */
describeWithService('redis', 'workspace membership with the cache unreachable', (redisUrl) => {
  let proxy: TcpProxy;
  let h: WorkspaceHarness;

  beforeAll(async () => {
    const target = new URL(redisUrl);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 6379));
    h = await startWorkspaceHarness({ REDIS_URL: proxy.url(redisUrl) });
  });

  afterAll(async () => {
    await h?.stop();
    await proxy?.close();
  });

  it('answers 503 (not 500) while Redis is cut, and 200 once it is back', async () => {
    const owner = await h.account();
    const wsId = await h.workspace(owner, 'cache-down');
    const listed = await h.http().get('/api/workspaces').set(bearer(owner.token));
    expect(listed.status).toBe(200);

    await proxy.cut();
    const down = await h.http().get('/api/workspaces').set(bearer(owner.token)).timeout(10_000);
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ code: 'UNAVAILABLE' });
    // Within the revocation list's freshness bound the bearer is still accepted: the 503 comes from
    // the cached membership read, while the authoritative one (no cache) still answers.
    const one = await h.http().get(`/api/workspaces/${wsId}`).set(bearer(owner.token)).timeout(10_000);
    expect(one.status).toBe(200);

    await proxy.restore();
    await waitFor(
      async () => (await h.http().get('/api/workspaces').set(bearer(owner.token))).status === 200,
      'the listing answering again',
      10_000,
      100,
    );
    const back = await h.http().get('/api/workspaces').set(bearer(owner.token));
    expect(JSON.stringify(back.body)).toContain(wsId);
  });
});
