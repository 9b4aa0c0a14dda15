import { waitFor } from '../../support/async';
import { describeWithService } from '../../support/services';
import { startTcpProxyTo, type TcpProxy } from '../../support/tcp-proxy';
import {
  bearer,
  startWorkspaceHarness,
  type WorkspaceHarness,
} from '../workspaces/support/workspace-harness';

/**
 * A tool call on the cache while the cache (Redis) is unreachable: a clear 503 UNAVAILABLE soon
 * (the agent actor retries an unavailable dependency only briefly), never a 500 or a long wait,
 * and the same call works again once Redis is back. What was stored before is still there.
 */
describeWithService('redis', '/mcp with the cache unreachable', (redisUrl) => {
  let proxy: TcpProxy;
  let h: WorkspaceHarness;

  beforeAll(async () => {
    proxy = await startTcpProxyTo(redisUrl, 6379);
    h = await startWorkspaceHarness({ REDIS_URL: proxy.url(redisUrl) });
  });

  afterAll(async () => {
    await h?.stop();
    await proxy?.close();
  });

  it('answers 503 UNAVAILABLE within about a second while Redis is cut, and the value afterwards', async () => {
    const owner = await h.account();
    const call = (tool: string, input: Record<string, unknown>) =>
      h.http().post('/mcp').set(bearer(owner.token)).send({ tool, input }).timeout(10_000);
    const key = `k-${Date.now()}`;
    expect((await call('mem_set', { key, value: 'kept', ttl: 600 })).body).toEqual({
      success: true,
      result: true,
    });

    await proxy.cut();
    const started = Date.now();
    const down = await call('mem_get', { key });
    const elapsed = Date.now() - started;
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ code: 'UNAVAILABLE' });
    expect(typeof down.body.error).toBe('string');
    // Four attempts with backoff ceilings of 50, 100 and 200 ms: well under 2 s even on a busy
    // machine (the default ten attempts took about 6 s).
    expect(elapsed).toBeLessThan(2_500);

    await proxy.restore();
    await waitFor(
      async () => (await call('mem_get', { key })).status === 200,
      'the cache answering again',
      10_000,
      100,
    );
    expect((await call('mem_get', { key })).body).toEqual({
      success: true,
      result: { value: 'kept', found: true },
    });
  });
});
