import http from 'node:http';
import type express from 'express';

/** The request and response classes a server of `app` constructs (`http.createServer` options). */
export interface RequestClasses {
  readonly IncomingMessage: typeof http.IncomingMessage;
  readonly ServerResponse: typeof http.ServerResponse<http.IncomingMessage>;
}

/** One pair of classes per app: serving the same app twice must not stack prototypes. */
const classesOfApp = new WeakMap<express.Express, RequestClasses>();

/**
 * Request and response classes whose instances are born with the app's own prototypes
 * (`app.request`, `app.response`), for the server that serves `app` (docs/architecture.md, "Request
 * objects").
 *
 * Why: express gives every request and response the app's prototypes with `Object.setPrototypeOf`
 * as it starts handling them. V8 then gives each of those objects a hidden class of its own (the
 * properties express, Node and the middleware add afterwards cannot follow a shared transition), so
 * every request created two or more fresh hidden classes, and every access to `req` and `res`, in
 * Node's HTTP code as much as in express and the service, went through megamorphic lookups. Objects
 * constructed with the right prototype from the start make express's `setPrototypeOf` a no-op, and
 * all requests share their hidden classes. bench:streams measured it (docs/studio.md, eighth pass):
 * the front door alone's first event p99 over a burst of 1,000 streams fell by about 40 %.
 *
 * The classes add nothing: each is Node's class with the app's prototype object spliced in above it
 * (`app.request` inherits express's request, which inherits `http.IncomingMessage.prototype`), and
 * the app's `request` and `response` become these classes' prototypes, so `req.app`, `res.json()`
 * and everything else resolve exactly as before.
 */
export function requestClassesOf(app: express.Express): RequestClasses {
  const known = classesOfApp.get(app);
  if (known) return known;
  class AppRequest extends http.IncomingMessage {}
  Object.setPrototypeOf(AppRequest.prototype, app.request);
  class AppResponse extends http.ServerResponse {}
  Object.setPrototypeOf(AppResponse.prototype, app.response);
  app.request = AppRequest.prototype as unknown as express.Request;
  app.response = AppResponse.prototype as unknown as express.Response;
  const classes: RequestClasses = { IncomingMessage: AppRequest, ServerResponse: AppResponse };
  classesOfApp.set(app, classes);
  return classes;
}
