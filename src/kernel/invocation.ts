import type { Envelope, ReplyBody } from '../../schemas/envelope';
import { errors } from '../../schemas/errors';
import type { Logger } from '../logging/logger';
import type { Verdict } from '../transport/transport';
import type { ActorContext, ActorRef, Deferred, DeferredWork } from './actor-definition';
import type { Activation } from './activation';
import type { DedupeRecord } from './dedupe-store';
import type { KernelRuntime } from './kernel-runtime';
import type { ActorSystemApi, EnvelopeAuth } from './kernel.types';

const DEFERRED: Deferred = Object.freeze({ deferred: true as const });
const DONE: DedupeRecord = Object.freeze({ state: 'done' });
const noop = () => {};

/**
 * One message accepted by this node, from arrival to its last reply. It is also the `ctx` its
 * handler gets (one object per message, getters on the prototype, the AbortController only when
 * the handler asks for `signal`).
 */
export class Invocation implements ActorContext<unknown> {
  attempt: number;
  /** Stream items sent so far (the next item's seq). */
  seq = 0;
  /** The caller unsubscribed: send nothing more, abort the signal. */
  cancelled = false;
  /** The deadline timer fired (Date.now() may lag the timer by a millisecond). */
  expired = false;
  /** Replied (or given up): no more replies. */
  finished = false;
  /** The handler returned: `defer` is no longer allowed. */
  turnOver = false;
  deferredWork: DeferredWork | undefined;
  /** The dedupe store's answer for this id, asked at arrival so that it overlaps the queueing. */
  claim!: Promise<DedupeRecord | undefined>;
  readonly disposition: Promise<Verdict>;
  private resolveDisposition!: (disposition: Verdict) => void;
  private controller?: AbortController;
  private timer?: NodeJS.Timeout;
  private waiters?: Array<(record: DedupeRecord | undefined) => void>;
  private closedWith?: DedupeRecord;

  constructor(
    public activation: Activation<Invocation>,
    readonly envelope: Envelope,
    private readonly runtime: KernelRuntime,
  ) {
    this.attempt = envelope.attempt;
    this.disposition = new Promise((resolve) => (this.resolveDisposition = resolve));
  }

  get kind(): string {
    return this.activation.kind;
  }
  get id(): string {
    return this.activation.id;
  }
  get address(): string {
    return this.activation.address;
  }
  get system(): ActorSystemApi {
    return this.runtime.api;
  }
  get logger(): Logger {
    return this.activation.logger;
  }
  get self(): ActorRef {
    return this.activation.self;
  }
  get state(): unknown {
    return this.activation.state;
  }
  set state(value: unknown) {
    this.activation.state = value;
  }
  get type(): string {
    return this.envelope.type;
  }
  get auth(): EnvelopeAuth | undefined {
    return this.envelope.auth;
  }
  get deadline(): number {
    return this.envelope.deadline;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      const left = this.envelope.deadline - Date.now();
      if (this.cancelled) this.controller.abort();
      else if (left <= 0) this.controller.abort(errors.deadline());
      else if (!this.finished) this.timer = setTimeout(expire, left, this).unref();
    }
    return this.controller.signal;
  }

  next(value: unknown): void {
    if (this.finished || this.cancelled) return;
    const seq = this.seq++;
    if (!this.expired && Date.now() < this.envelope.deadline)
      this.runtime.reply(this.envelope, { kind: 'next', seq, value });
  }

  defer<T>(work: DeferredWork<T>): Deferred {
    if (this.turnOver) throw new Error('ctx.defer must be called during the turn');
    if (this.deferredWork !== undefined) throw new Error('ctx.defer may be called once per message');
    // The kernel awaits it after the turn; until then a rejection must not count as unhandled.
    if (typeof work !== 'function') work.then(noop, noop);
    this.deferredWork = work as DeferredWork;
    return DEFERRED;
  }

  /** @internal */
  abort(reason: unknown): void {
    this.controller?.abort(reason);
  }

  /** The caller gave up (stream unsubscribed): abort the work and send nothing more. */
  cancel(): void {
    if (this.cancelled || this.finished) return;
    this.cancelled = true;
    this.controller?.abort();
  }

  /** Past the deadline: the caller has given up (or is about to). */
  get late(): boolean {
    return this.expired || Date.now() >= this.envelope.deadline;
  }

  settle(disposition: Verdict): void {
    this.resolveDisposition(disposition);
  }

  /**
   * Ends the invocation: no more replies, the deadline timer goes, duplicates waiting on it learn
   * the outcome. `remembered`: it was handled and `reply` is what duplicates get; otherwise it was
   * not handled and they may run it themselves.
   */
  close(remembered = false, reply?: ReplyBody): void {
    if (this.finished) return;
    this.finished = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.runtime.invocations.get(this.envelope.id) === this)
      this.runtime.invocations.delete(this.envelope.id);
    if (remembered) this.closedWith = reply === undefined ? DONE : { state: 'done', reply };
    const waiters = this.waiters;
    if (waiters) {
      this.waiters = undefined;
      for (const w of waiters) w(this.closedWith);
    }
  }

  /** Resolves with the outcome once this invocation is closed (for a duplicate that waits on it). */
  outcome(): Promise<DedupeRecord | undefined> {
    if (this.finished) return Promise.resolve(this.closedWith);
    return new Promise((resolve) => (this.waiters ??= []).push(resolve));
  }
}

function expire(inv: Invocation): void {
  inv.expired = true;
  inv.abort(errors.deadline());
}
