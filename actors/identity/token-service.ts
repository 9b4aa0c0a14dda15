import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { TokenClaimsSchema, type TokenClaims } from '../../schemas/auth';
import { AppError, errors } from '../../schemas/errors';
import type { CachePort } from '../../src/store/cache';

/** Bearer tokens live 90 days (spec). */
export const BEARER_TOKEN_TTL_MS = 90 * 24 * 60 * 60 * 1000;
/** The human form the spec returns beside a token. */
export const BEARER_EXPIRES_IN = '90 days';

const REVOKED_PREFIX = 'auth:revoked:';
const CUTOFF_PREFIX = 'auth:cutoff:';

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

/** One revocation as the durable store keeps it (see `schemas/documents/revoked-token.ts`). */
export type RevocationRecord =
  | { kind: 'token'; jti: string; expiresAt: Date }
  | { kind: 'subject'; subject: string; notBefore: number; expiresAt: Date };

/**
 * Where revocations are kept durably (MongoDB `revoked_tokens`), so that `warm()` can put them back
 * in the cache after a restart. Optional: without it revocations live in the cache only.
 */
export interface RevocationStore {
  save(record: RevocationRecord): Promise<void>;
  /** Every revocation whose `expiresAt` is after `now`. */
  active(now: Date): AsyncIterable<RevocationRecord>;
}

/** Options of `TokenService` beyond the secret, the cache and the lifetime. */
export interface TokenServiceOptions {
  /** Durable copy of revocations. Default: none (cache only). */
  revocations?: RevocationStore;
}

/**
 * Issues and verifies the service's bearer tokens: HS256 JWTs, 90 days, verified with an explicit
 * algorithm list. Revocation is a key in the cache (Redis in production) kept until the token's own
 * expiry, so checking it costs one cache read (one `mget`), never a document read per call.
 *
 * Revocations are also written to the `RevocationStore` (when given) before the cache, and
 * `warm()` copies the active ones back into the cache at boot. With the in-memory cache (one
 * process, LRU-bounded) the service also keeps its own map of revocations, so an evicted cache
 * key can never bring a revoked token back.
 */
export class TokenService {
  private readonly revocations?: RevocationStore;
  /** jti → expiry (ms) and subject → notBefore (s); only for a memory cache (see class doc). */
  private readonly localTokens?: Map<string, number>;
  private readonly localCutoffs?: Map<string, { notBefore: number; expiresAt: number }>;
  /**
   * The secret as a KeyObject, built once: given a string, jsonwebtoken tries to parse it as a
   * public key on every call, which cost about a third of a /mcp request's CPU.
   */
  private readonly key: KeyObject;

