import { createHmac } from 'node:crypto';
import type { RequestHandler } from 'express';
import session from 'express-session';
import type { CachePort } from '../../store/cache';
import { CacheSessionStore } from './cache-session.store';
import './session-data';

/** Name of the browser session cookie. */
export const SESSION_COOKIE = 'ars.sid';
/** Default lifetime of an idle session (rolling: every answer to the browser pushes it back). */
export const SESSION_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** Options of `createSessionMiddleware`. */
export interface SessionMiddlewareOptions {
  cache: CachePort;
  /** The service's JWT secret; the cookie-signing secret is derived from it (HMAC), never equal. */
  jwtSecret: string;
  /** PUBLIC_BASE_URL: `https://` makes the cookie `Secure` (and trusts X-Forwarded-Proto for it). */
  publicBaseUrl: string;
  /** Idle lifetime in ms. Default 7 days. */
  maxAgeMs?: number;
}

/** The session middleware and its store (routes use the store to end every session of an account). */
export interface SessionSupport {
  middleware: RequestHandler;
  store: CacheSessionStore;
  cookieName: string;
}

/** The secret signing the session cookie: HMAC-SHA256 of a fixed label under JWT_SECRET. */
export function deriveSessionSecret(jwtSecret: string): string {
  return createHmac('sha256', jwtSecret).update('ars.session-cookie.v1').digest('hex');
}

/**
 * express-session over the cache port (`CacheSessionStore`). The cookie `ars.sid` is HttpOnly,
 * SameSite=Lax, Path=/, Secure when PUBLIC_BASE_URL is https, and rolls: each answer to a
 * browser with a session extends it by `maxAgeMs`. Sessions are created only by sign-in (no
 * cookie for anonymous callers).
 */
export function createSessionMiddleware(options: SessionMiddlewareOptions): SessionSupport {
  const secure = options.publicBaseUrl.startsWith('https://');
  const store = new CacheSessionStore(options.cache.namespace('sess:'));
  const middleware = session({
    name: SESSION_COOKIE,
    secret: deriveSessionSecret(options.jwtSecret),
    store,
    resave: false,
    saveUninitialized: false,
    rolling: true,
    unset: 'destroy',
    // With https public URLs the TLS ends at a proxy (the service itself speaks http): trust its
    // X-Forwarded-Proto for the Secure decision only, or the cookie would never be sent.
    proxy: secure ? true : undefined,
    cookie: {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure,
      maxAge: options.maxAgeMs ?? SESSION_MAX_AGE_MS,
    },
  });
  return { middleware, store, cookieName: SESSION_COOKIE };
}
