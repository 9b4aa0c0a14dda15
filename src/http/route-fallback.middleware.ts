import type { RequestHandler, Response, Router } from 'express';
import { AppError, errors } from '../../schemas/errors';

/** One entry of `router.listRoutes()` (router >= 2.3, the router express 5 ships with). */
interface RouteListing {
  path: string | RegExp;
  /** Upper-case methods; `*` for `.all()`; undefined for a mounted router. */
  methods?: string[];
  router?: Router;
}

/** Methods of the routes whose path matched this request, collected while it walks the router. */
const matchedMethods = new WeakMap<Response, Set<string>>();

function listRoutes(router: Router): RouteListing[] {
  const list = (router as unknown as { listRoutes?: () => RouteListing[] }).listRoutes;
  if (typeof list !== 'function') {
    throw new Error('express router without listRoutes(): 405 answers need router >= 2.3 (express 5.x)');
  }
  return list.call(router);
}

/**
 * Makes a router able to tell "no such path" (404) from "path exists, other method" (405).
 * Call it once, after every route is registered: for each path it appends a pass-through handler,
 * matched by express's own path matching, that records which methods the path has. A request that
 * reaches one of them was not answered by a real handler. Mounted routers are handled recursively.
 */
export function recordAllowedMethods(router: Router, seen = new WeakSet<Router>()): void {
  if (seen.has(router)) return;
  seen.add(router);
  const byPath = new Map<string | RegExp, Set<string>>();
  for (const route of listRoutes(router)) {
    if (route.router) {
      recordAllowedMethods(route.router, seen);
      continue;
    }
    // A route taking every method never yields a 405.
    if (!route.methods || route.methods.includes('*')) continue;
    const methods = byPath.get(route.path) ?? new Set<string>();
    for (const m of route.methods) methods.add(m);
    byPath.set(route.path, methods);
  }
  for (const [path, methods] of byPath) {
    router.all(path, (_req, res, next) => {
      const seenMethods = matchedMethods.get(res) ?? new Set<string>();
      for (const m of methods) seenMethods.add(m);
      matchedMethods.set(res, seenMethods);
      next();
    });
  }
}

/** `Allow` value: sorted, without the HEAD that express adds to every GET (GET implies it). */
function allowHeader(methods: Set<string>): string {
  return [...methods]
    .filter((m) => !(m === 'HEAD' && methods.has('GET')))
    .sort()
    .join(', ');
}

/** Paths are echoed in messages; keep a hostile one from bloating the answer. */
function shortPath(path: string): string {
  return path.length > 200 ? `${path.slice(0, 200)}...` : path;
}

/**
 * Last handler before the error middleware: 405 with `Allow` when the path exists with other
 * methods, 204 with `Allow` for OPTIONS on such a path, 404 otherwise (JSON, like every error).
 */
export function routeFallback(): RequestHandler {
  return (req, res, next) => {
    const methods = matchedMethods.get(res);
    const path = shortPath(req.path);
    // No route has this path, or one had this method and passed (a handler declined the request).
    if (!methods || methods.has(req.method)) {
      next(errors.notFound(`No route for ${req.method} ${path}`));
      return;
    }
    if (req.method === 'OPTIONS') {
      res
        .set('Allow', allowHeader(new Set([...methods, 'OPTIONS'])))
        .status(204)
        .end();
      return;
    }
    const allow = allowHeader(methods);
    res.set('Allow', allow);
    next(
      new AppError('METHOD_NOT_ALLOWED', `Method ${req.method} is not allowed on ${path}`, {
        allow: allow.split(', '),
      }),
    );
  };
}
