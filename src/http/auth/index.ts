/** Authentication of the front door: bearer tokens, browser sessions, origin rule, rate limits. */
import type { AuthMiddleware } from './require-auth.middleware';
import type { SessionSupport } from './session.middleware';

export {
  createAuthMiddleware,
  principalFromClaims,
  principalOf,
  requirePrincipal,
  CROSS_ORIGIN_MESSAGE,
  type AuthMiddleware,
  type AuthMiddlewareOptions,
  type BearerVerifier,
} from './require-auth.middleware';
export { requireAccount } from './require-account';
export { rateLimit, ipKey, bodyField, type RateLimitRule } from './rate-limit.middleware';
export { isSameOrigin, isMutating } from './origin';
export {
  createSessionMiddleware,
  deriveSessionSecret,
  SESSION_COOKIE,
  SESSION_MAX_AGE_MS,
  type SessionMiddlewareOptions,
  type SessionSupport,
} from './session.middleware';
export { CacheSessionStore } from './cache-session.store';

/** The authentication hooks of one app (built by `src/boot/http-auth.ts` from the identity services). */
export interface HttpAuth extends AuthMiddleware {
  session: SessionSupport;
}
