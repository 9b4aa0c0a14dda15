import type { RequestHandler, Router } from 'express';
import type { Config } from '../config/load-config';
import type { ActorSystemApi } from '../kernel/kernel.types';
import type { Logger } from '../logging/logger';

/**
 * Everything the front door needs, passed once to `buildApp`. Nothing in `src/http` builds its own
 * services: `main` (or a test) creates them and hands them down.
 *
 * Later parts of the service (document store, cache, sessions, auth) add their own fields by
 * declaration merging from their own files, so this file does not become everyone's bottleneck:
 *
 * ```ts
 * declare module '../http/app.types' {
 *   interface AppDeps { documents: DocumentStore }
 * }
 * ```
 */
export interface AppDeps {
  /** The frozen configuration (`BODY_LIMIT_BYTES`, `LOG_LEVEL`, ...). */
  config: Config;
  /** Root logger; each request gets a child carrying `reqId`. */
  logger: Logger;
  /** The actor system: every command becomes `system.ask('kind:id', 'domain.verb', body, { auth })`. */
  system: ActorSystemApi;
  /**
   * Number of tools in the public registry, reported by `GET /health`.
   * Default: `() => 0` (no registry yet).
   */
  toolCount?: () => number | Promise<number>;
  /**
   * Authentication hook for routes the spec marks SB (session or bearer). It either calls
   * `next()` after putting the caller in `res.locals.auth`, or fails with AppError UNAUTHORIZED.
   * Default: built from `services` when present (bearer token or session cookie, src/http/auth),
   * else a no-op that lets every request through (front-door unit tests without services).
   */
  requireAuth?: RequestHandler;
  /**
   * Like `requireAuth`, but a request without any credentials passes (no `res.locals.auth`);
   * present but invalid credentials still fail 401. Default: built from `services` when present
   * (src/http/auth), else a no-op.
   */
  optionalAuth?: RequestHandler;
  /**
   * Browser session middleware (express-session), applied before the routes. Default: built from
   * `services` when present (src/http/auth/session.middleware.ts), else none.
   */
  sessionMiddleware?: RequestHandler;
  /** Route modules, registered in order. Default: `coreRoutes` (health, ffp). */
  routes?: readonly RouteModule[];
}

/** `AppDeps` with its defaults filled in: what route modules receive. */
export type ResolvedAppDeps = AppDeps & Required<Pick<AppDeps, 'toolCount' | 'requireAuth' | 'optionalAuth'>>;

/**
 * One group of routes, in its own `*.route.ts` file. It registers handlers on the router it is
 * given (paths are absolute: `/api/ffp/temp`) and must not do domain work itself: validate,
 * authenticate, ask an actor, map the reply.
 *
 * Registration happens once, synchronously, inside `buildApp`; a route added to the app later is
 * not seen by the 404/405 machinery.
 */
export type RouteModule = (router: Router, deps: ResolvedAppDeps) => void;
