import { createHmac, timingSafeEqual, type KeyObject } from 'node:crypto';

/** The header segment of every token `TokenService.issue` signs: `{"alg":"HS256","typ":"JWT"}`. */
export const OWN_HEADER_SEGMENT = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString(
  'base64url',
);

/** What the fast check concluded. `unknown`: not a token of the usual shape, ask jsonwebtoken. */
export type Hs256Outcome =
  | { kind: 'valid'; payload: Record<string, unknown> }
  | { kind: 'invalid' }
  | { kind: 'expired' }
  | { kind: 'unknown' };

const INVALID: Hs256Outcome = { kind: 'invalid' };
const EXPIRED: Hs256Outcome = { kind: 'expired' };
const UNKNOWN: Hs256Outcome = { kind: 'unknown' };

/**
 * Verifies a token with exactly the header this service issues, the way jsonwebtoken does for
 * HS256 (signature over `header.payload`, compared in constant time; `nbf` and `exp` against the
 * current second, no tolerance), without its per-call decoding layers and option handling, which
 * cost most of a request's token check. Anything else (another header, a payload that is not a
 * JSON object) is `unknown`: the caller hands it to jsonwebtoken, whose verdict is the reference.
 */
export function verifyOwnHs256(token: string, key: KeyObject, nowSec: number): Hs256Outcome {
  const firstDot = token.indexOf('.');
  const secondDot = firstDot === -1 ? -1 : token.indexOf('.', firstDot + 1);
  if (secondDot === -1 || token.indexOf('.', secondDot + 1) !== -1) return UNKNOWN;
  if (firstDot !== OWN_HEADER_SEGMENT.length || !token.startsWith(OWN_HEADER_SEGMENT)) return UNKNOWN;

  const expected = createHmac('sha256', key).update(token.slice(0, secondDot)).digest('base64url');
  const given = token.slice(secondDot + 1);
  if (given.length !== expected.length) return INVALID;
  if (!timingSafeEqual(Buffer.from(given, 'latin1'), Buffer.from(expected, 'latin1'))) return INVALID;

  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(token.slice(firstDot + 1, secondDot), 'base64url').toString('utf8'));
  } catch {
    return UNKNOWN;
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return UNKNOWN;
  const claims = payload as Record<string, unknown>;
  if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || claims.nbf > nowSec)) return INVALID;
  if (claims.exp !== undefined) {
    if (typeof claims.exp !== 'number') return INVALID;
    if (nowSec >= claims.exp) return EXPIRED;
  }
  return { kind: 'valid', payload: claims };
}
