import { createDecipheriv } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { ClaimsSealer } from '../../../actors/identity/sealed-claims';
import { TokenService } from '../../../actors/identity/token-service';
import { MemoryCache } from '../../../src/store/cache';

const SECRET = 's'.repeat(32);
const INTERNAL_ID = /\b(acc|agt|ws|tok|ntk)_[A-Za-z0-9]/;

/** The decoded payload of a JWT, as anyone holding it can read it. */
const readable = (token: string) => jwt.decode(token) as Record<string, unknown>;

describe('sealed token claims (no internal id readable in a token)', () => {
  const tokens = new TokenService(SECRET, new MemoryCache());

  it.each([
    ['an account token', { sub: 'acc_0123456789abcdef', typ: 'account' as const }],
    ['an agent key', { sub: 'agt_0123456789abcdef', typ: 'agent' as const, acc: 'acc_0123456789abcdef' }],
    [
      'a named token',
      {
        sub: 'acc_0123456789abcdef',
        typ: 'named' as const,
        tid: 'ntk_0123456789abcdef01234567',
        acc: 'acc_0123456789abcdef',
        scopes: ['api' as const],
      },
    ],
  ])('%s shows only jti, iat, exp and a ciphertext; verify gives the claims back', async (_label, input) => {
    const issued = tokens.issue(input);
    const payload = readable(issued.token);
    expect(Object.keys(payload).sort()).toEqual(['enc', 'exp', 'iat', 'jti']);
    expect(Buffer.from(issued.token.split('.')[1], 'base64url').toString()).not.toMatch(INTERNAL_ID);
    expect(issued.token).not.toMatch(/acc_|agt_|ntk_/);
    await expect(tokens.verify(issued.token)).resolves.toMatchObject({ ...input, jti: issued.jti });
  });

  it('refuses a sealed part moved into another token, altered, or sealed under another secret', async () => {
    const a = tokens.issue({ sub: 'acc_a', typ: 'account' });
    const b = tokens.issue({ sub: 'acc_b', typ: 'account' });
    const sign = (payload: object) => jwt.sign(payload, SECRET, { algorithm: 'HS256', noTimestamp: true });
    const pa = readable(a.token);
    const pb = readable(b.token);
    // Signed with the right secret (an insider's forgery), yet the ciphertext is bound to its jti.
    await expect(tokens.verify(sign({ ...pa, enc: pb.enc }))).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    const enc = Buffer.from(pa.enc as string, 'base64url');
    enc[14] ^= 1;
    await expect(tokens.verify(sign({ ...pa, enc: enc.toString('base64url') }))).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
    const foreign = new ClaimsSealer('another secret of 32 characters!').seal(pa.jti as string, {
      sub: 'acc_x',
    });
    await expect(tokens.verify(sign({ ...pa, enc: foreign }))).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
    await expect(tokens.verify(sign({ ...pa, enc: 'short' }))).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
    await expect(tokens.verify(sign({ ...pa, enc: 42 }))).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('still accepts a token issued before claims were sealed (plain sub), until it expires', async () => {
    const nowSec = Math.floor(Date.now() / 1000);
    const legacy = jwt.sign(
      { sub: 'acc_legacy', typ: 'account', jti: 'legacy-1', iat: nowSec, exp: nowSec + 60 },
      SECRET,
      {
        algorithm: 'HS256',
      },
    );
    await expect(tokens.verify(legacy)).resolves.toMatchObject({ sub: 'acc_legacy', iatMs: nowSec * 1000 });
  });

  it('derives its key from the secret: the signing key does not open the seal', () => {
    const sealer = new ClaimsSealer(SECRET);
    const sealed = sealer.seal('j', { sub: 'acc_1' });
    expect(sealer.open('j', sealed)).toEqual({ sub: 'acc_1' });
    expect(sealer.open('k', sealed)).toBeUndefined();
    // The raw secret (the HMAC key) does not open it: the sealing key is derived apart.
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', Buffer.from(SECRET), raw.subarray(0, 12));
    decipher.setAAD(Buffer.from('j'));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    decipher.update(raw.subarray(12, raw.length - 16));
    expect(() => decipher.final()).toThrow();
  });
});
