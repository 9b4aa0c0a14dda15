import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { RequestHandler } from 'express';
import type { EnvelopeAuth } from '../kernel/kernel.types';
import type { Logger } from '../logging/logger';
import type { HeaderValue, RecordedHeaders } from './security-headers';

declare module 'express-serve-static-core' {
  interface Locals {
    /** Id of this request: the caller's well-formed `X-Request-Id`, or a generated UUID. */
    requestId: string;
    /** Child of the root logger carrying `reqId`; use it for every log line about this request. */
    log: Logger;
    /** The authenticated caller, set by `requireAuth`; copied into envelopes as `auth`. */
    auth?: EnvelopeAuth;
  }
}

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** What an incoming id must look like to be reused; anything else is replaced, never echoed. */
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** Accepts a caller's request id when it is well formed, so traces join across services. */
export function requestIdFrom(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && REQUEST_ID_PATTERN.test(value) ? value : randomUUID();
}

/** Options of `requestContext`. */
export interface RequestContextOptions {
  /**
   * Headers every response carries whatever the request (helmet's, see `recordHeaders`), set
   * together with `Cache-Control` in one `setHeaders` call.
   */
  headers?: RecordedHeaders;
  /**
   * Runs in place of `next()`, in the same router layer: the front door's other per-request
   * preliminaries, without one more walk of the router per request.
   */
  then?: RequestHandler;
}

/**
 * First middleware of the app: gives the request its id (header `X-Request-Id` on every response)
 * and its child logger, sets the fixed headers, and writes one line when the response is over. It
 * logs method, path (without the query string, which may carry tokens), status and duration: never
 * bodies, headers, authorization or cookies.
 */
export function requestContext(logger: Logger, options: RequestContextOptions = {}): RequestHandler {
  const infoEnabled = logger.isLevelEnabled('info');
  const removed = options.headers?.removed ?? [];
  // A JSON API answers per caller: keep intermediaries from storing answers unless a route opts in.
  const fixed = new Map<string, HeaderValue>([
    ['Cache-Control', 'no-store'],
    ...(options.headers?.set ?? []),
  ]);
  const then = options.then;
  /**
   * `res.locals` of one request: `log` is built on first use (most requests never log anything
   * but the completion line), from a getter on the prototype rather than a property defined per
   * request.
   */
  class RequestLocals {
    private child: Logger | undefined;
    constructor(readonly requestId: string) {}
    get log(): Logger {
      return (this.child ??= logger.child({ reqId: this.requestId }));
    }
  }

  return (req, res, next) => {
    const started = performance.now();
    const requestId = requestIdFrom(req.headers['x-request-id']);
    // Express creates an empty `res.locals` per request; nothing has been put in it yet.
    res.locals = new RequestLocals(requestId) as unknown as typeof res.locals;
    for (const name of removed) res.removeHeader(name);
    res.setHeader(REQUEST_ID_HEADER, requestId);
    res.setHeaders(fixed);

    // `close` comes once per response: `on` spares `once`'s wrapper and its removal.
    res.on('close', () => {
      if (!infoEnabled && res.statusCode < 500) return;
      const durationMs = performance.now() - started;
      const line = {
        method: req.method,
        path: req.originalUrl.split('?')[0],
        status: res.statusCode,
        durationMs: Math.round(durationMs * 10) / 10,
        // Closed before the last byte was handed to the OS: the client went away (or a stream ended early).
        ...(res.writableFinished ? {} : { aborted: true }),
      };
      if (res.statusCode >= 500) res.locals.log.error(line, 'request completed');
      else res.locals.log.info(line, 'request completed');
    });
    if (then) then(req, res, next);
    else next();
  };
}
