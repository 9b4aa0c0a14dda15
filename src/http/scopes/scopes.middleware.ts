import type { Request, RequestHandler, Response } from 'express';
import type { Principal, TokenScope } from '../../../schemas/auth';
import { errors } from '../../../schemas/errors';
import type { ActorSystemApi } from '../../kernel/kernel.types';
import type { Logger } from '../../logging/logger';
import { ROUTE_SCOPE_RULES, scopesForPath, type RouteScopeRule } from './route-scopes';

/**
 * The port to the named tokens' current records (the identity domain's `NamedTokenDirectory`,
 * wired by `src/boot`): cache-held, one cache read per request.
 */
export interface ScopedTokenDirectory {
  /** The token's current record, or null when it does not exist. */
  lookup(id: string): Promise<{
    accountId: string;
    status: 'live' | 'revoked';
    /** Current scopes; empty = unrestricted. */
    scopes: TokenScope[];
    /** `jti` of the only value currently valid. */
    jti: string;
  } | null>;
  /** Whether this request is the one that notes the token's use (at most once a minute). */
  claimLastUsedWrite(id: string): Promise<boolean>;
}

/** What the scope gate needs. */
export interface ScopeGateOptions {
  /** Cache-held records of named tokens (current status, scopes, `jti`). */
  directory: ScopedTokenDirectory;
  /** To tell the `named-tokens` actor a token was used (`named-tokens.touch`). */
  system: Pick<ActorSystemApi, 'tell'>;
  logger: Logger;
  /** The scope table. Default `ROUTE_SCOPE_RULES`. */
  rules?: readonly RouteScopeRule[];
  /**
   * What a scoped token that does not cover the route gets: `deny` (403, for `requireAuth`) or
   * `anonymous` (the request goes on without `res.locals.auth`, for `optionalAuth` routes that
   * also serve anonymous callers). Default `deny`.
   */
  onMiss?: 'deny' | 'anonymous';
}

/** `jti` and `tid` of the bearer token in the request, decoded without verification (already verified). */
function bearerIds(req: Request): { jti?: unknown; tid?: unknown } {
  const header = req.headers.authorization;
  const payload = header?.match(/^Bearer +[^.\s]+\.([^.\s]+)\.[^.\s]+ *$/i)?.[1];
  if (!payload) return {};
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { jti?: unknown; tid?: unknown };
  } catch {
    return {};
  }
}

/** The 403 for a scoped token outside its reach; names the scope(s) the route needs. */
export function scopeDenied(
  req: Request,
  own: readonly TokenScope[],
  accepted: readonly TokenScope[],
): Error {
  const route = `${req.method} ${req.baseUrl}${req.path}`;
  const needs =
    accepted.length === 0
      ? 'an unrestricted token'
      : accepted.length === 1
        ? `the "${accepted[0]}" scope`
        : `one of the scopes ${accepted.map((s) => `"${s}"`).join(', ')}`;
  return errors.forbidden(
    `Token scope required: this token (${own.join(', ')}) cannot call ${route}; it needs ${needs}`,
    {
      requiredScopes: accepted,
      tokenScopes: own,
    },
  );
}

/**
 * Wraps an authentication middleware (`requireAuth` or `optionalAuth`) so that every route behind
 * it also gets, once authenticated:
 *
 * 1. **Named tokens checked against their current record** (cache-held, `NamedTokenDirectory`):
 *    unknown, revoked, another account's, or not the current value (rotated away): 401. The
 *    principal's `scopes` are replaced by the record's: a rescope applies to the value already
 *    issued. Unscoped records drop `scopes` (unrestricted).
 * 2. **`lastUsedAt` noted without a write per request**: a `SET NX` with a 60 s TTL in the cache
 *    decides, and at most once a minute per token a `named-tokens.touch` is told to the account's
 *    `named-tokens` actor, without waiting (off the request's critical path).
 * 3. **The scope table** (`route-scopes.ts`): a scoped caller whose scopes do not cover the path
 *    gets 403 PERMISSION_DENIED naming the scope needed (or, with `onMiss: 'anonymous'`, goes on
 *    unauthenticated).
 */
export function withScopes(authenticate: RequestHandler, options: ScopeGateOptions): RequestHandler {
  const rules = options.rules ?? ROUTE_SCOPE_RULES;
  const onMiss = options.onMiss ?? 'deny';

  const noteUse = (tokenId: string, accountId: string) => {
    options.directory
      .claimLastUsedWrite(tokenId)
      .then((due) =>
        due
          ? options.system.tell(`named-tokens:${accountId}`, 'named-tokens.touch', {
              id: tokenId,
              at: Date.now(),
            })
          : undefined,
      )
      .catch((err: unknown) => options.logger.warn({ err }, 'could not note the use of a named token'));
  };

  const enforce = async (req: Request, res: Response): Promise<void> => {
    let auth = res.locals.auth as Principal | undefined;
    if (!auth) return;
    if (auth.tokenId && auth.via === 'bearer') {
      const record = await options.directory.lookup(auth.tokenId);
      const { jti, tid } = bearerIds(req);
      // `tid` is sealed in the tokens issued now (only jti, iat, exp are readable): the header's
      // token is the one verified (`via: 'bearer'`), so its visible `jti` decides.
      const rotatedAway =
        (tid === undefined || tid === auth.tokenId) &&
        typeof jti === 'string' &&
        record !== null &&
        jti !== record.jti;
      if (!record || record.status !== 'live' || record.accountId !== auth.accountId || rotatedAway) {
        throw errors.unauthorized('Bearer token revoked');
      }
      const { scopes: _claimed, ...rest } = auth;
      auth = record.scopes.length > 0 ? { ...rest, scopes: record.scopes } : rest;
      res.locals.auth = auth;
      if (auth.accountId) noteUse(auth.tokenId!, auth.accountId);
    }
    const own = auth.scopes;
    if (!own || own.length === 0) return;
    const accepted = scopesForPath(`${req.baseUrl}${req.path}`, rules);
    if (accepted.some((scope) => own.includes(scope))) return;
    if (onMiss === 'anonymous') {
      delete res.locals.auth;
      return;
    }
    throw scopeDenied(req, own, accepted);
  };

  return (req, res, next) => {
    const afterAuth = (err?: unknown) => {
      // `next('route')` / `next('router')` and errors go on unchanged.
      if (err !== undefined && err !== null) {
        next(err);
        return;
      }
      const auth = res.locals.auth as Principal | undefined;
      // Most callers (agent keys, sessions, unscoped tokens): nothing to check, no promise.
      if (!auth || (!(auth.tokenId && auth.via === 'bearer') && !auth.scopes?.length)) {
        next();
        return;
      }
      enforce(req, res).then(() => next(), next);
    };
    try {
      const result: unknown = authenticate(req, res, afterAuth);
      if (result instanceof Promise) result.catch(next);
    } catch (err) {
      next(err);
    }
  };
}

/**
 * For a route that needs one particular scope whatever the table says (put it after
 * `deps.requireAuth`): a scoped caller without `scope` gets 403; unscoped callers pass.
 */
export function requireScope(scope: TokenScope): RequestHandler {
  return (req, res, next) => {
    const own = (res.locals.auth as Principal | undefined)?.scopes;
    if (own && own.length > 0 && !own.includes(scope)) {
      next(scopeDenied(req, own, [scope]));
      return;
    }
    next();
  };
}
