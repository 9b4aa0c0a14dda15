import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { TokenClaimsSchema, type TokenClaims } from '../../schemas/auth';
import { AppError, errors } from '../../schemas/errors';
import type { Logger } from '../../src/logging/logger';
import type { CachePort } from '../../src/store/cache';
import { verifyOwnHs256 } from './hs256';
import { ClaimsSealer, SEALED_CLAIM } from './sealed-claims';
import {
  appendRevocation,
  RevocationFeed,
  type RevocationBroadcasts,
  type RevocationFeedOptions,
} from './revocation-feed';
import { revocationListOf, type RevocationList, type SharedRevocation } from './revocation-list';

/** Bearer tokens live 90 days (spec). */
export const BEARER_TOKEN_TTL_MS = 90 * 24 * 60 * 60 * 1000;
/** The human form the spec returns beside a token. */
export const BEARER_EXPIRES_IN = '90 days';

const REVOKED_PREFIX = 'auth:revoked:';
/** Account cutoffs in epoch ms (the earlier `auth:cutoff:` keys held seconds). */
const CUTOFF_PREFIX = 'auth:cutoff-ms:';

let lastStamp = 0;

/**
 * Epoch ms, strictly increasing within the process: the issue time of a token and the time of an
 * account cutoff. Two of them are never equal, so a cutoff taken after a token was issued always
 * refuses it, and a token issued after the cutoff always passes, even within one millisecond
 * (whole seconds of `iat` let a token minted in the second of a password reset live on).
 * When more than one stamp is asked for in a millisecond, the clock runs ahead by a millisecond
 * for each, and is caught up by the wall clock at the next call.
 */
export function issueStamp(): number {
  const now = Date.now();
  lastStamp = now > lastStamp ? now : lastStamp + 1;
  return lastStamp;
}

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
  | { kind: 'subject'; subject: string; notBeforeMs: number; expiresAt: Date };

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
  /**
   * The actor system's broadcasts (`startRuntime` gives them): with them, revocations reach every
   * node at once and `warm()` starts the periodic sync of the cache log (revocation-feed.ts), so
   * that a token is checked against this process's list alone instead of one cache read per
   * request. Without them (tools, tests), every check reads the cache as well.
   */
  broadcasts?: RevocationBroadcasts;
  /** Timing of the sync (defaults: every 1 s, trusted for 3 s). */
  sync?: Omit<RevocationFeedOptions, 'logger'>;
  logger?: Logger;
}

/** Verified tokens a `TokenService` remembers (see `TokenService.verified`): a few MB at most. */
export const VERIFIED_TOKENS_MAX = 4096;

/**
 * Issues and verifies the service's bearer tokens: HS256 JWTs, 90 days, verified with an explicit
 * algorithm list. Only `jti`, `iat` and `exp` are readable in a token: the other claims (internal
 * ids among them) are sealed in `enc` (sealed-claims.ts).
 *
 * Revocations (docs/authentication.md): each is written to the `RevocationStore` (durable, when
 * given), to this process's `RevocationList` (shared by the token services over the same cache),
 * to the cache (`auth:revoked:<jti>`, `auth:cutoff:<subject>`, and the cache log that other nodes
 * sync from), then broadcast to every node. A check consults the list; it also reads the cache
 * (one `mget`) unless the list is known complete: a memory cache (one process, every revocation
 * went through the list), or a feed that synced within its bound (`RevocationFeed.fresh`). `warm()`
 * loads the durable revocations at boot and starts the feed.
 */
export class TokenService {
  private readonly revocations?: RevocationStore;
  private readonly list: RevocationList;
  private readonly feed?: RevocationFeed;
  /**
   * The secret as a KeyObject, built once: given a string, jsonwebtoken tries to parse it as a
   * public key on every call, which cost about a third of a /mcp request's CPU.
   */
  private readonly key: KeyObject;
  /** Seals and opens the claims that name internal things (`enc`). */
  private readonly sealer: ClaimsSealer;
  /**
   * Tokens whose signature and claims checked out, with their (frozen) claims. A holder sends the
   * same token with every request, and the HMAC, decoding and schema check were about a tenth of
   * the front door's CPU per `/mcp` call. Only genuine tokens get in (a forged one misses and is
   * checked in full); expiry is checked on every use, revocation after this, as for any token.
   * Bounded: the oldest entry leaves when a new one would pass `VERIFIED_TOKENS_MAX`.
   */
  private readonly verified = new Map<string, TokenClaims>();