  constructor(
    secret: string,
    private readonly cache: CachePort,
    private readonly ttlMs: number = BEARER_TOKEN_TTL_MS,
    options: TokenServiceOptions = {},
  ) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
    this.revocations = options.revocations;
    if (cache.kind === 'memory') {
      this.localTokens = new Map();
      this.localCutoffs = new Map();
    }
  }

  /** Lifetime of the tokens this service issues, in ms. */
  get lifetimeMs(): number {
    return this.ttlMs;
  }

  issue(input: IssueInput): IssuedToken {
    const jti = randomBytes(16).toString('base64url');
    const nowSec = Math.floor(Date.now() / 1000);
    const exp = nowSec + Math.max(1, Math.floor(this.ttlMs / 1000));
    const claims: Record<string, unknown> = { sub: input.sub, typ: input.typ, jti, iat: nowSec, exp };
    if (input.tid) claims.tid = input.tid;
    if (input.acc) claims.acc = input.acc;
    if (input.scopes) claims.scopes = input.scopes;
    // `iat` is in the claims (jsonwebtoken keeps it; `noTimestamp` would delete it).
    const token = jwt.sign(claims, this.key, { algorithm: 'HS256' });
    return { token, jti, expiresAt: new Date(exp * 1000) };
  }

  /** Checks signature, expiry and revocation. Any failure is UNAUTHORIZED with a generic message. */
  async verify(token: string): Promise<TokenClaims> {
    let decoded: unknown;
    try {
      decoded = jwt.verify(token, this.key, { algorithms: ['HS256'] });
    } catch (err) {
      const expired = err instanceof jwt.TokenExpiredError;
      throw errors.unauthorized(expired ? 'Bearer token expired' : 'Invalid bearer token');
    }
    const parsed = TokenClaimsSchema.safeParse(decoded);
    if (!parsed.success) throw errors.unauthorized('Invalid bearer token');
    const claims = parsed.data;
    if (this.isRevokedLocally(claims)) throw errors.unauthorized('Bearer token revoked');
    // Account tokens can also be cut off as a whole (password reset): both keys in one read.
    const keys = [REVOKED_PREFIX + claims.jti];
    if (claims.typ === 'account') keys.push(CUTOFF_PREFIX + claims.sub);
    const [revoked, cutoff] = await this.cache.mget(keys);
    if (revoked !== null || (cutoff != null && claims.iat < Number(cutoff))) {
      throw errors.unauthorized('Bearer token revoked');
    }
    return claims;
  }

  /** Refuses the token with this `jti` from now on, everywhere, until it would have expired anyway. */
  async revoke(jti: string, expiresAt: Date): Promise<void> {
    await this.revocations?.save({ kind: 'token', jti, expiresAt });
    this.applyToken(jti, expiresAt.getTime());
    await this.cache.set(REVOKED_PREFIX + jti, '1', { ttlMs: ttlUntil(expiresAt.getTime()) });
  }

  /**
   * Refuses every account token (`typ: 'account'`) of `subject` issued before `at` (to the
   * second): used after a password reset and a downgrade to a plan without bearer access. Named
   * tokens and agent keys are not affected (they are revoked one by one).
   */
  async revokeSubjectBefore(subject: string, at: Date = new Date()): Promise<void> {
    const notBefore = Math.floor(at.getTime() / 1000);
    const expiresAt = new Date(at.getTime() + this.ttlMs);
    await this.revocations?.save({ kind: 'subject', subject, notBefore, expiresAt });
    await this.applyCutoff(subject, notBefore, expiresAt.getTime());
  }

  /**
   * Copies the active revocations of the durable store into the cache (and the local map). Called
   * once at boot by `startRuntime`; without a store it does nothing. Resolves how many it loaded.
   */
  async warm(): Promise<number> {
    if (!this.revocations) return 0;
    let count = 0;
    let batch: Promise<unknown>[] = [];
    for await (const record of this.revocations.active(new Date())) {
      if (record.kind === 'token') {
        this.applyToken(record.jti, record.expiresAt.getTime());
        batch.push(
          this.cache.set(REVOKED_PREFIX + record.jti, '1', { ttlMs: ttlUntil(record.expiresAt.getTime()) }),
        );
      } else {
        batch.push(this.applyCutoff(record.subject, record.notBefore, record.expiresAt.getTime()));
      }
      count++;
      if (batch.length >= 100) {
        await Promise.all(batch);
        batch = [];
      }
    }
    await Promise.all(batch);
    return count;
  }

  /** Whether a thrown value is this service's refusal (for callers that map it). */
  static isRefusal(err: unknown): err is AppError {
    return err instanceof AppError && err.code === 'UNAUTHORIZED';
  }

  private isRevokedLocally(claims: TokenClaims): boolean {
    if (!this.localTokens || !this.localCutoffs) return false;
    if (this.localTokens.has(claims.jti)) return true;
    const cutoff = claims.typ === 'account' ? this.localCutoffs.get(claims.sub) : undefined;
    return cutoff !== undefined && claims.iat < cutoff.notBefore;
  }

  private applyToken(jti: string, expiresAtMs: number): void {
    if (!this.localTokens) return;
    this.localTokens.set(jti, expiresAtMs);
    if (this.localTokens.size % 1024 === 0) prune(this.localTokens, (v) => v);
  }

  private async applyCutoff(subject: string, notBefore: number, expiresAtMs: number): Promise<void> {
    if (this.localCutoffs) {
      const known = this.localCutoffs.get(subject);
      if (!known || known.notBefore < notBefore)
        this.localCutoffs.set(subject, { notBefore, expiresAt: expiresAtMs });
      if (this.localCutoffs.size % 1024 === 0) prune(this.localCutoffs, (v) => v.expiresAt);
    }
    // Never move a cutoff back: a later reset wins whatever the order the writes land in.
    const current = Number((await this.cache.get(CUTOFF_PREFIX + subject)) ?? 0);
    if (current >= notBefore) return;
    await this.cache.set(CUTOFF_PREFIX + subject, String(notBefore), { ttlMs: ttlUntil(expiresAtMs) });
  }
}

function ttlUntil(expiresAtMs: number): number {
  return Math.max(1000, expiresAtMs - Date.now());
}

function prune<V>(map: Map<string, V>, expiry: (value: V) => number): void {
  const now = Date.now();
  for (const [key, value] of map) if (expiry(value) <= now) map.delete(key);
}
