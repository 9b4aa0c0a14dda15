/**
 * Long-lived responses (SSE) still open, per app, so a graceful shutdown can end them instead of
 * waiting for clients that may never leave. Keyed by the express app: `req.app` in a handler,
 * the app given to `listen`.
 */
const streamsByApp = new WeakMap<object, Set<() => void>>();

/** The set of "end this stream now" callbacks of one app (created on first use). */
export function openStreams(app: object): Set<() => void> {
  let streams = streamsByApp.get(app);
  if (!streams) {
    streams = new Set();
    streamsByApp.set(app, streams);
  }
  return streams;
}
