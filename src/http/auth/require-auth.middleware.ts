import type { Request, RequestHandler, Response } from 'express';
import type { Principal, TokenClaims } from '../../../schemas/auth';
import { errors } from '../../../schemas/errors';
import { isMutating, isSameOrigin } from './origin';
import './session-data';

/** The port to the identity domain's token checks (`TokenService`, wired by `src/boot`). */
export interface BearerVerifier {
  /** Signature, expiry and revocation; rejects with UNAUTHORIZED. */
  verify(token: string): Promise<TokenClaims>;
  /** The same, answered without a promise when no cache read is needed. */
  check?(token: string): TokenClaims | Promise<TokenClaims>;
}

/** What the authentication middleware needs. */
export interface AuthMiddlewareOptions {
  /**
   * Verifies bearer tokens (signature, expiry, revocation). With `check` (TokenService), a token
   * decided without a cache read is accepted without a promise.
   */
  tokens: BearerVerifier;
  /** PUBLIC_BASE_URL: the origin allowed for cookie-authenticated mutations (besides the Host). */
  publicBaseUrl: string;
}

/** The two hooks every route module uses (`deps.requireAuth`, `deps.optionalAuth`). */
export interface AuthMiddleware {
  /** SB routes: a valid bearer token or browser session, else 401. Sets `res.locals.auth`. */
  requireAuth: RequestHandler;
  /**
   * Like `requireAuth`, but a request with no credentials at all passes without `res.locals.auth`.
   * Credentials that are present and wrong (malformed header, bad/expired/revoked token) still 401,
   * and a cross-origin cookie mutation still 403.
   */
  optionalAuth: RequestHandler;
}

export const CROSS_ORIGIN_MESSAGE =
  'Cross-origin request refused: a browser session may only change state from this origin';

/** `Authorization: Bearer <token>`; anything else (other scheme, no token, spaces inside) → 401. */
function bearerTokenOf(header: string): string {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  if (!match) throw errors.unauthorized('Malformed Authorization header: expected "Bearer <token>"');
  return match[1];
}

/** The caller a verified token stands for (see schemas/auth.ts). */
export function principalFromClaims(claims: TokenClaims): Principal {
  switch (claims.typ) {
    case 'account':
      return { subjectType: 'account', accountId: claims.sub, via: 'bearer' };
    case 'agent':
      return {
        subjectType: 'agent',
        agentId: claims.sub,
        via: 'bearer',
        ...(claims.acc ? { accountId: claims.acc } : {}),
      };
    case 'named':
      return {
        subjectType: 'account',
        accountId: claims.acc ?? claims.sub,
        via: 'bearer',
        ...(claims.tid ? { tokenId: claims.tid } : {}),
        ...(claims.scopes ? { scopes: claims.scopes } : {}),
      };
  }
}

/** The principal `requireAuth` established (routes behind `optionalAuth`: possibly undefined). */
export function principalOf(res: Response): Principal | undefined {
  return res.locals.auth as Principal | undefined;
}

/** Like `principalOf`, for routes behind `requireAuth`: a missing principal is a 401. */
export function requirePrincipal(res: Response): Principal {
  const principal = principalOf(res);
  if (!principal) throw errors.unauthorized();
  return principal;
}

/**
 * Builds `requireAuth` and `optionalAuth`. A bearer header wins over a cookie (and when it is
 * wrong, the cookie is not tried). Cookie-authenticated POST/PUT/PATCH/DELETE from another origin
 * are refused 403; bearer requests are not subject to the origin rule (a page cannot make a
 * browser attach them).
 */
export function createAuthMiddleware(options: AuthMiddlewareOptions): AuthMiddleware {
  const { tokens } = options;
  const verify = tokens.check
    ? (token: string) => tokens.check!(token)
    : (token: string) => tokens.verify(token);

  const bearerPrincipal = (res: Response, claims: TokenClaims): Principal => {
    res.locals.authExpiresAt = claims.exp * 1000;
    return principalFromClaims(claims);
  };

  const sessionPrincipal = (req: Request, res: Response): Principal | undefined => {
    const accountId = req.session?.accountId;
    if (typeof accountId !== 'string' || accountId === '') return undefined;
    if (isMutating(req.method) && !isSameOrigin(req, options.publicBaseUrl)) {
      throw errors.forbidden(CROSS_ORIGIN_MESSAGE);
    }
    res.locals.authExpiresAt = req.session.cookie.expires?.getTime();
    return { subjectType: 'account', accountId, via: 'session' };
  };

  const middleware =
    (required: boolean): RequestHandler =>
    (req, res, next) => {
      const done = (principal: Principal | undefined) => {
        if (principal) res.locals.auth = principal;
        else if (required) throw errors.unauthorized();
      };
      try {
        const header = req.headers.authorization;
        if (header === undefined) {
          done(sessionPrincipal(req, res));
        } else {
          const claims = verify(bearerTokenOf(header));
          if (claims instanceof Promise) {
            // The token service had to read the cache: continue when it answers.
            claims.then((c) => done(bearerPrincipal(res, c))).then(() => next(), next);
            return;
          }
          done(bearerPrincipal(res, claims));
        }
      } catch (err) {
        next(err);
        return;
      }
      next();
    };

  return { requireAuth: middleware(true), optionalAuth: middleware(false) };
}
