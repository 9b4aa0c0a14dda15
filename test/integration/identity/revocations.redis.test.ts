import { TokenService } from '../../../actors/identity/token-service';
import type { RevocationBroadcasts } from '../../../actors/identity/revocation-feed';
import { RedisCache } from '../../../src/store/cache';
import { eventually } from '../../support/async';
import { describeWithService } from '../../support/services';

const SECRET = 'r'.repeat(32);
/** Tokens of these tests live one minute: their revocation keys and log entries expire with them. */
const TOKEN_TTL_MS = 60_000;

type Listener = (body: unknown) => void;

/** Broadcasts between the "nodes" of a test; a deaf node misses them (a lost broadcast). */
class Bus {
  private readonly nodes: Array<{ deaf: boolean; listeners: Map<string, Set<Listener>> }> = [];

  endpoint(options: { deaf?: boolean } = {}): RevocationBroadcasts {
    const node = { deaf: options.deaf ?? false, listeners: new Map<string, Set<Listener>>() };
    this.nodes.push(node);
    return {
      broadcast: async (type, body) => {
        for (const n of this.nodes) {
          if (n.deaf) continue;
          for (const listener of n.listeners.get(type) ?? []) listener(JSON.parse(JSON.stringify(body)));
        }
      },
      onBroadcast: (type, listener) => {
        const set = node.listeners.get(type) ?? new Set<Listener>();
        set.add(listener as Listener);
        node.listeners.set(type, set);
        return () => set.delete(listener as Listener);
      },
    };
  }
}

/**
 * Revocations without a cache read per request (docs/authentication.md): each node keeps the list
 * of revoked tokens in memory, told at once by a broadcast, and syncs from the cache log for the
 * broadcasts it missed. Each "node" here has its own Redis connection (its own list).
 */
describeWithService('redis', 'token revocations across nodes (Redis)', (redisUrl) => {
  const opened: Array<{ cache: RedisCache; tokens: TokenService }> = [];

  async function node(
    broadcasts: RevocationBroadcasts,
    sync: { syncIntervalMs?: number; staleAfterMs?: number } = {},
    warm = true,
  ) {
    const cache = await RedisCache.connect(redisUrl);
    const tokens = new TokenService(SECRET, cache, TOKEN_TTL_MS, {
      broadcasts,
      sync: { syncIntervalMs: 50, staleAfterMs: 5000, gapWaitMs: 200, ...sync },
    });
    opened.push({ cache, tokens });
    if (warm) await tokens.warm();
    return tokens;
  }

  afterEach(async () => {
    for (const { cache, tokens } of opened.splice(0)) {
      tokens.close();
      await cache.close();
    }
  });

  const refusal = (run: () => unknown) => {
    try {
      const result = run();
      return result instanceof Promise ? 'pending' : 'accepted';
    } catch (err) {
      return (err as Error).message;
    }
  };

  it('refuses a revoked token at once on the node that revoked it and, by broadcast, on the others', async () => {
    const bus = new Bus();
    // No sync during the test: only the broadcast can tell the other node.
    const a = await node(bus.endpoint(), { syncIntervalMs: 60_000 });
    const b = await node(bus.endpoint(), { syncIntervalMs: 60_000 });
    const issued = a.issue({ sub: 'agt_revocation_1', typ: 'agent' });

    // A synced node answers from its list: no promise, so no cache read.
    expect(b.check(issued.token)).toMatchObject({ jti: issued.jti });
    await a.revoke(issued.jti, issued.expiresAt);
    expect(refusal(() => a.check(issued.token))).toBe('Bearer token revoked');
    expect(refusal(() => b.check(issued.token))).toBe('Bearer token revoked');
    await expect(b.verify(issued.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('a node that missed the broadcast refuses the token after its next sync of the cache log', async () => {
    const bus = new Bus();
    const a = await node(bus.endpoint());
    const deaf = await node(bus.endpoint({ deaf: true }));
    const token = a.issue({ sub: 'agt_revocation_2', typ: 'agent' });
    const other = a.issue({ sub: 'agt_revocation_3', typ: 'agent' });
    expect(refusal(() => deaf.check(token.token))).toBe('accepted');

    await a.revoke(token.jti, token.expiresAt);
    await eventually(() => refusal(() => deaf.check(token.token)) === 'Bearer token revoked', 3000);
    expect(refusal(() => deaf.check(other.token))).toBe('accepted');
  });

  it('cuts off an account token issued before a reset, on a node that missed the broadcast', async () => {
    const bus = new Bus();
    const a = await node(bus.endpoint());
    const deaf = await node(bus.endpoint({ deaf: true }));
    const before = a.issue({ sub: 'acc_revocation_4', typ: 'account' });
    await a.revokeSubjectBefore('acc_revocation_4', new Date(Date.now() + 1000));
    expect(refusal(() => a.check(before.token))).toBe('Bearer token revoked');
    await eventually(() => refusal(() => deaf.check(before.token)) === 'Bearer token revoked', 3000);
  });

  it('cuts to the millisecond: a token minted in the second of a reset, before it, is refused by every node', async () => {
    // One second, a few ms per step: whole seconds of `iat` could not tell the tokens apart.
    const second = Math.ceil(Date.now() / 1000) * 1000 + 5000;
    let now = second + 100;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    try {
      const a = await node(new Bus().endpoint());
      // A node without broadcasts (nor a list of its own) reads the cache key on every check.
      const readerCache = await RedisCache.connect(redisUrl);
      const reader = new TokenService(SECRET, readerCache, TOKEN_TTL_MS);
      opened.push({ cache: readerCache, tokens: reader });
      const before = a.issue({ sub: 'acc_revocation_same_second', typ: 'account' });
      now += 4;
      await a.revokeSubjectBefore('acc_revocation_same_second');
      now += 4;
      const after = a.issue({ sub: 'acc_revocation_same_second', typ: 'account' });
      expect(Math.floor(now / 1000)).toBe(second / 1000);
      expect(refusal(() => a.check(before.token))).toBe('Bearer token revoked');
      await expect(reader.verify(before.token)).rejects.toMatchObject({ message: 'Bearer token revoked' });
      await expect(reader.verify(after.token)).resolves.toMatchObject({ sub: 'acc_revocation_same_second' });
      expect(refusal(() => a.check(after.token))).toBe('accepted');
    } finally {
      jest.restoreAllMocks();
    }
  });

  it('reads the cache on every check until the node has synced (never trusts a stale list)', async () => {
    const bus = new Bus();
    const a = await node(bus.endpoint());
    const notStarted = await node(bus.endpoint({ deaf: true }), {}, false);
    const issued = a.issue({ sub: 'agt_revocation_5', typ: 'agent' });
    expect(refusal(() => notStarted.check(issued.token))).toBe('pending');
    await a.revoke(issued.jti, issued.expiresAt);
    // Neither broadcast nor sync reached it: the cache read refuses the token.
    await expect(notStarted.verify(issued.token)).rejects.toMatchObject({ message: 'Bearer token revoked' });
  });
});
