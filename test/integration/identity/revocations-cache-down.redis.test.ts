import type { RevocationBroadcasts } from '../../../actors/identity/revocation-feed';
import { TokenService } from '../../../actors/identity/token-service';
import { RedisCache } from '../../../src/store/cache';
import { sleep, waitFor } from '../../support/async';
import { describeWithService } from '../../support/services';
import { startTcpProxyTo, type TcpProxy } from '../../support/tcp-proxy';

const SECRET = 'd'.repeat(32);
const TOKEN_TTL_MS = 60_000;

/** A node that hears no broadcast: only the cache log (or a cache read) can tell it. */
const deaf: RevocationBroadcasts = {
  broadcast: async () => undefined,
  onBroadcast: () => () => undefined,
};

/**
 * A node whose revocation sync went stale because its cache became unreachable: it must not trust
 * its in-memory list, and the cache read it falls back to fails, so every check fails closed with
 * UNAVAILABLE (503) — a token revoked meanwhile by another node is never accepted.
 */
describeWithService('redis', 'token revocations when the cache is unreachable (Redis)', (redisUrl) => {
  let proxy: TcpProxy;
  const caches: RedisCache[] = [];
  const services: TokenService[] = [];

  beforeEach(async () => {
    proxy = await startTcpProxyTo(redisUrl, 6379);
  });

  afterEach(async () => {
    for (const s of services.splice(0)) s.close();
    for (const c of caches.splice(0)) await c.close();
    await proxy.close();
  });

  async function node(url: string, broadcasts: RevocationBroadcasts) {
    const cache = await RedisCache.connect(url, { maxReconnectDelayMs: 100 });
    caches.push(cache);
    const tokens = new TokenService(SECRET, cache, TOKEN_TTL_MS, {
      broadcasts,
      sync: { syncIntervalMs: 50, staleAfterMs: 300, gapWaitMs: 200 },
    });
    services.push(tokens);
    await tokens.warm();
    return tokens;
  }

  it('fails closed with UNAVAILABLE once its sync is stale, and refuses the revoked token after recovery', async () => {
    const revoker = await node(redisUrl, deaf);
    const cut = await node(proxy.url(redisUrl), deaf);
    const revoked = revoker.issue({ sub: 'agt_cachedown_1', typ: 'agent' });
    const other = revoker.issue({ sub: 'agt_cachedown_2', typ: 'agent' });

    // Synced: the list alone answers (awaited: on a loaded machine a sync may be late past
    // `staleAfterMs`, and the check then asks the cache, which is still up).
    expect(await cut.check(revoked.token)).toMatchObject({ jti: revoked.jti });

    await proxy.cut();
    await revoker.revoke(revoked.jti, revoked.expiresAt);
    // Past `staleAfterMs` without a complete sync: the node goes back to the cache, which is down.
    await sleep(500);
    await expect(cut.verify(revoked.token)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    await expect(cut.verify(other.token)).rejects.toMatchObject({ code: 'UNAVAILABLE' });

    await proxy.restore();
    await waitFor(async () => {
      try {
        await cut.verify(revoked.token);
        return false;
      } catch (err) {
        return (err as Error).message === 'Bearer token revoked';
      }
    }, 'the revoked token refused after the cache came back');
    await expect(cut.verify(other.token)).resolves.toMatchObject({ jti: other.jti });
  });

  it('skips a malformed cache log entry and a malformed broadcast, and keeps syncing', async () => {
    const listeners: Array<(body: unknown) => void> = [];
    const listening: RevocationBroadcasts = {
      broadcast: async () => undefined,
      onBroadcast: (_type, listener) => {
        listeners.push(listener as (body: unknown) => void);
        return () => undefined;
      },
    };
    const revoker = await node(redisUrl, deaf);
    const reader = await node(redisUrl, listening);
    const issued = revoker.issue({ sub: 'agt_cachedown_4', typ: 'agent' });

    // Entries the feed cannot read: not JSON, and JSON of the wrong shape.
    const raw = caches[0]!;
    for (const value of ['not json {', JSON.stringify({ kind: 'token' })]) {
      const seq = await raw.incr('auth:revocations:seq');
      await raw.set(`auth:revocations:log:${seq}`, value, { ttlMs: 60_000 });
    }
    for (const listener of listeners) listener({ kind: 'subject', subject: 42 });
    expect(await reader.check(issued.token)).toMatchObject({ jti: issued.jti });

    await revoker.revoke(issued.jti, issued.expiresAt);
    await waitFor(() => {
      try {
        reader.check(issued.token);
        return false;
      } catch (err) {
        return (err as Error).message === 'Bearer token revoked';
      }
    }, 'the revocation after the malformed entries synced');
  });

  it('fails closed with UNAVAILABLE when the cache is unreachable from the start', async () => {
    const issuer = await node(redisUrl, deaf);
    await proxy.cut();
    const down = await node(proxy.url(redisUrl), deaf);
    const issued = issuer.issue({ sub: 'agt_cachedown_3', typ: 'agent' });
    await expect(down.verify(issued.token)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });
});
