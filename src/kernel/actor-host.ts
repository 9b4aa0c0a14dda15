import type { Envelope, ReplyBody } from '../../schemas/envelope';
import { errors } from '../../schemas/errors';
import type { Logger } from '../logging/logger';
import type { Delivery, Disposition, Verdict } from '../transport/transport';
import type { AnyActorDefinition } from './actor-definition';
import { Activation, PASSIVATE } from './activation';
import type { ClaimOptions } from './dedupe-store';
import { errorReply, parseEnvelope } from './envelopes';
import { isStableEnvelopeId } from './ids';
import { Invocation } from './invocation';
import type { KernelRuntime } from './kernel-runtime';
import type { SupervisionPolicy } from './supervision';
import type { TurnCounts } from './actor-system.types';
import { TurnRunner } from './turn-runner';

const ACK: Promise<Disposition> = Promise.resolve('ack');
const REQUEUE: Promise<Disposition> = Promise.resolve('requeue');
/** Claim options, allocated once: whether another node may know the id (see ClaimOptions). */
const SHARED_CLAIM: ClaimOptions = Object.freeze({ shared: true });
const LOCAL_CLAIM: ClaimOptions = Object.freeze({ shared: false });
/** A claim outlives the deadline a little, so a slow turn's claim does not lapse while it replies. */
const LEASE_MARGIN_MS = 5000;

/**
 * Hosts one actor kind on this node: the transport's consumer of its queue. Keeps the actors of
 * this kind that are in memory (one mailbox each), routes each delivery to its actor's mailbox,
 * handles duplicates, and passivates idle actors.
 */
export class ActorHost {
  readonly kind: string;
  /** Deliveries accepted and not yet answered to the transport. */
  inFlight = 0;
  private readonly activations = new Map<string, Activation<Invocation>>();
  private readonly parked: Array<(disposition: Disposition) => void> = [];
  private readonly runner: TurnRunner;
  private readonly log: Logger;
  /** `<kind>:`, what every address of this kind starts with. */
  private readonly addressPrefix: string;
  /** The kind declares `dedupe: 'shared'`: every delivery is claimed in the shared record. */
  private readonly sharedDedupe: boolean;
  private readonly runJob = (activation: Activation<Invocation>, job: Invocation | typeof PASSIVATE) =>
    job === PASSIVATE ? this.passivate(activation) : this.turn(activation, job);
  private readonly settle = (inv: Invocation, disposition: Verdict): void => {
    this.inFlight--;
    inv.settle(disposition);
  };

  constructor(
    readonly definition: AnyActorDefinition,
    policy: Readonly<SupervisionPolicy>,
    private readonly rt: KernelRuntime,
  ) {
    this.kind = definition.kind;
    this.sharedDedupe = definition.dedupe === 'shared';
    this.addressPrefix = `${definition.kind}:`;
    this.log = rt.logger.child({ component: 'kernel', kind: this.kind });
    this.runner = new TurnRunner(definition, policy, rt, this.log, this.settle);
  }

  /** Actors of this kind in memory. */
  get actors(): number {
    return this.activations.size;
  }

  /** Turns concluded per outcome (metrics). */
  get turns(): Readonly<TurnCounts> {
    return this.runner.turns;
  }

  /** Deferred works running. */
  get deferred(): number {
    return this.runner.deferred;
  }

  /** True when nothing is queued, running or deferred. */
  get idle(): boolean {
    return this.inFlight === 0 && this.runner.deferred === 0;
  }

  /** The transport's command handler for this kind's queue. Never rejects. */
  readonly handle = (delivery: Delivery): Promise<Verdict> => {
    const phase = this.rt.phase();
    if (phase === 'stopping') {
      // Not requeued yet: while this node still consumes, a requeue would come straight back.
      return new Promise((resolve) => this.parked.push(resolve));
    }
    if (phase !== 'running') return REQUEUE;
    const envelope = parseEnvelope(delivery.envelope);
    if (
      !envelope ||
      !envelope.to.startsWith(this.addressPrefix) ||
      envelope.to.length === this.addressPrefix.length
    ) {
      return this.rejectMalformed(delivery.envelope);
    }
    const now = Date.now();
    if (envelope.deadline <= now) {
      this.log.debug({ envelopeId: envelope.id, type: envelope.type }, 'kernel: past its deadline, dropped');
      return ACK;
    }
    const inv = new Invocation(this.activationOf(envelope.to), envelope, this.rt);
    // A first delivery is unknown elsewhere unless a caller published its id twice (kinds that
    // expect that declare dedupe: 'shared', and stable ids derived from an idempotency key say so
    // themselves); a redelivery may have run, or be running, elsewhere.
    const shared =
      this.sharedDedupe ||
      delivery.redelivered ||
      delivery.deliveryCount > 1 ||
      isStableEnvelopeId(envelope.id);
    inv.claim = this.rt.dedupe
      .claim(
        envelope.id,
        this.rt.nodeId,
        envelope.deadline - now + LEASE_MARGIN_MS,
        shared ? SHARED_CLAIM : LOCAL_CLAIM,
      )
      .then(undefined, this.onClaimError);
    if (!this.rt.invocations.has(envelope.id)) this.rt.invocations.set(envelope.id, inv);
    this.inFlight++;
    inv.activation.mailbox.push(inv);
    return inv.disposition;
  };

