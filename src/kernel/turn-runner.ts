import type { ReplyBody } from '../../schemas/envelope';
import { AppError, errors, isAppError, type ErrorBody } from '../../schemas/errors';
import type { Logger } from '../logging/logger';
import { telemetry } from '../telemetry/tracing';
import type { Disposition, Verdict } from '../transport/transport';
import type { AnyActorDefinition, MessageHandler } from './actor-definition';
import type { Activation } from './activation';
import { errorReply } from './envelopes';
import type { Invocation } from './invocation';
import type { KernelRuntime } from './kernel-runtime';
import type { MessageSchemas } from './kernel.types';
import type { TurnCounts } from './actor-system.types';
import { backoffDelay, type SupervisionPolicy } from './supervision';
import { countTurn } from './work-counters';

const RETRY = Symbol('retry');
const DEADLINE_REPLY: ReplyBody = Object.freeze(errorReply(errors.deadline().toBody()));
/** What a duplicate of a finished stream gets: the items went to the first caller and are not kept. */
const STREAM_DUPLICATE: ReplyBody = Object.freeze({
  kind: 'error',
  error: errors.conflict('Duplicate of a stream request that was already delivered').toBody(),
});

/**
 * Runs the turns of one actor kind: body validation, activation, the handler, supervision of what
 * it throws, deferred work, and the one final reply of each message.
 */
export class TurnRunner {
  /** Deferred works running (all actors of this kind). */
  deferred = 0;
  /** Turns concluded per outcome (metrics; plain increments on the hot path). */
  readonly turns: TurnCounts = { ok: 0, error: 0, failed: 0, dropped: 0 };
  private readonly handlers: Record<string, MessageHandler<unknown, unknown>>;

  constructor(
    private readonly definition: AnyActorDefinition,
    private readonly policy: Readonly<SupervisionPolicy>,
    private readonly rt: KernelRuntime,
    private readonly log: Logger,
    private readonly settle: (inv: Invocation, disposition: Verdict) => void,
  ) {
    this.handlers = definition.handlers as Record<string, MessageHandler<unknown, unknown>>;
  }

  /**
   * A turn of a message that is new to the dedupe store. With tracing on, a message that carries a
   * trace context runs in a consumer span, child of its sender's: what the turn starts (its
   * deferred work, the tool, store commands, sends to other actors) belongs to the same trace.
   */
  run(activation: Activation<Invocation>, inv: Invocation): Promise<void> {
    const tracer = telemetry.tracer;
    const parent = inv.envelope.traceparent;
    if (!tracer || parent === undefined) return this.turn(activation, inv);
    return tracer.inSpan(
      inv.envelope.type,
      {
        kind: 'consumer',
        parent,
        attributes: {
          'messaging.operation.type': 'process',
          'messaging.message.id': inv.envelope.id,
          'actor.kind': activation.kind,
          'node.id': this.rt.nodeId,
        },
      },
      () => this.turn(activation, inv),
    );
  }

