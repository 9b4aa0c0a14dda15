import type { RequestHandler, Response } from 'express';

/** Value of a response header as `res.setHeader` takes it. */
export type HeaderValue = string | number | readonly string[];

/** What a header-only middleware does to every response: headers it sets, headers it removes. */
export interface RecordedHeaders {
  set: ReadonlyMap<string, HeaderValue>;
  removed: readonly string[];
}

/**
 * Runs a middleware that only sets and removes response headers (helmet, with options that do
 * not depend on the request) once, against a recording stand-in, and returns what it did, to be
 * replayed on every response without a dozen nested middleware calls per request. Fails at boot
 * when the middleware does anything else (reads the request, answers, calls `next` with an error
 * or later), so a helmet option that needs the request cannot be replayed wrongly.
 */
export function recordHeaders(middleware: RequestHandler): RecordedHeaders {
  const set: Array<[string, HeaderValue]> = [];
  const removed: string[] = [];
  const recorder = {
    setHeader(name: string, value: HeaderValue) {
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
        throw new Error('recordHeaders: the middleware reads the request; it cannot be precomputed');
      },
    },
  );
  let called = false;
  void middleware(request as never, recorder as unknown as Response, (err?: unknown) => {
    if (err !== undefined) throw new Error('recordHeaders: the middleware failed', { cause: err });
    called = true;
  });
  if (!called) throw new Error('recordHeaders: the middleware did not call next() at once');
  return { set: new Map(set), removed };
}
