import { startTcpProxyTo, type TcpProxy } from '../../support/tcp-proxy';
import { describeWithService } from '../../support/services';
import { waitFor } from '../../support/async';
import { assertNoLeaks, secretValue, startVaultHarness, type VaultHarness } from './support/vault-harness';

/**
 * The vault's runtime routes with the cache (Redis) unreachable: their rate limits live in the
 * cache, so a grant request then answers a clear 503 UNAVAILABLE (never a 500, never a grant
 * without its limit), nothing stored is touched, and the same request works once Redis is back.
 */
describeWithService('redis', 'vault with the cache unreachable', (redisUrl) => {
  let proxy: TcpProxy;
  let h: VaultHarness;
  const values: string[] = [];

  beforeAll(async () => {
    proxy = await startTcpProxyTo(redisUrl, 6379);
    h = await startVaultHarness({ env: { REDIS_URL: proxy.url(redisUrl) } });
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
    if (h) assertNoLeaks(values, [h.logs.text()], [h.dir]); // the value never in a log or a file
    h?.cleanup();
    await proxy?.close();
  });

  it('answers a runtime-grant request 503 while Redis is cut, and grants it once Redis is back', async () => {
    const owner = await h.account();
    const value = secretValue('CACHEDOWN');
    values.push(value);
    const created = await h.api.post('/api/vault', owner.auth, { name: 'CACHEDOWN_KEY', value });
    expect(created.status).toBe(201);
    expect(
      (
        await h.api.post('/api/vault/assignments', owner.auth, {
          secretId: created.body.secret.id,
          subjectType: 'skill',
          subjectId: 'cachedown-skill',
        })
      ).status,
    ).toBe(201);
    const access = {
      action: 'runtime',
      workspaceId: owner.workspaceId,
      secretName: 'CACHEDOWN_KEY',
      subjectType: 'skill',
      subjectId: 'cachedown-skill',
    };

    await proxy.cut();
    const down = await h.api.post('/api/vault/access', owner.auth, access);
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ code: 'UNAVAILABLE', error: expect.any(String) });
    expect(JSON.stringify(down.body)).not.toContain(value);

    await proxy.restore();
    await waitFor(
      async () => (await h.api.post('/api/vault/access', owner.auth, access)).status === 200,
      'a grant once Redis is back',
      15_000,
      200,
    );
    const listed = await h.api.get('/api/vault', owner.auth);
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).toContain('CACHEDOWN_KEY');
  });
});
