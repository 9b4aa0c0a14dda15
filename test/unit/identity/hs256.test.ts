import { createHmac, createSecretKey } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { OWN_HEADER_SEGMENT, verifyOwnHs256 } from '../../../actors/identity/hs256';
import { TokenService } from '../../../actors/identity/token-service';
import { MemoryCache } from '../../../src/store/cache';

const SECRET = 'h'.repeat(32);
const key = createSecretKey(Buffer.from(SECRET, 'utf8'));
const now = () => Math.floor(Date.now() / 1000);
const sign = (payload: object, options: jwt.SignOptions = {}) =>
  jwt.sign(payload, key, { algorithm: 'HS256', ...options });
/** Signed by hand: jsonwebtoken refuses to sign some of the malformed claims tested here. */
const signRaw = (payload: object) => {
  const input = `${OWN_HEADER_SEGMENT}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
};

/** The fast HS256 check agrees with jsonwebtoken, or hands the token to it (`unknown`). */
describe('verifyOwnHs256', () => {
  it('accepts what TokenService issues, with the claims', () => {
    const issued = new TokenService(SECRET, new MemoryCache()).issue({ sub: 'agt_1', typ: 'agent' });
    expect(issued.token.startsWith(`${OWN_HEADER_SEGMENT}.`)).toBe(true);
    const outcome = verifyOwnHs256(issued.token, key, now());
    expect(outcome).toMatchObject({ kind: 'valid', payload: { jti: issued.jti, enc: expect.any(String) } });
    // The subject is sealed: the payload names no internal id.
    expect(outcome.kind === 'valid' && Object.keys(outcome.payload).sort()).toEqual([
      'enc',
      'exp',
      'iat',
      'jti',
    ]);
  });

  it('refuses a changed payload or signature, and another secret', () => {
    const token = sign({ sub: 'a', exp: now() + 60 });
    const [h, p, s] = token.split('.');
    const otherPayload = Buffer.from(JSON.stringify({ sub: 'b', exp: now() + 60 })).toString('base64url');
    expect(verifyOwnHs256(`${h}.${otherPayload}.${s}`, key, now()).kind).toBe('invalid');
    expect(verifyOwnHs256(`${h}.${p}.${s.slice(0, -2)}AA`, key, now()).kind).toBe('invalid');
    expect(verifyOwnHs256(`${h}.${p}.${s}x`, key, now()).kind).toBe('invalid');
    const foreign = jwt.sign({ sub: 'a' }, 'x'.repeat(32), { algorithm: 'HS256' });
    expect(verifyOwnHs256(foreign, key, now()).kind).toBe('invalid');
  });

  it('tells expired tokens and refuses tokens not valid yet, like jsonwebtoken', () => {
    expect(verifyOwnHs256(sign({ sub: 'a', exp: now() }), key, now()).kind).toBe('expired');
    expect(verifyOwnHs256(sign({ sub: 'a', nbf: now() + 60 }), key, now()).kind).toBe('invalid');
    expect(verifyOwnHs256(signRaw({ sub: 'a', exp: 'soon' }), key, now()).kind).toBe('invalid');
  });

  it('hands any other shape to jsonwebtoken (another header, alg none, not three parts)', () => {
    expect(verifyOwnHs256(sign({ sub: 'a' }, { keyid: 'k1' }), key, now()).kind).toBe('unknown');
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from('{}').toString('base64url')}.`;
    expect(verifyOwnHs256(none, key, now()).kind).toBe('unknown');
    expect(verifyOwnHs256('a.b', key, now()).kind).toBe('unknown');
    expect(verifyOwnHs256('a.b.c.d', key, now()).kind).toBe('unknown');
  });

  it('gives TokenService the same verdicts as before (expired, tampered, foreign header)', async () => {
    const tokens = new TokenService(SECRET, new MemoryCache(), 1000);
    const expired = sign({ sub: 'acc_1', typ: 'account', jti: 'j', iat: now() - 10, exp: now() - 1 });
    await expect(tokens.verify(expired)).rejects.toMatchObject({ message: 'Bearer token expired' });
    const withKid = sign(
      { sub: 'acc_1', typ: 'account', jti: 'j', iat: now(), exp: now() + 60 },
      { keyid: 'k' },
    );
    await expect(tokens.verify(withKid)).resolves.toMatchObject({ sub: 'acc_1' });
    const [h, , s] = withKid.split('.');
    const forged = `${h}.${Buffer.from('{"sub":"acc_2","typ":"account","jti":"j","iat":1,"exp":9999999999}').toString('base64url')}.${s}`;
    await expect(tokens.verify(forged)).rejects.toMatchObject({ message: 'Invalid bearer token' });
  });
});