  private async turn(activation: Activation<Invocation>, inv: Invocation): Promise<void> {
    const { envelope } = inv;
    countTurn(envelope.type);
    if (inv.cancelled || Date.now() >= envelope.deadline) {
      // The caller is gone: running it would only spend resources for nobody.
      this.conclude(inv, undefined, false);
      return this.settle(inv, 'ack');
    }
    const messages: MessageSchemas = this.definition.messages;
    const schema = Object.hasOwn(messages, envelope.type) ? messages[envelope.type] : undefined;
    // A command no handler of this kind can take is poison: its caller is told why, and it goes to
    // the dead letters with the reason (no delivery would ever take it: the front door validates
    // what it sends, so it comes from a defect, a version skew or a message injected on the queue).
    if (!schema) {
      const reason = `unknown message type "${envelope.type}" for actor kind "${activation.kind}"`;
      this.fail(
        inv,
        errors.validation(`Unknown message type "${envelope.type}" for actor kind "${activation.kind}"`, {
          type: envelope.type,
        }),
        true,
      );
      return this.settle(inv, { deadLetter: reason });
    }
    const parsed = schema.safeParse(envelope.body);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
      this.fail(inv, errors.validation(`Invalid body for "${envelope.type}"`, { issues }), true);
      const first = issues[0];
      return this.settle(inv, {
        deadLetter: `invalid body for "${envelope.type}": ${first ? `${first.path || '(root)'}: ${first.message}` : 'rejected'}`,
      });
    }
    const handler = this.handlers[envelope.type];
    for (;;) {
      try {
        if (!activation.activated) await this.activate(activation);
        let result = handler(inv, parsed.data);
        if (isThenable(result)) result = await result;
        inv.turnOver = true;
        if (inv.deferredWork !== undefined) this.startDeferred(activation, inv);
        else this.finish(inv, result);
        return this.settle(inv, 'ack');
      } catch (error) {
        // Work deferred by a failed attempt is abandoned: its outcome is not this message's reply.
        inv.deferredWork = undefined;
        const outcome = await this.onTurnError(activation, inv, error);
        if (outcome === RETRY) continue;
        inv.turnOver = true;
        return this.settle(inv, outcome);
      }
    }
  }

  private async activate(activation: Activation<Invocation>): Promise<void> {
    activation.state = this.definition.activate ? await this.definition.activate(activation) : undefined;
    activation.activated = true;
  }

  private async onTurnError(
    activation: Activation<Invocation>,
    inv: Invocation,
    error: unknown,
  ): Promise<Disposition | typeof RETRY> {
    if (inv.cancelled) {
      // Most likely the handler honouring its aborted signal: not a defect, and nobody listens.
      this.conclude(inv, undefined, false);
      return 'ack';
    }
    const kind = this.policy.classify(error);
    if (kind === 'domain') {
      this.fail(inv, error, true);
      return 'ack';
    }
    if (inv.late) {
      // Whatever broke after the deadline (often the work giving up on its aborted signal), the
      // caller has gone: no retry, and no restart for what may be an AbortError.
      this.fail(inv, errors.deadline(), false);
      return 'ack';
    }
    if (kind === 'transient') {
      if (this.rt.phase() !== 'running') {
        // Stopping: another node (or this one after restart) gets it again.
        this.conclude(inv, undefined, false);
        return 'requeue';
      }
      if (await this.backoff(inv)) {
        if (this.rt.phase() === 'running') return RETRY;
        this.conclude(inv, undefined, false);
        return 'requeue';
      }
      this.fail(inv, inv.late ? errors.deadline() : error, false);
      return 'ack';
    }
    const restarted = this.rt.restarts.tryRestart(
      activation.address,
      this.policy.maxRestarts,
      this.policy.restartWindowMs,
    );
    // The state may be what broke: drop it; the next message activates the actor afresh.
    activation.activated = false;
    activation.state = undefined;
    this.log.error(
      {
        err: error,
        address: activation.address,
        type: inv.type,
        envelopeId: inv.envelope.id,
        attempt: inv.attempt,
      },
      restarted
        ? 'kernel: actor defect, actor restarted'
        : 'kernel: actor defect beyond the restart budget, message dead-lettered',
    );
    this.fail(inv, errors.internal(), false);
    return restarted ? 'ack' : 'dead-letter';
  }

  /**
   * Waits before the next attempt when the policy and the deadline allow one. A stream that has
   * already sent items is not retried: the caller saw them and a rerun would repeat them.
   */
  private async backoff(inv: Invocation): Promise<boolean> {
    if (inv.seq > 0 || inv.attempt >= this.policy.maxAttempts) return false;
    const delay = backoffDelay(inv.attempt, this.policy);
    if (Date.now() + delay >= inv.deadline) return false;
    this.log.debug(
      { envelopeId: inv.envelope.id, attempt: inv.attempt, delay },
      'kernel: transient error, retrying',
    );
    inv.attempt++;
    await this.rt.sleep(delay);
    return true;
  }

  private startDeferred(activation: Activation<Invocation>, inv: Invocation): void {
    activation.deferred++;
    this.deferred++;
    void this.runDeferred(inv).finally(() => {
      activation.deferred--;
      this.deferred--;
      activation.lastActive = Date.now();
    });
  }

  private async runDeferred(inv: Invocation): Promise<void> {
    const work = inv.deferredWork!;
    for (;;) {
      try {
        const value = await (typeof work === 'function' ? work(inv.signal) : work);
        return this.finish(inv, value);
      } catch (error) {
        if (inv.cancelled) return this.conclude(inv, undefined, false);
        const kind = this.policy.classify(error);
        if (kind === 'domain') return this.fail(inv, error, true);
        if (inv.late) return this.fail(inv, errors.deadline(), false);
        if (kind === 'transient') {
          if (typeof work === 'function' && this.rt.phase() === 'running' && (await this.backoff(inv)))
            continue;
          return this.fail(inv, error, false);
        }
        this.log.error(
          { err: error, address: inv.address, type: inv.type, envelopeId: inv.envelope.id },
          'kernel: defect in deferred work',
        );
        return this.fail(inv, errors.internal(), false);
      }
    }
  }

  /** The success reply: `complete` after stream items, `reply` otherwise. */
  private finish(inv: Invocation, value: unknown): void {
    if (inv.finished) return;
    const streamed = inv.seq > 0;
    const body: ReplyBody = streamed ? { kind: 'complete', seq: inv.seq } : { kind: 'reply', value };
    // Past the deadline the caller has errored (or will): a late `complete` must not race its
    // timer and end the stream as if all went well. Duplicates still get the real reply.
    if (!inv.cancelled) this.rt.reply(inv.envelope, inv.late ? DEADLINE_REPLY : body);
    this.conclude(inv, streamed ? STREAM_DUPLICATE : body, true);
  }

  /**
   * The error reply. `remember`: a domain error is an answer (a duplicate gets it too); a
   * transient error or a defect is not (a retry of the same id may succeed, so it must run).
   */
  private fail(inv: Invocation, error: unknown, remember: boolean): void {
    if (inv.finished) return;
    const body = errorReply(toErrorBody(error));
    if (!inv.cancelled) this.rt.reply(inv.envelope, body);
    this.conclude(inv, body, remember);
  }

  /** Records the outcome in the dedupe store (or forgets the claim) and closes the invocation. */
  private conclude(inv: Invocation, reply: ReplyBody | undefined, remember: boolean): void {
    const { id, replyTo } = inv.envelope;
    if (!inv.finished) {
      if (reply === undefined) this.turns.dropped++;
      else if (reply.kind !== 'error' || reply === STREAM_DUPLICATE) this.turns.ok++;
      else if (remember) this.turns.error++;
      else this.turns.failed++;
    }
    const kept = replyTo ? reply : undefined;
    const stored = remember ? this.rt.dedupe.complete(id, kept) : this.rt.dedupe.release(id);
    stored.then(undefined, (err: unknown) =>
      this.log.warn({ err, envelopeId: id }, 'kernel: dedupe store failed'),
    );
    inv.close(remember, kept);
  }
}

/** Wire form of a thrown value; anything that is not an AppError becomes a bare INTERNAL_ERROR. */
export function toErrorBody(error: unknown): ErrorBody {
  if (error instanceof AppError) return error.toBody();
  if (isAppError(error)) {
    const e = error as AppError;
    return { ...(e.details ?? {}), error: String(e.message), code: e.code };
  }
  return errors.internal().toBody();
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
  );
}