  /** Queues passivation of the actors idle for `idleMs` (called by the system's sweeper). */
  sweep(idleMs: number, now = Date.now()): void {
    for (const activation of this.activations.values()) {
      if (!activation.passivating && activation.idle && now - activation.lastActive >= idleMs) {
        activation.passivating = true;
        activation.mailbox.push(PASSIVATE);
      }
    }
  }

  /** Queues passivation of every actor in memory (graceful stop). */
  passivateAll(): void {
    this.sweep(0, Infinity);
  }

  /** Answers the deliveries parked while stopping: back to the queue, for another node. */
  releaseParked(): void {
    for (const resolve of this.parked.splice(0)) resolve('requeue');
  }

  private activationOf(address: string): Activation<Invocation> {
    let activation = this.activations.get(address);
    if (!activation) {
      activation = new Activation(
        this.kind,
        address,
        address.slice(this.kind.length + 1),
        this.rt,
        this.runJob,
      );
      this.activations.set(address, activation);
    }
    return activation;
  }

  private async turn(activation: Activation<Invocation>, inv: Invocation): Promise<void> {
    const claim = await inv.claim;
    if (claim === undefined) await this.runner.run(activation, inv);
    else if (claim.state === 'done') this.answerDuplicate(inv, claim.reply);
    // Waiting must not hold the mailbox: the first copy may be deferred work behind it.
    else void this.awaitDuplicate(inv);
    activation.lastActive = Date.now();
  }

  private answerDuplicate(inv: Invocation, reply: ReplyBody | undefined): void {
    if (reply && !inv.cancelled) this.rt.reply(inv.envelope, reply);
    inv.close();
    this.settle(inv, 'ack');
  }

  /**
   * A duplicate of a message still being handled: waits for the first copy (here, or polls the
   * store when it runs on another node), then re-sends its reply, or runs the message itself if
   * the first copy was not handled (released) or its claim lapsed.
   */
  private async awaitDuplicate(inv: Invocation): Promise<void> {
    const { id, deadline } = inv.envelope;
    let pollMs = 10;
    try {
      for (;;) {
        const first = this.rt.invocations.get(id);
        const local = first !== undefined && first !== inv;
        let record = local ? await first.outcome() : await this.rt.dedupe.get(id);
        if (record === undefined && Date.now() < deadline && this.rt.phase() === 'running') {
          record = await this.rt.dedupe.claim(
            id,
            this.rt.nodeId,
            deadline - Date.now() + LEASE_MARGIN_MS,
            SHARED_CLAIM,
          );
          if (record === undefined) {
            inv.claim = Promise.resolve(undefined);
            inv.activation = this.activationOf(inv.envelope.to);
            if (!this.rt.invocations.has(id)) this.rt.invocations.set(id, inv);
            return inv.activation.mailbox.push(inv);
          }
        }
        if (record?.state === 'done') return this.answerDuplicate(inv, record.reply);
        if (Date.now() >= deadline) return this.answerDuplicate(inv, undefined);
        if (this.rt.phase() !== 'running') {
          inv.close();
          return this.settle(inv, 'requeue');
        }
        if (!local) {
          // Pending on another node: poll the shared store, backing off.
          await this.rt.sleep(pollMs);
          pollMs = Math.min(pollMs * 2, 250);
        }
      }
    } catch (err) {
      this.log.warn({ err, envelopeId: id }, 'kernel: waiting for the first copy of a duplicate failed');
      inv.close();
      this.settle(inv, 'requeue');
    }
  }

  private async passivate(activation: Activation<Invocation>): Promise<void> {
    try {
      if (activation.activated && this.definition.passivate) {
        await this.definition.passivate(activation, activation.state);
      }
    } catch (err) {
      this.log.warn({ err, address: activation.address }, 'kernel: passivate failed');
    }
    activation.activated = false;
    activation.state = undefined;
    activation.passivating = false;
    // Messages that arrived meanwhile keep this activation (they re-activate it); else drop it.
    if (activation.mailbox.waiting === 0 && activation.deferred === 0) {
      this.activations.delete(activation.address);
    }
  }

  private rejectMalformed(raw: unknown): Promise<Verdict> {
    const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<Envelope>;
    this.log.warn({ envelopeId: r.id, type: r.type, to: r.to }, 'kernel: malformed envelope, dead-lettered');
    if (typeof r.id === 'string' && typeof r.replyTo === 'string') {
      const target = { id: r.id, replyTo: r.replyTo, deadline: Date.now() + 60_000 };
      this.rt.reply(target, errorReply(errors.validation('Malformed envelope').toBody()));
    }
    return Promise.resolve({ deadLetter: `not an envelope for an actor of kind "${this.kind}"` });
  }

  private readonly onClaimError = (err: unknown): undefined => {
    // Without the store the message still runs: delivery is at least once anyway.
    this.log.warn({ err }, 'kernel: dedupe store unavailable, handling without it');
    return undefined;
  };
}
