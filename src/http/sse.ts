import type { Request, Response } from 'express';
import { Subject, takeUntil, type Observable } from 'rxjs';
import { AppError } from '../../schemas/errors';
import { toHttpFailure } from './error.middleware';
import { openStreams } from './open-streams';

/** Options of `writeSse`. */
export interface SseOptions<T> {
  /** SSE event name of an item. Default: `'message'`. */
  eventOf?: (item: T) => string;
  /**
   * `id:` of an item, what the client sends back as `Last-Event-ID`. Default: the running sequence
   * number (1, 2, 3, ...; after a resume from `n`, it goes on at `n + 1`).
   */
  idOf?: (item: T, seq: number) => string;
  /** Milliseconds between `: heartbeat` comments, which keep proxies from closing an idle stream. Default 15000; 0 = none. */
  heartbeatMs?: number;
  /**
   * Builds the stream of the items that come after `lastEventId`. When the request carries a
   * `Last-Event-ID` header and this is given, it replaces `source`. Without it, the header is
   * ignored and the stream starts from the beginning.
   */
  resumeFrom?: (lastEventId: string) => Observable<T>;
  /**
   * Events kept in memory while the client is not reading (after `res.write` returned false).
   * Past this bound the client is dropped with a final `error` event; it can reconnect and resume.
   * Default 1000.
   */
  maxBufferedEvents?: number;
  /** Reconnection delay suggested to the client (`retry:`), in milliseconds. Default: none sent. */
  retryMs?: number;
  /**
   * The items are objects that other streams send too, unchanged (a multicast, such as the events
   * of one execution to its subscribers): each one's JSON is computed once and reused.
   */
  sharedItems?: boolean;
}

/** Why a stream ended. */
export type SseEnd = 'complete' | 'error' | 'client-closed' | 'overflow' | 'shutdown';

const DEFAULT_HEARTBEAT_MS = 15_000;
const DEFAULT_MAX_BUFFERED_EVENTS = 1000;
/** A `Last-Event-ID` longer than this, or with line breaks, is ignored. */
const MAX_LAST_EVENT_ID = 200;

/** One field per line: a value with line breaks becomes several lines of the same field. */
function field(name: string, value: string): string {
  return value
    .split(/\r\n|\r|\n/)
    .map((line) => `${name}: ${line}\n`)
    .join('');
}

/** Ids and event names are single-line by protocol; a line break would forge another field. */
function oneLine(value: string): string {
  return value.replace(/[\r\n\0]/g, '');
}

/** Formats one event. `data` is JSON; JSON text has no raw line breaks, `field` covers any other case. */
export function formatSseEvent(event: { id?: string; event?: string; data: unknown }): string {
  return formatWithJson(event.id, event.event, JSON.stringify(event.data) ?? 'null');
}

function formatWithJson(id: string | undefined, name: string | undefined, json: string): string {
  let out = '';
  if (id !== undefined) out += `id: ${oneLine(id)}\n`;
  if (name !== undefined) out += `event: ${oneLine(name)}\n`;
  out += /[\r\n]/.test(json) ? field('data', json) : `data: ${json}\n`;
  return `${out}\n`;
}

/**
 * The JSON of items that several streams send (`SseOptions.sharedItems`): the same object goes to
 * every subscriber of an execution on this node, and is serialised once for all of them.
 */
const sharedJson = new WeakMap<object, string>();

function jsonOf(item: unknown, shared: boolean): string {
  if (!shared || typeof item !== 'object' || item === null) return JSON.stringify(item) ?? 'null';
  let json = sharedJson.get(item);
  if (json === undefined) {
    json = JSON.stringify(item) ?? 'null';
    sharedJson.set(item, json);
  }
  return json;
}

function lastEventIdOf(req: Request): string | undefined {
  const value = req.headers['last-event-id'];
  if (typeof value !== 'string' || value === '' || value.length > MAX_LAST_EVENT_ID) return undefined;
  return /[\r\n\0]/.test(value) ? undefined : value;
}

/** The fixed headers of every event stream. */
const SSE_HEADERS = new Map<string, string>([
  ['Content-Type', 'text/event-stream; charset=utf-8'],
  ['Cache-Control', 'no-cache'],
  // Tells nginx-like proxies not to buffer the stream.
  ['X-Accel-Buffering', 'no'],
]);

