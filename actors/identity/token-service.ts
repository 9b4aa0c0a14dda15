import { randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { TokenClaimsSchema, type TokenClaims } from '../../schemas/auth';
import { AppError, errors } from '../../schemas/errors';
import type { CachePort } from '../../src/store/cache';

/** Bearer tokens live 90 days (spec). */
export const BEARER_TOKEN_TTL_MS = 90 * 24 * 60 * 60 * 1000;
/** The human form the spec returns beside a token. */
export const BEARER_EXPIRES_IN = '90 days';

const REVOKED_PREFIX = 'auth:revoked:';

export interface IssueInput {
  sub: string;
  typ: TokenClaims['typ'];
  tid?: string;
  acc?: string;
  scopes?: TokenClaims['scopes'];
}

export interface IssuedToken {
  token: string;
  jti: string;
  expiresAt: Date;
}

/**
 * Issues and verifies the service's bearer tokens: HS256 JWTs, 90 days, verified with an explicit
 * algorithm list. Revocation is a key in the cache (Redis in production) kept until the token's own
 * expiry, so checking it costs one cache read, never a document read per call.
 */
export class TokenService {
  constructor(
    private readonly secret: string,
    private readonly cache: CachePort,
    private readonly ttlMs: number = BEARER_TOKEN_TTL_MS,
  ) {}

  issue(input: IssueInput): IssuedToken {
    const jti = randomBytes(16).toString('base64url');
    const nowSec = Math.floor(Date.now() / 1000);
    const exp = nowSec + Math.floor(this.ttlMs / 1000);
    const claims: Record<string, unknown> = { sub: input.sub, typ: input.typ, jti, iat: nowSec, exp };
    if (input.tid) claims.tid = input.tid;
    if (input.acc) claims.acc = input.acc;
    if (input.scopes) claims.scopes = input.scopes;
    const token = jwt.sign(claims, this.secret, { algorithm: 'HS256', noTimestamp: true });
    return { token, jti, expiresAt: new Date(exp * 1000) };
  }

  /** Checks signature, expiry and revocation. Any failure is UNAUTHORIZED with a generic message. */
  async verify(token: string): Promise<TokenClaims> {
    let decoded: unknown;
    try {
      decoded = jwt.verify(token, this.secret, { algorithms: ['HS256'] });
    } catch (err) {
      const expired = err instanceof jwt.TokenExpiredError;
      throw errors.unauthorized(expired ? 'Bearer token expired' : 'Invalid bearer token');
    }
    const parsed = TokenClaimsSchema.safeParse(decoded);
    if (!parsed.success) throw errors.unauthorized('Invalid bearer token');
    if ((await this.cache.get(REVOKED_PREFIX + parsed.data.jti)) !== null) {
      throw errors.unauthorized('Bearer token revoked');
    }
    return parsed.data;
  }

  /** Refuses the token with this `jti` from now on, everywhere, until it would have expired anyway. */
  async revoke(jti: string, expiresAt: Date): Promise<void> {
    const ttlMs = Math.max(1000, expiresAt.getTime() - Date.now());
    await this.cache.set(REVOKED_PREFIX + jti, '1', { ttlMs });
  }

  /** Whether a thrown value is this service's refusal (for callers that map it). */
  static isRefusal(err: unknown): err is AppError {
    return err instanceof AppError && err.code === 'UNAUTHORIZED';
  }
}
