import http from 'node:http';
import { Observable, Subject, concat, map, of, range, throwError } from 'rxjs';
import { errors } from '../../../schemas/errors';
import { buildApp } from '../../../src/http/app';
import type { RouteModule } from '../../../src/http/app.types';
import { listen, type HttpServerHandle } from '../../../src/http/listen';
import { formatSseEvent, writeSse, writeSseFirstThenRest, type SseEnd } from '../../../src/http/sse';
import { AppError } from '../../../schemas/errors';
import { testDeps } from '../../unit/http/support/test-app';
import { openSse, parseSse } from './support/sse-client';

/** What the test routes report back: how each stream ended and whether its source was torn down. */
const outcomes: Promise<SseEnd>[] = [];
/** Writes to the socket of the `/t/turn` stream while its three events went out. */
const turnWrites: number[] = [];
let teardowns = 0;
let writesRefused = 0;
let onTeardown: (() => void) | undefined;
const resumedFrom: string[] = [];

/** A source that emits `first`, then stays open until unsubscribed, counting its teardown. */
function openEnded<T>(first: T[]): Observable<T> {
  return new Observable<T>((subscriber) => {
    for (const item of first) subscriber.next(item);
    return () => {
      teardowns += 1;
      onTeardown?.();
    };
  });
}

const streamRoutes: RouteModule = (router) => {
  router.get('/t/basic', (req, res) => {
    const items = of(
      { kind: 'execution', id: 'exe_1' },
      { kind: 'reply', text: 'line one\nline two\r\nline three' },
      { kind: 'done' },
    );
    outcomes.push(writeSse(req, res, items, { eventOf: (i) => i.kind, retryMs: 2000 }));
  });
  router.get('/t/two-part', (req, res) => {
    const later = new Promise<Array<{ kind: string; text?: string; id?: string }>>((resolve, reject) =>
      setTimeout(
        () =>
          req.query.fail
            ? reject(new AppError('CONFLICT', 'The end was not recorded'))
            : resolve([{ kind: 'reply', text: 'line one\nline two\r\nline three' }, { kind: 'done' }]),
        30,
      ),
    );
    outcomes.push(
      writeSseFirstThenRest(req, res, { kind: 'execution', id: 'exe_1' }, later, { eventOf: (i) => i.kind }),
    );
  });
  router.get('/t/two-part-left', (req, res) => {
    // The rest fails after the client left: nothing is written, and nothing is left unhandled.
    const later = new Promise<Array<{ kind: string }>>((_, reject) =>
      setTimeout(() => reject(new AppError('CONFLICT', 'too late')), 100),
    );
    outcomes.push(writeSseFirstThenRest(req, res, { kind: 'execution' }, later, { eventOf: (i) => i.kind }));
  });
  router.get('/t/two-part-as-stream', (req, res) => {
    const items = of(
      { kind: 'execution', id: 'exe_1' },
      { kind: 'reply', text: 'line one\nline two\r\nline three' },
      { kind: 'done' },
    );
    outcomes.push(writeSse(req, res, items, { eventOf: (i) => i.kind }));
  });
  router.get('/t/turn', (req, res) => {
    // Counts the writes to the socket while three events are sent in one turn of the event loop.
    const socket = req.socket as unknown as Record<'_write' | '_writev', (...args: unknown[]) => void>;
    const items = new Subject<{ n: number }>();
    outcomes.push(writeSse(req, res, items, { heartbeatMs: 0 }));
    setTimeout(() => {
      let writes = 0;
      for (const name of ['_write', '_writev'] as const) {
        const original = socket[name];
        socket[name] = function counted(this: unknown, ...args: unknown[]) {
          writes += 1;
          return original.apply(this, args);
        };
      }
      // Two ticks of one turn: Node's own corking covers one tick only (it uncorks in a
      // `process.nextTick` queued by the first write), so these went out in two writes before.
      items.next({ n: 1 });
      process.nextTick(() => {
        items.next({ n: 2 });
        items.next({ n: 3 });
      });
      setImmediate(() => {
        turnWrites.push(writes);
        items.complete();
      });
    }, 30);
  });
  router.get('/t/hold', (req, res) => {
    const heartbeatMs = Number(req.query.heartbeatMs ?? 0);
    outcomes.push(writeSse(req, res, openEnded([{ n: 1 }]), { heartbeatMs }));
  });
  router.get('/t/resume', (req, res) => {
    const from = (n: number) => range(n + 1, 5 - n).pipe(map((i) => ({ n: i })));
    outcomes.push(
      writeSse(req, res, from(0), {
        resumeFrom: (lastEventId) => {
          resumedFrom.push(lastEventId);
          return from(Number(lastEventId));
        },
      }),
    );
  });
  router.get('/t/fail/:how', (req, res) => {
    const failure =
      req.params.how === 'app'
        ? errors.conflict('Execution is already finished', { status: 'COMPLETED' })
        : new Error('secret db failure');
    outcomes.push(
      writeSse(
        req,
        res,
        concat(
          of({ n: 1 }),
          throwError(() => failure),
        ),
      ),
    );
  });
  router.get('/t/flood', (req, res) => {
    const big = 'x'.repeat(64 * 1024);
    const source = new Observable<string>((subscriber) => {
      const timer = setInterval(() => {
        for (let i = 0; i < 16; i += 1) subscriber.next(big);
      }, 1);
      return () => {
        clearInterval(timer);
        teardowns += 1;
        onTeardown?.();
      };
    });
    outcomes.push(writeSse(req, res, source, { maxBufferedEvents: 8, heartbeatMs: 0 }));
  });
  router.get('/t/many', (req, res) => {
    // Emitted synchronously: far more than the socket takes at once, so the queue and 'drain' are used.
    const chunk = 'y'.repeat(64 * 1024);
    const write = res.write.bind(res) as (chunk: string) => boolean;
    res.write = ((c: string) => {
      const accepted = write(c);
      if (!accepted) writesRefused += 1;
      return accepted;
    }) as typeof res.write;
    outcomes.push(writeSse(req, res, range(0, 400).pipe(map((i) => ({ i, chunk })))));
  });
};