/**
 * The `error` event that ends a stream on `err` (`{error, code}`, like HTTP error bodies, never a
 * stack), logged at the failure's level.
 */
function errorEventOf(res: Response, err: unknown): string {
  const failure = toHttpFailure(err, res.locals.requestId ?? '');
  const log = res.locals.log as typeof res.locals.log | undefined;
  if (failure.logLevel !== 'debug') log?.[failure.logLevel]({ err }, 'sse stream failed');
  return formatSseEvent({ event: 'error', data: failure.body });
}

/**
 * Streams an Observable to the client as server-sent events and resolves, never rejects, with the
 * reason it ended. Each item is written as `id: <seq>`, `event: <name>`, `data: <json>`.
 *
 * - An error of the Observable becomes an `error` event (`{error, code}`, like HTTP error bodies,
 *   never a stack), then the stream ends. Completion ends it. Nothing is written after the end.
 * - The client going away (the response closes) unsubscribes, which runs the Observable's
 *   teardown: for `system.stream(...)` that cancels the work upstream.
 * - Backpressure: when `res.write` returns false, events wait in a bounded queue until 'drain'.
 * - A server shutdown (`listen(...).close()`) ends open streams; clients resume with Last-Event-ID.
 */
export function writeSse<T>(
  req: Request,
  res: Response,
  source: Observable<T>,
  options: SseOptions<T> = {},
): Promise<SseEnd> {
  if (res.headersSent) throw new Error('writeSse: the response has already started');
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const maxBuffered = options.maxBufferedEvents ?? DEFAULT_MAX_BUFFERED_EVENTS;
  const eventOf = options.eventOf ?? (() => 'message');
  const idOf = options.idOf ?? ((_item: T, seq: number) => String(seq));
  const shared = options.sharedItems === true;
  // `res.locals.log` builds a child logger on first use: only when there is something to log.
  const logOf = () => res.locals.log as typeof res.locals.log | undefined;

  const lastEventId = lastEventIdOf(req);
  const resuming = lastEventId !== undefined && options.resumeFrom !== undefined;
  // Numeric ids continue after the resume point so ids stay unique across reconnections.
  let seq = resuming && /^\d{1,15}$/.test(lastEventId) ? Number(lastEventId) : 0;
  const items$ = resuming && options.resumeFrom ? options.resumeFrom(lastEventId) : source;

  res.status(200);
  res.setHeaders(SSE_HEADERS);
  // The headers and the events of this turn leave in one write (below, `flush`).
  res.cork();
  res.flushHeaders();
  // Events are small and latency matters more than packet count.
  req.socket?.setNoDelay(true);
  if (options.retryMs !== undefined) res.write(`retry: ${Math.max(0, Math.floor(options.retryMs))}\n\n`);

  return new Promise<SseEnd>((resolve) => {
    const stop$ = new Subject<void>();
    const queue: string[] = [];
    const streams = req.app ? openStreams(req.app) : undefined;
    let waitingForDrain = false;
    let ended = false;
    let heartbeat: NodeJS.Timeout | undefined;
    // The events of one turn of the event loop, sent together at its end (`flush`).
    let pending = '';
    let corked = true;

    const writable = () => !res.writableEnded && !res.destroyed;

    /**
     * Sends what this turn gave in one write (the headers too, the first time). Several events
     * arriving together (a step's lines, its end and the new state) cost one system call and one
     * chunk instead of one each: with 200 subscribers of one execution, the writes were most of the
     * fan-out's time, and each event waited for the writes of the ones before it to every client.
     */
    const flush = () => {
      const chunk = pending;
      pending = '';
      if (ended || !writable()) return;
      if (chunk !== '' && !res.write(chunk)) waitingForDrain = true;
      if (corked) {
        corked = false;
        res.uncork();
      }
    };
    setImmediate(flush);

    const finish = (reason: SseEnd, finalEvent?: string) => {
      if (ended) return;
      ended = true;
      if (heartbeat) clearInterval(heartbeat);
      res.off('drain', onDrain);
      res.off('close', onClose);
      streams?.delete(onShutdown);
      // Unsubscribes from the source (synchronously, even mid-emission): its teardown runs now.
      stop$.next();
      stop$.complete();
      if (writable()) {
        // What is queued is bounded; on overflow it is exactly what the client could not take.
        // (`pending` holds the latest events only when nothing waits in `queue`.)
        if (reason !== 'overflow') for (const chunk of [pending, ...queue]) if (chunk) res.write(chunk);
        if (finalEvent) res.write(finalEvent);
        res.end();
      }
      queue.length = 0;
      const log = logOf();
      if (log?.isLevelEnabled('debug')) log.debug({ reason }, 'sse stream ended');
      resolve(reason);
    };

    const send = (chunk: string) => {
      if (ended || !writable()) return;
      if (!waitingForDrain) {
        if (pending === '' && !corked) setImmediate(flush);
        pending += chunk;
        return;
      }
      queue.push(chunk);
      if (queue.length > maxBuffered) {
        const overflow = new AppError(
          'UNAVAILABLE',
          'Stream closed: the client did not keep up. Reconnect with Last-Event-ID to resume.',
        );
        finish('overflow', errorEventOf(res, overflow));
      }
    };

    function onDrain() {
      waitingForDrain = false;
      while (queue.length > 0 && !waitingForDrain) {
        if (!res.write(queue.shift() as string)) waitingForDrain = true;
      }
    }
    // 'close' on the response, not the request: since Node 16 the request's 'close' may fire once
    // its body is read, while the connection is still open.
    function onClose() {
      finish('client-closed');
    }
    function onShutdown() {
      finish('shutdown');
    }

    // The client may have left while the route was still getting ready (auth, an ask...).
    if (!writable() || req.socket?.destroyed) {
      finish('client-closed');
      return;
    }
    res.on('drain', onDrain);
    res.on('close', onClose);
    streams?.add(onShutdown);
    if (heartbeatMs > 0) {
      heartbeat = setInterval(() => {
        // A stalled client gains nothing from more bytes; the queue already holds its data.
        if (!waitingForDrain) send(': heartbeat\n\n');
      }, heartbeatMs);
      heartbeat.unref();
    }

    items$.pipe(takeUntil(stop$)).subscribe({
      next: (item) => {
        // A throw here would escape RxJS as an unhandled error and take the process down.
        try {
          seq += 1;
          send(formatWithJson(idOf(item, seq), eventOf(item), jsonOf(item, shared)));
        } catch (err) {
          finish('error', errorEventOf(res, err));
        }
      },
      error: (err: unknown) => finish('error', errorEventOf(res, err)),
      complete: () => finish('complete'),
    });
  });
}