  constructor(
    secret: string,
    private readonly cache: CachePort,
    private readonly ttlMs: number = BEARER_TOKEN_TTL_MS,
    options: TokenServiceOptions = {},
  ) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
    this.sealer = new ClaimsSealer(secret);
    this.revocations = options.revocations;
    this.list = revocationListOf(cache);
    if (options.broadcasts) {
      this.feed = new RevocationFeed(cache, this.list, options.broadcasts, {
        ...options.sync,
        ...(options.logger ? { logger: options.logger } : {}),
      });
    }
  }

  /** Lifetime of the tokens this service issues, in ms. */
  get lifetimeMs(): number {
    return this.ttlMs;
  }

  issue(input: IssueInput): IssuedToken {
    const jti = randomBytes(16).toString('base64url');
    const iatMs = issueStamp();
    const nowSec = Math.floor(iatMs / 1000);
    const exp = nowSec + Math.max(1, Math.floor(this.ttlMs / 1000));
    const sealed: Record<string, unknown> = { sub: input.sub, typ: input.typ, iatMs };
    if (input.tid) sealed.tid = input.tid;
    if (input.acc) sealed.acc = input.acc;
    if (input.scopes) sealed.scopes = input.scopes;
    const claims = { jti, iat: nowSec, exp, [SEALED_CLAIM]: this.sealer.seal(jti, sealed) };
    // `iat` is in the claims (jsonwebtoken keeps it; `noTimestamp` would delete it).
    const token = jwt.sign(claims, this.key, { algorithm: 'HS256' });
    return { token, jti, expiresAt: new Date(exp * 1000) };
  }

  /** Checks signature, expiry and revocation. Any failure is UNAUTHORIZED with a generic message. */
  async verify(token: string): Promise<TokenClaims> {
    return this.check(token);
  }

  /**
   * `verify` without a promise when the answer is known at once (the usual case: see the class
   * doc); otherwise the promise of the cache read. Throws (or rejects) UNAUTHORIZED.
   */
  check(token: string): TokenClaims | Promise<TokenClaims> {
    const claims = this.claimsOf(token);
    if (this.list.refuses(claims)) throw errors.unauthorized('Bearer token revoked');
    if (this.cache.kind === 'memory' || this.feed?.fresh) return claims;
    return this.readRevocation(claims);
  }

  /** Signature, expiry and shape of the claims. */
  private claimsOf(token: string): TokenClaims {
    const nowSec = Math.floor(Date.now() / 1000);
    const known = this.verified.get(token);
    if (known) {
      if (nowSec < known.exp) return known;
      this.verified.delete(token);
      throw errors.unauthorized('Bearer token expired');
    }
    const claims = this.verifyInFull(token, nowSec);
    if (this.verified.size >= VERIFIED_TOKENS_MAX) {
      this.verified.delete(this.verified.keys().next().value as string);
    }
    this.verified.set(token, claims);
    return claims;
  }

  private verifyInFull(token: string, nowSec: number): TokenClaims {
    const fast = verifyOwnHs256(token, this.key, nowSec);
    let decoded: unknown;
    if (fast.kind === 'valid') decoded = fast.payload;
    else if (fast.kind === 'expired') throw errors.unauthorized('Bearer token expired');
    else if (fast.kind === 'invalid') throw errors.unauthorized('Invalid bearer token');
    else {
      try {
        decoded = jwt.verify(token, this.key, { algorithms: ['HS256'] });
      } catch (err) {
        const expired = err instanceof jwt.TokenExpiredError;
        throw errors.unauthorized(expired ? 'Bearer token expired' : 'Invalid bearer token');
      }
    }
    // A payload that is not an object fails the schema below.
    const opened =
      decoded !== null && typeof decoded === 'object' && !Array.isArray(decoded)
        ? this.sealer.claimsOf(decoded as Record<string, unknown>)
        : decoded;
    if (opened === undefined) throw errors.unauthorized('Invalid bearer token');
    const parsed = TokenClaimsSchema.safeParse(opened);
    if (!parsed.success) throw errors.unauthorized('Invalid bearer token');
    const claims: TokenClaims = { ...parsed.data, iatMs: parsed.data.iatMs ?? parsed.data.iat * 1000 };
    // Shared by every request that presents this token: nobody may change it.
    if (claims.scopes) Object.freeze(claims.scopes);
    return Object.freeze(claims);
  }

  /** The revocation keys in the cache: both in one read (account tokens can be cut off as a whole). */
  private async readRevocation(claims: TokenClaims): Promise<TokenClaims> {
    const keys = [REVOKED_PREFIX + claims.jti];
    if (claims.typ === 'account') keys.push(CUTOFF_PREFIX + claims.sub);
    const [revoked, cutoff] = await this.cache.mget(keys);
    if (revoked !== null || (cutoff != null && claims.iatMs < Number(cutoff))) {
      throw errors.unauthorized('Bearer token revoked');
    }
    return claims;
  }

  /** Refuses the token with this `jti` from now on, everywhere, until it would have expired anyway. */
  async revoke(jti: string, expiresAt: Date): Promise<void> {
    await this.revocations?.save({ kind: 'token', jti, expiresAt });
    const record: SharedRevocation = { kind: 'token', jti, expiresAt: expiresAt.getTime() };
    this.list.apply(record);
    await this.cache.set(REVOKED_PREFIX + jti, '1', { ttlMs: ttlUntil(record.expiresAt) });
    await this.share(record);
  }

  /**
   * Refuses every account token (`typ: 'account'`) of `subject` issued before now (to the
   * millisecond, as an `issueStamp`: every token this process issued so far is refused and every
   * later one passes), or before `at` when that is later: used after a password reset and a
   * downgrade to a plan without bearer access. Named tokens and agent keys are not affected (they
   * are revoked one by one).
   */
  async revokeSubjectBefore(subject: string, at?: Date): Promise<void> {
    const notBeforeMs = Math.max(at?.getTime() ?? 0, issueStamp());
    const expiresAt = new Date(notBeforeMs + this.ttlMs);
    await this.revocations?.save({ kind: 'subject', subject, notBeforeMs, expiresAt });
    await this.applyCutoff(subject, notBeforeMs, expiresAt.getTime());
    await this.share({ kind: 'subject', subject, notBeforeMs, expiresAt: expiresAt.getTime() });
  }

  /**
   * Tells the other nodes: the broadcast when this service has the system's, and the cache log
   * in any case (nodes that missed the broadcast, or got none, read it at their next sync).
   */
  private async share(record: SharedRevocation): Promise<void> {
    if (this.feed) await this.feed.publish(record);
    else await appendRevocation(this.cache, record);
  }

  /**
   * Copies the active revocations of the durable store into the cache (and the local list), then
   * starts the revocation feed (with `broadcasts`). Called once at boot by `startRuntime`; without
   * a store it loads nothing. Resolves how many it loaded.
   */
  async warm(): Promise<number> {
    // Where the log stands before the durable load: later revocations are read from the log.
    await this.feed?.begin(this.revocations !== undefined);
    let count = 0;
    if (this.revocations) {
      let batch: Promise<unknown>[] = [];
      for await (const record of this.revocations.active(new Date())) {
        if (record.kind === 'token') {
          this.list.apply({ kind: 'token', jti: record.jti, expiresAt: record.expiresAt.getTime() });
          batch.push(
            this.cache.set(REVOKED_PREFIX + record.jti, '1', {
              ttlMs: ttlUntil(record.expiresAt.getTime()),
            }),
          );
        } else {
          batch.push(this.applyCutoff(record.subject, record.notBeforeMs, record.expiresAt.getTime()));
        }
        count++;
        if (batch.length >= 100) {
          await Promise.all(batch);
          batch = [];
        }
      }
      await Promise.all(batch);
    }
    await this.feed?.run();
    return count;
  }

  /** Stops the feed's sync and its broadcast listener. */
  close(): void {
    this.feed?.close();
  }

  /** Whether a thrown value is this service's refusal (for callers that map it). */
  static isRefusal(err: unknown): err is AppError {
    return err instanceof AppError && err.code === 'UNAUTHORIZED';
  }

  private async applyCutoff(subject: string, notBeforeMs: number, expiresAtMs: number): Promise<void> {
    this.list.apply({ kind: 'subject', subject, notBeforeMs, expiresAt: expiresAtMs });
    // Never move a cutoff back: a later reset wins whatever the order the writes land in.
    const current = Number((await this.cache.get(CUTOFF_PREFIX + subject)) ?? 0);
    if (current >= notBeforeMs) return;
    await this.cache.set(CUTOFF_PREFIX + subject, String(notBeforeMs), { ttlMs: ttlUntil(expiresAtMs) });
  }
}

function ttlUntil(expiresAtMs: number): number {
  return Math.max(1000, expiresAtMs - Date.now());
}
