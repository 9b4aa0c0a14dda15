import type { RequestHandler, Router } from 'express';
import type { Config } from '../config/load-config';
import type { ActorSystemApi } from '../kernel/kernel.types';
import type { Logger } from '../logging/logger';
import type { SessionSupport } from './auth/session.middleware';
import type { IdempotencyKeeper } from './idempotency/idempotency-keeper';

/**
 * Everything the front door needs, passed once to `buildApp`. Nothing in `src/http` builds its own
 * services or knows a domain: the composition root (`src/boot`) creates the services, the
 * authentication hooks and the list of route modules, and hands them down.
 *
 * `S` is the type of the process's services as the route modules see them. `src/http` never
 * looks inside: each route module declares the few services it reads (`RouteModule<{ vault:
 * VaultService }>`), and `src/boot` passes its `Services`, which has them all.
 */
export interface AppDeps<S = unknown> {
  /** The frozen configuration (`BODY_LIMIT_BYTES`, `LOG_LEVEL`, ...). */
  config: Config;
  /** Root logger; each request gets a child carrying `reqId`. */
  logger: Logger;
  /** The actor system: every command becomes `system.ask('kind:id', 'domain.verb', body, { auth })`. */
  system: ActorSystemApi;
  /** The process's services (`src/boot/services.ts`); absent only in front-door tests that need none. */
  services?: S;
  /**
   * Number of tools in the public registry, reported by `GET /health`.
   * Default: `() => 0` (no registry yet).
   */
  toolCount?: () => number | Promise<number>;
  /**
   * Authentication hook for routes the spec marks SB (session or bearer). It either calls
   * `next()` after putting the caller in `res.locals.auth`, or fails with AppError UNAUTHORIZED.
   * Built by `src/boot` (bearer token or session cookie, then the scope gate); default: a no-op
   * that lets every request through (front-door tests without identity).
   */
  requireAuth?: RequestHandler;
  /**
   * Like `requireAuth`, but a request without any credentials passes (no `res.locals.auth`);
   * present but invalid credentials still fail 401. Default: a no-op.
   */
  optionalAuth?: RequestHandler;
  /**
   * Idempotency keys (docs/http.md, "Idempotent retries"): when given, `requireAuth` is followed by
   * the `Idempotency-Key` middleware on POST, PUT, PATCH and DELETE, and routes that keep their
   * own outcomes (`POST /mcp`) use it. Built by `src/boot` over the cache. Default: none (keys are
   * ignored).
   */
  idempotency?: IdempotencyKeeper;
  /** Browser sessions (express-session over the cache), applied before the routes. Default: none. */
  sessions?: SessionSupport;
  /** The operator console's built files (docs/console.md), served at `/`. Default: none. */
  console?: { dir: string };
  /** Route modules, registered in order (the process's are `routeModules` of `actors/registry.ts`). Default: none. */
  routes?: readonly RouteModule<S>[];
}

/** `AppDeps` with its defaults filled in: what route modules receive. */
export type ResolvedAppDeps<S = unknown> = Omit<AppDeps<S>, 'routes'> &
  Required<Pick<AppDeps<S>, 'toolCount' | 'requireAuth' | 'optionalAuth'>>;

/**
 * One group of routes, in its own `<area>.route.ts` file beside its domain. It registers handlers
 * on the router it is given (paths are absolute: `/api/ffp/temp`) and must not do domain work
 * itself: validate, authenticate, ask an actor or a domain service, map the reply.
 *
 * Registration happens once, synchronously, inside `buildApp`; a route added to the app later is
 * not seen by the 404/405 machinery.
 */
export type RouteModule<S = unknown> = (router: Router, deps: ResolvedAppDeps<S>) => void;
