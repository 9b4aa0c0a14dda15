import { createHash, randomBytes } from 'node:crypto';
import { AppError, withMayHaveRun } from '../../../schemas/errors';
import { silentLogger, type Logger } from '../../logging/logger';
import type { IdempotencyStore, NotKept } from './idempotency-store';

/** Options of the keeper (defaults in brackets). */
export interface IdempotencyKeeperOptions {
  store: IdempotencyStore;
  /** How long a final outcome is kept, in ms [86400000: 24 h] (config IDEMPOTENCY_TTL_MS). */
  windowMs?: number;
  /**
   * Lease of a claim, in ms [15000]. Renewed every third of it while the request runs on this
   * node, so the claim of a node that died lapses within this time.
   */
  leaseMs?: number;
  /** How long a retry waits for the first request with its key to finish before 409 IN_USE [15000]. */
  waitMs?: number;
  /** Longest time a claim is renewed, in ms [600000]: a request that never ends lets it lapse. */
  maxHoldMs?: number;
  /** Largest outcome kept, in bytes of JSON [1 MiB]; a larger one is recorded as not kept. */
  maxOutcomeBytes?: number;
  /** Prefix of claim owners (this node's id) [random]. */
  owner?: string;
  logger?: Logger;
}

/** One request with a key: whose key, the key, and what it asks for (`requestFingerprint`). */
export interface KeyedCall {
  scope: string;
  key: string;
  fingerprint: string;
}

/** What `begin` decided: run the work under `turn`, or answer with the first request's `outcome`. */
export type Begun =
  { turn: IdempotentTurn; replay?: undefined } | { turn?: undefined; replay: { outcome: unknown } };

const DEFAULTS = {
  windowMs: 86_400_000,
  leaseMs: 15_000,
  waitMs: 15_000,
  maxHoldMs: 600_000,
  maxOutcomeBytes: 1024 * 1024,
};

/**
 * Runs each (caller, key) once within the window (docs/http.md, "Idempotent retries"). The claim
 * is taken before the work runs and completed after it, so a retry finds either the outcome, or
 * the first request still running (it waits for it, bounded, then 409 IDEMPOTENCY_KEY_IN_USE), or
 * nothing (the first did not finish with a final outcome: the retry runs). Transport- and
 * dialect-neutral: the HTTP middleware keeps whole answers, the MCP route keeps tool outcomes.
 */
export class IdempotencyKeeper {
  readonly windowMs: number;
  private readonly o: Required<Omit<IdempotencyKeeperOptions, 'owner' | 'logger'>>;
  private readonly log: Logger;
  private readonly ownerPrefix: string;
  private owners = 0;
  /** Requests of this node still running, by store key: a local retry waits on them, not by polling. */
  private readonly running = new Map<string, Promise<void>>();

  constructor(options: IdempotencyKeeperOptions) {
    this.o = {
      store: options.store,
      windowMs: options.windowMs ?? DEFAULTS.windowMs,
      leaseMs: options.leaseMs ?? DEFAULTS.leaseMs,
      waitMs: options.waitMs ?? DEFAULTS.waitMs,
      maxHoldMs: options.maxHoldMs ?? DEFAULTS.maxHoldMs,
      maxOutcomeBytes: options.maxOutcomeBytes ?? DEFAULTS.maxOutcomeBytes,
    };
    this.windowMs = this.o.windowMs;
    this.log = (options.logger ?? silentLogger).child({ component: 'idempotency' });
    this.ownerPrefix = options.owner ?? randomBytes(6).toString('base64url');
  }

  /**
   * Claims the call's key, or finds its record: resolves `{ turn }` when this request is to run the
   * work (then exactly one of `turn.keep`, `turn.notKept` or `turn.release` must follow), or
   * `{ replay }` with the first request's outcome. Rejects 409 IDEMPOTENCY_KEY_REUSED (the key was
   * used for another request), IDEMPOTENCY_KEY_IN_USE (the first is still running after `waitMs`),
   * IDEMPOTENCY_OUTCOME_NOT_KEPT, or 503 with `mayHaveRun: false` when the store is unreachable.
   */
  async begin(call: KeyedCall): Promise<Begun> {
    const storeKey = `${call.scope}:${createHash('sha256').update(call.key).digest('base64url')}`;
    const owner = `${this.ownerPrefix}.${(this.owners++).toString(36)}`;
    const giveUpAt = Date.now() + this.o.waitMs;
    let pollMs = 10;
    for (;;) {
      const record = await this.o.store
        .claim(storeKey, call.fingerprint, owner, this.o.leaseMs)
        .catch((err: unknown) => Promise.reject(storeUnavailable(err)));
      if (record === undefined) return { turn: this.startTurn(storeKey, call.fingerprint, owner) };
      if (record.fingerprint !== call.fingerprint) throw keyReused();
      if (record.state === 'done') {
        if ('notKept' in record) throw outcomeNotKept(record.notKept);
        return { replay: { outcome: record.outcome } };
      }
      const left = giveUpAt - Date.now();
      if (left <= 0) throw keyInUse();
      const local = this.running.get(storeKey);
      if (local) {
        await settledOrAfter(local, left);
      } else {
        // The first request runs on another node: poll its record, backing off.
        await delay(Math.min(pollMs, left));
        pollMs = Math.min(pollMs * 2, 250);
      }
    }
  }

