/** Authentication of the front door: bearer tokens, browser sessions, origin rule, rate limits. */
import '../../../actors/identity/identity-options';
import type { Services } from '../../boot/services';
import { createAuthMiddleware, type AuthMiddleware } from './require-auth.middleware';
import { createSessionMiddleware, type SessionSupport } from './session.middleware';

export {
  createAuthMiddleware,
  principalFromClaims,
  principalOf,
  requirePrincipal,
  CROSS_ORIGIN_MESSAGE,
  type AuthMiddleware,
  type AuthMiddlewareOptions,
} from './require-auth.middleware';
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

/** The authentication hooks of one app, built from the process's services. */
export interface HttpAuth extends AuthMiddleware {
  session: SessionSupport;
}

declare module '../app.types' {
  interface AppDeps {
    /** The session support (store included) when built from services; set by `buildApp`. */
    sessions?: SessionSupport;
  }
}

/** `requireAuth`, `optionalAuth` and the session middleware over the process's services. */
export function createHttpAuth(services: Services): HttpAuth {
  const publicBaseUrl = services.config.PUBLIC_BASE_URL;
  return {
    ...createAuthMiddleware({ tokens: services.tokens, publicBaseUrl }),
    session: createSessionMiddleware({
      cache: services.cache,
      jwtSecret: services.secrets.jwtSecret,
      publicBaseUrl,
      maxAgeMs: services.identity?.sessionMaxAgeMs,
    }),
  };
}
