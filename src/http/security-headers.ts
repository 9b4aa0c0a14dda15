import type { RequestHandler, Response } from 'express';

/**
 * Runs a middleware that only sets and removes response headers (helmet, with options that do
 * not depend on the request) once, against a recording stand-in, and returns a middleware that
 * replays what it did: the same headers, without a dozen nested middleware calls per request.
 * Fails at boot when the middleware does anything else (reads the request, answers, calls
 * `next` with an error or later), so a helmet option that needs the request cannot be replayed
 * wrongly.
 */
export function replayHeaders(middleware: RequestHandler): RequestHandler {
  const set: Array<[string, string | number | readonly string[]]> = [];
  const removed: string[] = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      set.push([name, value]);
      return recorder;
    },
    removeHeader(name: string) {
      removed.push(name);
    },
  };
  const request = new Proxy(
    {},
    {
      get() {
        throw new Error('replayHeaders: the middleware reads the request; it cannot be precomputed');
      },
    },
  );
  let called = false;
  void middleware(request as never, recorder as unknown as Response, (err?: unknown) => {
    if (err !== undefined) throw new Error('replayHeaders: the middleware failed', { cause: err });
    called = true;
  });
  if (!called) throw new Error('replayHeaders: the middleware did not call next() at once');

  const headers = new Map(set.map(([name, value]) => [name, value]));
  return (_req, res, next) => {
    for (const name of removed) res.removeHeader(name);
    res.setHeaders(headers);
    next();
  };
}