  /** Whether an answer with this status is final, so kept: not a 5xx and not 429 (transient). */
  static isFinal(status: number): boolean {
    return status < 500 && status !== 429;
  }

  private startTurn(storeKey: string, fingerprint: string, owner: string): IdempotentTurn {
    let ended!: () => void;
    this.running.set(storeKey, new Promise<void>((resolve) => (ended = resolve)));
    return new IdempotentTurn(this.o, this.log, storeKey, fingerprint, owner, () => {
      this.running.delete(storeKey);
      ended();
    });
  }
}

/**
 * The right to run one keyed request. Its claim is renewed until it ends; it ends once, with the
 * outcome kept, a record that the outcome is not kept, or the claim released.
 */
export class IdempotentTurn {
  private ended = false;
  private readonly renewer: NodeJS.Timeout;
  private readonly holdUntil: number;

  constructor(
    private readonly o: Required<Omit<IdempotencyKeeperOptions, 'owner' | 'logger'>>,
    private readonly log: Logger,
    private readonly storeKey: string,
    private readonly fingerprint: string,
    private readonly owner: string,
    private readonly onEnd: () => void,
  ) {
    this.holdUntil = Date.now() + o.maxHoldMs;
    this.renewer = setInterval(() => this.renew(), Math.max(1, Math.floor(o.leaseMs / 3)));
    this.renewer.unref();
  }

  /**
   * Keeps the final outcome of the work (`status` is the HTTP status it was answered with). An
   * outcome larger than the limit, or not JSON, is recorded as not kept.
   */
  keep(outcome: unknown, status: number): Promise<void> {
    let size: number;
    try {
      size = Buffer.byteLength(JSON.stringify(outcome) ?? '');
    } catch {
      return this.notKept({ status, reason: 'not_json' });
    }
    if (size > this.o.maxOutcomeBytes) return this.notKept({ status, reason: 'too_large' });
    return this.finish('keep', () =>
      this.o.store.complete(
        this.storeKey,
        { state: 'done', fingerprint: this.fingerprint, outcome },
        this.o.windowMs,
      ),
    );
  }

  /** The work finished but its answer is not kept: a retry learns that it ran (409), not its answer. */
  notKept(notKept: NotKept): Promise<void> {
    return this.finish('keep', () =>
      this.o.store.complete(
        this.storeKey,
        { state: 'done', fingerprint: this.fingerprint, notKept },
        this.o.windowMs,
      ),
    );
  }

  /** The work ended without a final outcome (503, 504, a fault): forget the claim, a retry runs it. */
  release(): Promise<void> {
    return this.finish('release', () => this.o.store.release(this.storeKey, this.owner));
  }

  private async finish(what: string, write: () => Promise<void>): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.renewer);
    try {
      await write();
    } catch (err) {
      // The answer still goes out. The claim lapses with its lease; a retry after that runs again.
      this.log.warn({ err, what }, 'idempotency: the outcome could not be recorded');
    } finally {
      this.onEnd();
    }
  }

  private renew(): void {
    if (this.ended) return;
    if (Date.now() >= this.holdUntil) {
      clearInterval(this.renewer);
      return;
    }
    // A failed renewal only shortens the claim; the next tick tries again.
    this.o.store.renew(this.storeKey, this.o.leaseMs).catch(() => undefined);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves when `promise` settles or after `ms`, whichever comes first, leaving no timer behind. */
function settledOrAfter(promise: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void promise.finally(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function keyReused(): AppError {
  return new AppError(
    'IDEMPOTENCY_KEY_REUSED',
    'This Idempotency-Key was already used for another request (another method, path or body): use a new key for a new request',
  );
}

function keyInUse(): AppError {
  return new AppError(
    'IDEMPOTENCY_KEY_IN_USE',
    'The first request with this Idempotency-Key is still running: retry with the same key in a moment',
    { retryAfter: 1 },
  );
}

const NOT_KEPT_WHY: Record<NotKept['reason'], string> = {
  secret: 'it carried a secret shown only once',
  stream: 'it was a stream',
  too_large: 'it was too large to keep',
  not_json: 'it was not JSON',
};

function outcomeNotKept(notKept: NotKept): AppError {
  return new AppError(
    'IDEMPOTENCY_OUTCOME_NOT_KEPT',
    `The request with this Idempotency-Key already ran (answered ${notKept.status}); its answer is not kept because ${NOT_KEPT_WHY[notKept.reason]}`,
    { status: notKept.status, reason: notKept.reason },
  );
}

function storeUnavailable(err: unknown): AppError {
  const message =
    'Idempotency keys are unavailable right now: the request did not run; retry with the same key';
  return withMayHaveRun(new AppError('UNAVAILABLE', message, {}, { cause: err }), false);
}