let server: HttpServerHandle;

beforeAll(async () => {
  const { deps } = testDeps();
  deps.routes = [streamRoutes];
  server = await listen(buildApp(deps), { host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await server.close(1000);
});

beforeEach(() => {
  outcomes.length = 0;
  teardowns = 0;
  writesRefused = 0;
  onTeardown = undefined;
  resumedFrom.length = 0;
});

function teardownRan(): Promise<void> {
  return new Promise((resolve) => {
    if (teardowns > 0) resolve();
    else onTeardown = resolve;
  });
}

describe('writeSseFirstThenRest over a real socket', () => {
  it('sends the first event at once and the rest later: the same events writeSse sends', async () => {
    outcomes.length = 0;
    const conn = await openSse(`${server.url}/t/two-part`);
    expect(conn.res.statusCode).toBe(200);
    expect(conn.res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(conn.res.headers['cache-control']).toBe('no-cache');
    expect(conn.res.headers['x-accel-buffering']).toBe('no');
    expect(conn.res.headers['x-request-id']).toBeTruthy();
    // The first event is there before the rest is known.
    const early = await conn.until((t) => t.includes('\n\n'));
    expect(parseSse(early).events.map((e) => e.event)).toEqual(['execution']);
    const body = await conn.ended;
    const streamed = await openSse(`${server.url}/t/two-part-as-stream`);
    expect(body).toBe(await streamed.ended);
    expect(parseSse(body).events.map((e) => [e.id, e.event])).toEqual([
      ['1', 'execution'],
      ['2', 'reply'],
      ['3', 'done'],
    ]);
    expect(await Promise.all(outcomes)).toEqual(['complete', 'complete']);
  });

  it('ends with an error event when the rest fails', async () => {
    outcomes.length = 0;
    const body = await (await openSse(`${server.url}/t/two-part?fail=1`)).ended;
    const { events } = parseSse(body);
    expect(events.map((e) => e.event)).toEqual(['execution', 'error']);
    expect(JSON.parse(events[1]!.data)).toEqual({ error: 'The end was not recorded', code: 'CONFLICT' });
    expect(await Promise.all(outcomes)).toEqual(['error']);
  });
});

describe('writeSseFirstThenRest: the client leaves at the first event', () => {
  it('ends as client-closed once the rest settles, even a rest that fails', async () => {
    outcomes.length = 0;
    const conn = await openSse(`${server.url}/t/two-part-left`);
    await conn.until((t) => t.includes('event: execution'));
    conn.abort();
    expect(await Promise.all(outcomes)).toEqual(['client-closed']);
  });
});

describe('writeSse: the events of one turn', () => {
  // Node's response corks its socket for the rest of the turn on a chunked write: an execution's
  // broadcast of several events, or the end of a stream answered at once, is one syscall.
  it('leave in one write to the socket, not one each', async () => {
    const conn = await openSse(`${server.url}/t/turn`);
    const body = await conn.ended;
    expect(parseSse(body).events.map((e) => e.data)).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
    expect(turnWrites).toEqual([1]);
  });
});

describe('writeSse over a real socket', () => {
  it('writes id/event/data per item with SSE headers, then ends on complete', async () => {
    const conn = await openSse(`${server.url}/t/basic`);
    expect(conn.res.statusCode).toBe(200);
    expect(conn.res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(conn.res.headers['cache-control']).toBe('no-cache');
    expect(conn.res.headers['x-accel-buffering']).toBe('no');
    expect(conn.res.headers['x-request-id']).toBeTruthy();
    const body = await conn.ended;
    expect(body.startsWith('retry: 2000\n\n')).toBe(true);
    expect(body).toContain('id: 1\nevent: execution\ndata: {"kind":"execution","id":"exe_1"}\n\n');
    const { events } = parseSse(body);
    expect(events.map((e) => [e.id, e.event])).toEqual([
      ['1', 'execution'],
      ['2', 'reply'],
      ['3', 'done'],
    ]);
    // Line breaks inside data never break the framing.
    expect(JSON.parse(events[1].data)).toEqual({ kind: 'reply', text: 'line one\nline two\r\nline three' });
    expect(await outcomes[0]).toBe('complete');
  });

  it('sends heartbeat comments at the configured interval', async () => {
    const conn = await openSse(`${server.url}/t/hold?heartbeatMs=30`);
    await conn.until((t) => (t.match(/: heartbeat\n\n/g) ?? []).length >= 3);
    expect(parseSse(conn.text()).events).toHaveLength(1);
    conn.abort();
    expect(await outcomes[0]).toBe('client-closed');
  });

  it('unsubscribes when the client goes away: the source teardown runs', async () => {
    const conn = await openSse(`${server.url}/t/hold`);
    await conn.until((t) => t.includes('data: {"n":1}'));
    expect(teardowns).toBe(0);
    conn.abort();
    await teardownRan();
    expect(teardowns).toBe(1);
    expect(await outcomes[0]).toBe('client-closed');
  });

  it('resumes after Last-Event-ID through resumeFrom, continuing the numbering', async () => {
    const first = parseSse(await (await openSse(`${server.url}/t/resume`)).ended).events;
    expect(first.map((e) => e.id)).toEqual(['1', '2', '3', '4', '5']);

    const resumed = parseSse(
      await (
        await openSse(`${server.url}/t/resume`, { 'Last-Event-ID': '3' })
      ).ended,
    ).events;
    expect(resumedFrom).toEqual(['3']);
    expect(resumed.map((e) => [e.id, JSON.parse(e.data).n])).toEqual([
      ['4', 4],
      ['5', 5],
    ]);
  });

  it('ignores a malformed Last-Event-ID', async () => {
    const events = parseSse(
      await (
        await openSse(`${server.url}/t/resume`, { 'Last-Event-ID': 'x'.repeat(300) })
      ).ended,
    ).events;
    expect(resumedFrom).toEqual([]);
    expect(events).toHaveLength(5);
  });

  it('writes an error event (no secret, no stack) on an unknown error, then ends', async () => {
    const conn = await openSse(`${server.url}/t/fail/unknown`);
    const body = await conn.ended;
    const { events } = parseSse(body);
    expect(events.map((e) => e.event)).toEqual(['message', 'error']);
    expect(JSON.parse(events[1].data)).toEqual({
      error: 'Internal error',
      code: 'INTERNAL_ERROR',
      requestId: conn.res.headers['x-request-id'],
    });
    expect(body).not.toMatch(/secret|stack/);
    expect(events[1].id).toBeUndefined();
    expect(await outcomes[0]).toBe('error');
  });

  it('writes an AppError as its body in the error event', async () => {
    const events = parseSse(await (await openSse(`${server.url}/t/fail/app`)).ended).events;
    expect(JSON.parse(events[1].data)).toEqual({
      error: 'Execution is already finished',
      code: 'CONFLICT',
      status: 'COMPLETED',
    });
  });

  it('delivers everything, in order, to a client that pauses then reads (backpressure)', async () => {
    const conn = await openSse(`${server.url}/t/many`);
    conn.res.pause();
    await new Promise((r) => setTimeout(r, 300));
    conn.res.resume();
    const events = parseSse(await conn.ended).events;
    expect(events).toHaveLength(400);
    expect(events.map((e) => JSON.parse(e.data).i)).toEqual([...Array(400).keys()]);
    expect(await outcomes[0]).toBe('complete');
    expect(writesRefused).toBeGreaterThan(0);
  });

  it('drops a client that does not read once the buffer bound is passed, with a final error event', async () => {
    const conn = await openSse(`${server.url}/t/flood`);
    conn.res.pause();
    expect(await outcomes[0]).toBe('overflow');
    await teardownRan();
    // The client can still read what was sent before it was dropped, ending with the error event.
    conn.res.resume();
    const body = await conn.ended;
    const last = parseSse(body).events.at(-1);
    expect(last?.event).toBe('error');
    expect(JSON.parse(last?.data ?? '{}')).toMatchObject({ code: 'UNAVAILABLE' });
  });
});

describe('formatSseEvent', () => {
  it('keeps ids and event names on one line and splits multi-line data', () => {
    expect(formatSseEvent({ id: '1\n2', event: 'a\r\nb', data: 'x' })).toBe(
      'id: 12\nevent: ab\ndata: "x"\n\n',
    );
    expect(formatSseEvent({ data: undefined })).toBe('data: null\n\n');
  });
});

describe('listen(...).close()', () => {
  it('ends open SSE streams, lets in-flight requests finish, then stops', async () => {
    let release: () => void = () => undefined;
    const slowRoutes: RouteModule = (router) => {
      router.get('/t/hold', (req, res) => {
        outcomes.push(writeSse(req, res, openEnded([{ n: 1 }])));
      });
      router.get('/t/slow', async (_req, res) => {
        await new Promise<void>((r) => (release = r));
        res.json({ finished: true });
      });
    };
    const { deps } = testDeps();
    deps.routes = [slowRoutes];
    const handle = await listen(buildApp(deps), { host: '127.0.0.1', port: 0 });

    const stream = await openSse(`${handle.url}/t/hold`);
    await stream.until((t) => t.includes('data:'));
    const slow = fetch(`${handle.url}/t/slow`).then(async (r) => ({
      status: r.status,
      body: await r.json(),
    }));
    await new Promise((r) => setTimeout(r, 50));

    let closed = false;
    const closing = handle.close(5000).then(() => (closed = true));
    await stream.ended;
    expect(await outcomes[0]).toBe('shutdown');
    await teardownRan();
    expect(closed).toBe(false);

    release();
    expect(await slow).toEqual({ status: 200, body: { finished: true } });
    await closing;
    // No longer accepting connections.
    await expect(fetch(`${handle.url}/t/hold`)).rejects.toThrow();
  });

  it('bounds the wait: connections still busy after graceMs are closed', async () => {
    const stuck: RouteModule = (router) => {
      router.get('/t/never', () => new Promise(() => undefined));
    };
    const { deps } = testDeps();
    deps.routes = [stuck];
    const handle = await listen(buildApp(deps), { host: '127.0.0.1', port: 0 });
    const req = http.get(`${handle.url}/t/never`);
    const failed = new Promise((resolve) => req.on('error', resolve));
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await handle.close(200);
    expect(Date.now() - started).toBeLessThan(2000);
    await failed;
  });

  it('serves plain JSON over the socket with keep-alive settings for load balancers', async () => {
    const res = await fetch(`${server.url}/nope`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'No route for GET /nope', code: 'NOT_FOUND' });
    expect(server.server.keepAliveTimeout).toBe(65000);
    expect(server.server.headersTimeout).toBeGreaterThan(65000);
  });
});