/**
 * An event stream of two parts: `first` now, and the events `rest` resolves, then the end (a
 * stream answered at once: its record stored, its step still to run). The same `id:`, `event:`,
 * `data:` as `writeSse` sends for the same items, without its machinery (no subscription, no
 * buffer, no heartbeat: the rest comes within moments): the headers and the first event in one
 * write, the rest and the end in another. If `rest` rejects, an `error` event (`{error, code}`,
 * as `writeSse` writes it) ends the stream. Resolves how it ended; never rejects.
 */
export async function writeSseFirstThenRest<T>(
  req: Request,
  res: Response,
  first: T,
  rest: Promise<readonly T[]>,
  options: Pick<SseOptions<T>, 'eventOf'> = {},
): Promise<SseEnd> {
  if (res.headersSent) throw new Error('writeSseFirstThenRest: the response has already started');
  const eventOf = options.eventOf ?? (() => 'message');
  const gone = () => res.writableEnded || res.destroyed || req.socket?.destroyed === true;
  if (gone()) {
    rest.catch(() => undefined); // the work goes on without the client; its failure is its own
    return 'client-closed';
  }
  res.status(200);
  res.setHeaders(SSE_HEADERS);
  // Events are small and latency matters more than packet count.
  req.socket?.setNoDelay(true);
  // Node corks the socket for the rest of this turn: headers and first event leave together.
  res.write(formatSseEvent({ id: '1', event: eventOf(first), data: first }));
  let body = '';
  let reason: SseEnd = 'complete';
  try {
    const items = await rest;
    for (let i = 0; i < items.length; i += 1) {
      const item = items[i] as T;
      body += formatSseEvent({ id: String(i + 2), event: eventOf(item), data: item });
    }
  } catch (err) {
    body = errorEventOf(res, err);
    reason = 'error';
  }
  if (gone()) return 'client-closed';
  res.end(body);
  return reason;
}
