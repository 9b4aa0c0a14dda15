import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type express from 'express';
import { AcceptFirst } from './accept-first';
import { answerClientError } from './client-error';
import { openStreams } from './open-streams';
import { requestClassesOf } from './request-classes';

/** Options of `listen`. */
export interface ListenOptions {
  host: string;
  /** 0 = any free port (tests). */
  port: number;
  /**
   * How long an idle keep-alive connection stays open, in milliseconds. Default 65000: longer than
   * the 60 s idle timeout of common load balancers, so the proxy, not Node, closes idle connections
   * (otherwise a request racing Node's close gets a 502).
   */
  keepAliveTimeoutMs?: number;
  /** Default bound of `close()`, in milliseconds. Default 10000. */
  graceMs?: number;
}

/** A listening front door. */
export interface HttpServerHandle {
  readonly server: http.Server;
  /** The app it serves (its requests reach it through the front door's queue: accept-first.ts). */
  readonly app: express.Express;
  /** Bound port (the real one when `port` was 0). */
  readonly port: number;
  /** `http://host:port` */
  readonly url: string;
  /**
   * Graceful stop: stops accepting connections, ends open SSE streams (clients resume elsewhere with
   * Last-Event-ID), lets requests in flight finish, and after `graceMs` closes whatever is left.
   * Idempotent: later calls return the same promise.
   */
  close(graceMs?: number): Promise<void>;
}

const DEFAULT_KEEP_ALIVE_MS = 65_000;
const DEFAULT_GRACE_MS = 10_000;

/** Starts serving `app`; resolves once the port is bound, rejects if it cannot be (EADDRINUSE...). */
/** Connections the kernel may queue for `accept` (see the comment where the server listens). */
const LISTEN_BACKLOG = 4096;

export function listen(app: express.Express, options: ListenOptions): Promise<HttpServerHandle> {
  // Requests and responses born with the app's prototypes: express then does not give each one a
  // hidden class of its own (request-classes.ts).
  const server = http.createServer(requestClassesOf(app));
  // Connections first, then their requests, in turns between senders (accept-first.ts).
  new AcceptFirst().attach(server, app);
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? DEFAULT_KEEP_ALIVE_MS;
  // Must exceed keepAliveTimeout, or a slow first header line on a reused connection is cut.
  server.headersTimeout = server.keepAliveTimeout + 1000;
  // Requests Node's parser refuses get the JSON error body of every other error.
  server.on('clientError', answerClientError);

  let inFlight = 0;
  let drained: (() => void) | undefined;
  let closing: Promise<void> | undefined;
  server.on('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    inFlight += 1;
    // A request on a kept-alive connection during shutdown: its connection must not stay open.
    if (closing) res.setHeader('Connection', 'close');
    res.once('close', () => {
      inFlight -= 1;
      // Next tick: the connection only counts as idle once Node has finished with the response.
      if (inFlight === 0 && drained) setImmediate(drained);
    });
  });

  const close = (graceMs = options.graceMs ?? DEFAULT_GRACE_MS): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
      deadline.unref();
      // Resolves when the last connection is gone (and at once if it never listened).
      server.close(() => {
        clearTimeout(deadline);
        resolve();
      });
      // Node closes idle keep-alive sockets on close(); busy ones are closed once they are idle.
      drained = () => server.closeIdleConnections();
      for (const end of [...openStreams(app)]) end();
      if (inFlight === 0) setImmediate(drained);
    });
    return closing;
  };

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    // A backlog of 4,096 (the kernel caps it at net.core.somaxconn): with Node's default of 511,
    // a burst of 5,000 clients opening their event streams at once (bench:streams, held streams)
    // saw about 4 % of the connections reset before the server could accept them.
    server.listen({ port: options.port, host: options.host, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const host = options.host.includes(':') ? `[${options.host}]` : options.host;
      resolve({ server, app, port, url: `http://${host}:${port}`, close });
    });
  });
}
