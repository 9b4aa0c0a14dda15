import type { RequestHandler } from 'express';
import type { Tracer } from '../telemetry/tracing';

/**
 * The front door's span (tracing on only: buildApp adds this layer when a tracer exists). Each
 * request runs in a server span, child of the caller's `traceparent` header when it sends one,
 * so the route, the envelopes it sends and everything after join one trace. Named and labelled
 * by the route's pattern (`POST /mcp`, never the URL) when the response is finished.
 */
export function traceRequests(tracer: Tracer, nodeId: string): RequestHandler {
  return (req, res, next) => {
    const header = req.headers.traceparent;
    tracer.inSpan(
      `${req.method} unmatched`,
      {
        kind: 'server',
        parent: typeof header === 'string' ? header : undefined,
        attributes: { 'http.request.method': req.method, 'node.id': nodeId },
      },
      (span) =>
        new Promise<void>((resolve) => {
          const done = () => {
            res.off('finish', done);
            res.off('close', done);
            const route = (req.route as { path?: unknown } | undefined)?.path;
            const pattern = typeof route === 'string' ? route : 'unmatched';
            span.rename(`${req.method} ${pattern}`);
            span.setAttribute('http.route', pattern);
            span.setAttribute('http.response.status_code', res.statusCode);
            if (res.statusCode >= 500) span.fail({ code: String(res.statusCode) });
            resolve();
          };
          res.on('finish', done);
          res.on('close', done);
          next();
        }),
    );
  };
}
