import { EventEmitter } from 'node:events';
import type http from 'node:http';
import { AcceptFirst, requestsWaiting, senderOf } from '../../../src/http/accept-first';

/**
 * The front door's scheduler (src/http/accept-first.ts), driven by hand: a clock that moves only
 * when told, turns of the "event loop" run one at a time, connections accepted by emitting
 * `connection` on a stand-in server.
 */
function harness(options: { maxHoldMs?: number; sliceMs?: number } = {}) {
  let clock = 0;
  const turns: Array<() => void> = [];
  const scheduler = new AcceptFirst({ ...options, now: () => clock, later: (fn) => turns.push(fn) });
  const server = new EventEmitter() as unknown as http.Server;
  const ran: string[] = [];
  scheduler.attach(server, (req) => ran.push(String(req.url)));
  const request = (url: string, authorization?: string) =>
    server.emit(
      'request',
      { url, headers: authorization ? { authorization } : {}, socket: { remoteAddress: '127.0.0.1' } },
      {},
    );
  return {
    scheduler,
    server,
    ran,
    request,
    accept: () => server.emit('connection', {}),
    advance: (ms: number) => (clock += ms),
    /** Runs the turns scheduled so far (the next turn of the loop); false when none was. */
    turn: () => {
      const now = turns.splice(0);
      for (const fn of now) fn();
      return now.length > 0;
    },
  };
}

describe('AcceptFirst: connections first, then requests in turns between senders', () => {
  it('runs a request in the next turn when nothing is being accepted', () => {
    const h = harness();
    h.request('/a');
    expect(h.ran).toEqual([]);
    h.turn();
    expect(h.ran).toEqual(['/a']);
    expect(h.scheduler.queued).toBe(0);
    expect(h.turn()).toBe(false);
  });

  it('holds requests while connections keep being accepted, at most `maxHoldMs`', () => {
    const h = harness({ maxHoldMs: 50 });
    h.accept();
    h.request('/1');
    for (let i = 0; i < 4; i += 1) {
      h.accept(); // a burst still coming in: one connection per turn
      h.advance(10);
      h.turn();
      expect(h.ran).toEqual([]);
    }
    h.accept();
    h.advance(10); // the oldest request has now waited 50 ms: it runs, burst or not
    h.turn();
    expect(h.ran).toEqual(['/1']);
  });

  it('runs the queue once a turn passes without a new connection', () => {
    const h = harness({ maxHoldMs: 1000 });
    h.accept();
    h.request('/1');
    h.accept();
    h.request('/2');
    h.turn(); // connections were accepted since the last turn: hold
    expect(h.ran).toEqual([]);
    h.turn(); // none since: run
    expect(h.ran).toEqual(['/1', '/2']);
  });

  it('serves senders in turn, each one first come first served', () => {
    const h = harness();
    for (let i = 1; i <= 4; i += 1) h.request(`/a${i}`, 'Bearer a');
    h.request('/b1', 'Bearer b');
    h.request('/c1', 'Bearer c');
    h.request('/b2', 'Bearer b');
    h.turn();
    expect(h.ran).toEqual(['/a1', '/b1', '/c1', '/a2', '/b2', '/a3', '/a4']);
  });

  it('runs at most `sliceMs` of work per turn and goes on in the next one, losing nothing', () => {
    const turns: Array<() => void> = [];
    const ran: number[] = [];
    // Each request "takes" 4 ms of the clock.
    const scheduler = new AcceptFirst({
      sliceMs: 10,
      now: () => ran.length * 4,
      later: (fn) => turns.push(fn),
    });
    const server = new EventEmitter() as unknown as http.Server;
    scheduler.attach(server, (req) => ran.push(Number(req.url)));
    for (let i = 0; i < 7; i += 1) {
      server.emit('request', { url: String(i), headers: {}, socket: { remoteAddress: 'x' } }, {});
    }
    const runTurn = () => turns.splice(0).forEach((fn) => fn());
    runTurn(); // from 0 ms: 0, 1, and 2 ends at 12 ms, past the slice (10 ms)
    expect(ran).toEqual([0, 1, 2]);
    runTurn(); // from 12 ms: 3, 4, and 5 ends at 24 ms, past the slice (22 ms)
    expect(ran).toEqual([0, 1, 2, 3, 4, 5]);
    runTurn();
    expect(ran).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(scheduler.queued).toBe(0);
    expect(turns).toEqual([]);
  });

  it('a request whose handler throws does not stop the others', () => {
    let clock = 0;
    const turns: Array<() => void> = [];
    const scheduler = new AcceptFirst({ now: () => clock, later: (fn) => turns.push(fn) });
    const server = new EventEmitter() as unknown as http.Server;
    const ran: string[] = [];
    scheduler.attach(server, (req) => {
      if (req.url === '/boom') throw new Error('boom');
      ran.push(String(req.url));
    });
    for (const url of ['/boom', '/after']) {
      server.emit('request', { url, headers: {}, socket: { remoteAddress: 'x' } }, {});
    }
    expect(() => turns.splice(0).forEach((fn) => fn())).toThrow('boom');
    clock += 1;
    turns.splice(0).forEach((fn) => fn());
    expect(ran).toEqual(['/after']);
  });

  it('tells work that can wait that requests are queued (requestsWaiting), until they ran', () => {
    const h = harness();
    expect(requestsWaiting()).toBe(false);
    h.request('/a');
    expect(requestsWaiting()).toBe(true);
    h.turn();
    expect(requestsWaiting()).toBe(false);
    h.server.emit('close');
  });

  it('names the sender by its credential, else its session cookie, else its address', () => {
    const req = (headers: Record<string, string>) =>
      ({ headers, socket: { remoteAddress: '10.0.0.7' } }) as unknown as http.IncomingMessage;
    expect(senderOf(req({ authorization: 'Bearer t', cookie: 'ars.sid=s' }))).toBe('a:Bearer t');
    expect(senderOf(req({ cookie: 'ars.sid=s' }))).toBe('c:ars.sid=s');
    expect(senderOf(req({}))).toBe('r:10.0.0.7');
  });
});
