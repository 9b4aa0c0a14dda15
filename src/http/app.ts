import express from 'express';
import helmet from 'helmet';
import type { AppDeps, ResolvedAppDeps } from './app.types';
import { consoleAssets } from './console-assets';
import { SESSION_COOKIE } from './auth/session.middleware';
import { errorMiddleware } from './error.middleware';
import { idempotencyMiddleware } from './idempotency.middleware';
import { jsonBody } from './json-body.middleware';
import { requestContext } from './request-context.middleware';
import { recordAllowedMethods, routeFallback } from './route-fallback.middleware';
import { recordHeaders } from './security-headers';
import { traceRequests } from './tracing.middleware';
import { telemetry } from '../telemetry/tracing';

/** Without authentication hooks (front-door tests), SB routes are open. */
const allowEveryone: express.RequestHandler = (_req, _res, next) => next();

/** The one GET that opens a browser session for a caller who has none yet. */
const LOGIN_LINK_PATH = '/api/session/from-key/callback';
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function mayUseSession(req: express.Request): boolean {
  const cookie = req.headers.cookie;
  if (cookie !== undefined && cookie.includes(`${SESSION_COOKIE}=`)) return true;
  if (READ_METHODS.has(req.method)) return req.path === LOGIN_LINK_PATH;
  return !/^bearer /i.test(req.headers.authorization ?? '');
}

/** JSON media types the body parser reads (`application/merge-patch+json` and friends included). */
const JSON_TYPES = ['application/json', 'application/*+json'];

/**
 * `requireAuth`, then (with a keeper) the `Idempotency-Key` middleware in the same handler: every
 * authenticated route takes keys on its mutations without a line of its own, scoped to the caller
 * authentication just established.
 */
function withIdempotency(
  requireAuth: express.RequestHandler,
  deps: Pick<AppDeps<unknown>, 'idempotency'>,
): express.RequestHandler {
  if (!deps.idempotency) return requireAuth;
  const keys = idempotencyMiddleware(deps.idempotency);
  return (req, res, next) =>
    requireAuth(req, res, (err?: unknown) => (err !== undefined ? next(err) : keys(req, res, next)));
}

/**
 * Builds the front door: request context, security headers, JSON bodies, the route modules, then
 * 404/405 and the one error middleware. Pure: it opens no socket (see `listen`).
 */
export function buildApp<S>(deps: AppDeps<S>): express.Express {
  const sessionMiddleware = deps.sessions?.middleware;
  const resolved: ResolvedAppDeps<S> = {
    ...deps,
    toolCount: deps.toolCount ?? (() => 0),
    requireAuth: withIdempotency(deps.requireAuth ?? allowEveryone, deps),
    optionalAuth: deps.optionalAuth ?? allowEveryone,
  };
  const app = express();
  app.disable('x-powered-by');
  // Which X-Forwarded-For hops count for `req.ip` (the per-address rate limits): TRUST_PROXY.
  app.set('trust proxy', deps.config.TRUST_PROXY);

  // The JSON body parser, before the routes: its errors then pass through the routes' error
  // handlers (`/mcp` answers them as JSON-RPC).
  const body = jsonBody({ limit: deps.config.BODY_LIMIT_BYTES, type: JSON_TYPES, strict: true });
  // express-session creates a session object for every request it sees, cookie or not, which cost
  // a third of a bare request's CPU. It runs, before the body parser, where a session exists (the
  // cookie was sent) or may start: a mutation by a caller without a bearer token (sign-up,
  // sign-in) and the one-time login link, which is a browser GET.
  const beforeRoutes: express.RequestHandler = sessionMiddleware
    ? (req, res, next) => {
        if (!mayUseSession(req)) body(req, res, next);
        else sessionMiddleware(req, res, (err?: unknown) => (err ? next(err) : body(req, res, next)));
      }
    : body;

  // One router layer for everything a request gets before its route: request id and logger, the
  // fixed headers (helmet's do not depend on the request: computed once, replayed on every
  // response with one call), the session gate and the body parser. Each layer more is one more
  // walk of express's `next()` per request.
  app.use(
    requestContext(deps.logger, {
      headers: recordHeaders(
        helmet({
          // Nothing here is a page: forbid every kind of sub-resource and framing outright.
          contentSecurityPolicy: {
            useDefaults: false,
            directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
          },
        }),
      ),
      then: beforeRoutes,
    }),
  );

  // The route modules register on the app's own router, not on a router mounted in it: a mounted
  // router costs every request a second router walk. The 404/405 machinery lists routes only
  // (plain middleware is not listed), so it still sees exactly the route modules' routes.
  const router = app.router as unknown as express.Router;
  // Tracing on only: the layer that puts each request in its server span (no layer when off).
  if (telemetry.tracer) router.use(traceRequests(telemetry.tracer, deps.config.NODE_ID));
  for (const register of deps.routes ?? []) register(router, resolved);
  recordAllowedMethods(router);
  // The operator console after every route (it never shadows one), before the 404/405 answer.
  if (deps.console) router.use(consoleAssets(deps.console));
  // On the router, so it also pre-empts the router's own plain-text answer to OPTIONS.
  router.use(routeFallback());
  router.use(errorMiddleware());
  return app;
}
