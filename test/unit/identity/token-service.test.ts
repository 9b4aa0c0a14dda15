import {
  TokenService,
  VERIFIED_TOKENS_MAX,
  type RevocationRecord,
  type RevocationStore,
} from '../../../actors/identity/token-service';
import { MemoryCache } from '../../../src/store/cache';

const SECRET = 'k'.repeat(32);

/** An in-memory RevocationStore standing in for `revoked_tokens`. */
class ArrayStore implements RevocationStore {
  readonly records: RevocationRecord[] = [];
  async save(record: RevocationRecord) {
    this.records.push(record);
  }
  async *active(now: Date) {
    for (const r of this.records) if (r.expiresAt > now) yield r;
  }
}

describe('TokenService', () => {
  it('issues tokens with iat, exp 90 days out and the given claims', async () => {
    const tokens = new TokenService(SECRET, new MemoryCache());
    const issued = tokens.issue({ sub: 'acc_1', typ: 'named', tid: 't1', acc: 'acc_1', scopes: ['api'] });
    const claims = await tokens.verify(issued.token);
    expect(claims).toMatchObject({
      sub: 'acc_1',
      typ: 'named',
      tid: 't1',
      acc: 'acc_1',
      scopes: ['api'],
      jti: issued.jti,
    });
    expect(claims.exp - claims.iat).toBe(90 * 24 * 3600);
    expect(issued.expiresAt.getTime()).toBe(claims.exp * 1000);
  });

  it('remembers a verified token, yet still refuses it expired, revoked or altered', async () => {
    const tokens = new TokenService(SECRET, new MemoryCache(), 60_000);
    const issued = tokens.issue({ sub: 'agt_1', typ: 'agent', scopes: ['api'] });
    const first = await tokens.verify(issued.token);
    // The same claims object for the same token: the second check did not decode it again.
    expect(await tokens.verify(issued.token)).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.scopes)).toBe(true);

    // Another token differing in one signature character is checked in full and refused.
    const last = issued.token.at(-1) === 'A' ? 'B' : 'A';
    await expect(tokens.verify(issued.token.slice(0, -1) + last)).rejects.toMatchObject({
      message: 'Invalid bearer token',
    });

    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 61_000);
    try {
      await expect(tokens.verify(issued.token)).rejects.toMatchObject({ message: 'Bearer token expired' });
    } finally {
      clock.mockRestore();
    }

    const other = tokens.issue({ sub: 'agt_2', typ: 'agent' });
    await tokens.verify(other.token);
    await tokens.revoke(other.jti, other.expiresAt);
    await expect(tokens.verify(other.token)).rejects.toMatchObject({ message: 'Bearer token revoked' });
  });

  it('remembers at most VERIFIED_TOKENS_MAX tokens, the oldest leaving first', async () => {
    const tokens = new TokenService(SECRET, new MemoryCache());
    const first = tokens.issue({ sub: 'agt_0', typ: 'agent' }).token;
    const firstClaims = await tokens.verify(first);
    for (let i = 1; i <= VERIFIED_TOKENS_MAX; i++)
      await tokens.verify(tokens.issue({ sub: `agt_${i}`, typ: 'agent' }).token);
    const again = await tokens.verify(first);
    expect(again).toEqual(firstClaims); // still valid, checked in full again
    expect(again).not.toBe(firstClaims);
  });

  it('refuses tokens signed with "none" or another algorithm', async () => {
    const tokens = new TokenService(SECRET, new MemoryCache());
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const body = Buffer.from(
      JSON.stringify({ sub: 'acc_1', typ: 'account', jti: 'j', iat: now, exp: now + 60 }),
    ).toString('base64url');
    await expect(tokens.verify(`${header}.${body}.`)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('persists revocations and warms a fresh cache from them', async () => {
    const store = new ArrayStore();
    const first = new TokenService(SECRET, new MemoryCache(), undefined, { revocations: store });
    const revoked = first.issue({ sub: 'acc_1', typ: 'account' });
    const cutOff = first.issue({ sub: 'acc_2', typ: 'account' });
    await first.revoke(revoked.jti, revoked.expiresAt);
    await first.revokeSubjectBefore('acc_2', new Date(Date.now() + 1000));
    expect(store.records.map((r) => r.kind)).toEqual(['token', 'subject']);

    const restarted = new TokenService(SECRET, new MemoryCache(), undefined, { revocations: store });
    await expect(restarted.verify(revoked.token)).resolves.toBeTruthy(); // not warmed yet
    expect(await restarted.warm()).toBe(2);
    await expect(restarted.verify(revoked.token)).rejects.toMatchObject({ message: 'Bearer token revoked' });
    await expect(restarted.verify(cutOff.token)).rejects.toMatchObject({ message: 'Bearer token revoked' });
  });

  it('keeps a revocation even when the bounded memory cache evicts its key', async () => {
    const cache = new MemoryCache({ maxEntries: 10 });
    const tokens = new TokenService(SECRET, cache);
    const issued = tokens.issue({ sub: 'acc_1', typ: 'account' });
    await tokens.revoke(issued.jti, issued.expiresAt);
    for (let i = 0; i < 50; i++) await cache.set(`filler:${i}`, 'x');
    expect(await cache.get(`auth:revoked:${issued.jti}`)).toBeNull();
    await expect(tokens.verify(issued.token)).rejects.toMatchObject({ message: 'Bearer token revoked' });
  });

  it('never moves a cutoff back', async () => {
    const cache = new MemoryCache();
    const tokens = new TokenService(SECRET, cache);
    await tokens.revokeSubjectBefore('acc_1', new Date(Date.now() + 5000));
    await tokens.revokeSubjectBefore('acc_1', new Date(Date.now() - 5000));
    expect(Number(await cache.get('auth:cutoff-ms:acc_1'))).toBeGreaterThan(Date.now());
  });

  describe('same-second revocation', () => {
    // A clock pinned inside one second, moving a few ms per step (what a reset right after a
    // sign-in looks like); whole seconds of `iat` cannot tell the two tokens apart.
    const SECOND = 1_800_000_000_000;
    let now = SECOND + 100;
    beforeEach(() => {
      now = SECOND + 100;
      jest.spyOn(Date, 'now').mockImplementation(() => now);
    });
    afterEach(() => jest.restoreAllMocks());

    it('refuses a token minted in the second of the cutoff, before it', async () => {
      const tokens = new TokenService(SECRET, new MemoryCache());
      const before = tokens.issue({ sub: 'acc_same', typ: 'account' });
      now += 5;
      await tokens.revokeSubjectBefore('acc_same');
      now += 5;
      const after = tokens.issue({ sub: 'acc_same', typ: 'account' });
      expect(Math.floor(now / 1000)).toBe(SECOND / 1000);
      await expect(tokens.verify(before.token)).rejects.toMatchObject({ message: 'Bearer token revoked' });
      await expect(tokens.verify(after.token)).resolves.toMatchObject({ sub: 'acc_same' });
    });

    it('tells tokens apart within one millisecond: before the cutoff refused, after it kept', async () => {
      const tokens = new TokenService(SECRET, new MemoryCache());
      const before = tokens.issue({ sub: 'acc_ms', typ: 'account' });
      await tokens.revokeSubjectBefore('acc_ms');
      const after = tokens.issue({ sub: 'acc_ms', typ: 'account' });
      await expect(tokens.verify(before.token)).rejects.toMatchObject({ message: 'Bearer token revoked' });
      await expect(tokens.verify(after.token)).resolves.toMatchObject({ sub: 'acc_ms' });
    });

    it('keeps the millisecond cut through the durable store (restart)', async () => {
      const store = new ArrayStore();
      const tokens = new TokenService(SECRET, new MemoryCache(), undefined, { revocations: store });
      const before = tokens.issue({ sub: 'acc_durable', typ: 'account' });
      now += 3;
      await tokens.revokeSubjectBefore('acc_durable');
      now += 3;
      const after = tokens.issue({ sub: 'acc_durable', typ: 'account' });
      const restarted = new TokenService(SECRET, new MemoryCache(), undefined, { revocations: store });
      await restarted.warm();
      await expect(restarted.verify(before.token)).rejects.toMatchObject({ message: 'Bearer token revoked' });
      await expect(restarted.verify(after.token)).resolves.toMatchObject({ sub: 'acc_durable' });
    });
  });
});
