import type http from 'node:http';

/** Options of `AcceptFirst`. */
export interface AcceptFirstOptions {
  /**
   * Longest a request waits while new connections are still being accepted, in milliseconds.
   * Default 50.
   */
  maxHoldMs?: number;
  /** Work run in one go before the event loop goes round again (and accepts one more), ms. Default 10. */
  sliceMs?: number;
  /** Clock in milliseconds (tests). Default `performance.now`. */
  now?: () => number;
  /** Runs `fn` in a later turn of the event loop (tests). Default `setImmediate`. */
  later?: (fn: () => void) => void;
}

/** A request waiting for its turn. */
type Waiting = () => void;

/** The schedulers of this process's servers, for `requestsWaiting`. */
const schedulers = new Set<AcceptFirst>();

/**
 * Whether a front door of this process has requests queued: new work is coming in, and work that
 * can wait (`IdleLane`) should let it go first.
 */
export function requestsWaiting(): boolean {
  for (const s of schedulers) if (s.queued > 0) return true;
  return false;
}

/**
 * The front door's scheduler: connections are accepted first, requests run after, in turns between
 * their senders (docs/architecture.md, "Accepting connections").
 *
 * Why: Node's event loop accepts one connection per turn (libuv accepts once and relies on the
 * listening socket staying readable), and in that same turn runs everything the sockets already
 * read asked for. Under a burst of new connections, each accept then waits for the work of the
 * requests accepted before it: a thousand streams opened at once were accepted over one to three
 * seconds, a connection opened just after them was accepted last, and the last ones got their first
 * event after everyone else's whole stream (bench:streams, "fairness").
 *
 * How: a request is queued instead of run. While the last turn accepted a connection (a burst is
 * coming in) and the oldest request has waited less than `maxHoldMs`, nothing runs, so each turn is
 * short and accepts the next connection at once. Then the queued requests run, one per sender in
 * turn (its `Authorization` header, else its session cookie, else its address; first come first
 * served within one sender), for at most `sliceMs` before the loop goes round again, so that a
 * client with a thousand requests queued does not go before another's single one. Every request
 * runs, once, in its sender's order; one arriving when nothing is queued and nothing is being
 * accepted runs in the next turn. (A client that closes its side of the connection right after
 * sending may get no answer: Node ends the connection when it reads that close, before the request
 * runs; docs/architecture.md, "Accepting connections".)
 */
export class AcceptFirst {
  private readonly maxHoldMs: number;
  private readonly sliceMs: number;
  private readonly now: () => number;
  private readonly later: (fn: () => void) => void;
  /** Waiting requests by sender, senders in the order they will next be served. */
  private readonly lanes = new Map<string, Waiting[]>();
  private waiting = 0;
  private accepted = 0;
  private acceptedAtLastTurn = 0;
  private holdSince = 0;
  private scheduled = false;

  constructor(options: AcceptFirstOptions = {}) {
    this.maxHoldMs = options.maxHoldMs ?? 50;
    this.sliceMs = options.sliceMs ?? 10;
    this.now = options.now ?? (() => performance.now());
    this.later = options.later ?? ((fn) => setImmediate(fn));
  }

  /** Serves `server`'s requests with `handler`, in the order above. */
  attach(server: http.Server, handler: http.RequestListener): void {
    schedulers.add(this);
    server.once('close', () => schedulers.delete(this));
    server.on('connection', () => this.accepted++);
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) =>
      this.enqueue(senderOf(req), () => handler(req, res)),
    );
  }

  /** Queues `run` for `sender`; it runs in a later turn. */
  private enqueue(sender: string, run: Waiting): void {
    let lane = this.lanes.get(sender);
    if (!lane) {
      lane = [];
      this.lanes.set(sender, lane);
    }
    lane.push(run);
    if (this.waiting++ === 0) this.holdSince = this.now();
    this.schedule();
  }

  /** Requests queued, not yet run. */
  get queued(): number {
    return this.waiting;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.later(this.turn);
  }

  private readonly turn = (): void => {
    this.scheduled = false;
    if (this.waiting === 0) return;
    const started = this.now();
    const accepting = this.accepted !== this.acceptedAtLastTurn;
    this.acceptedAtLastTurn = this.accepted;
    if (accepting && started - this.holdSince < this.maxHoldMs) {
      this.schedule();
      return;
    }
    const until = started + this.sliceMs;
    try {
      while (this.waiting > 0) {
        // The sender at the front of the line runs one request and, if it has more, goes to the back.
        const [sender, lane] = this.lanes.entries().next().value as [string, Waiting[]];
        const run = lane.shift()!;
        this.lanes.delete(sender);
        if (lane.length > 0) this.lanes.set(sender, lane);
        this.waiting--;
        // A throw goes on uncaught, as from a `request` listener; the queue goes on in the next turn.
        run();
        if (this.now() >= until) break;
      }
    } finally {
      this.holdSince = this.now();
      if (this.waiting > 0) this.schedule();
    }
  };
}

/** Who sent a request, for taking turns: its credential, else its session cookie, else its address. */
export function senderOf(req: http.IncomingMessage): string {
  const auth = req.headers.authorization;
  if (auth) return `a:${auth}`;
  const cookie = req.headers.cookie;
  if (cookie) return `c:${cookie}`;
  return `r:${req.socket.remoteAddress ?? ''}`;
}
