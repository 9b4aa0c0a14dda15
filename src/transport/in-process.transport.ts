import type { Envelope } from '../../schemas/envelope';
import { errors } from '../../schemas/errors';
import {
  dispositionOf,
  kindOf,
  type CommandHandler,
  type Delivery,
  type Disposition,
  type EnvelopeListener,
  type Transport,
  type TransportStatus,
} from './transport';

interface QueuedMessage {
  envelope: Envelope;
  deliveryCount: number;
}

interface Consumer {
  transport: InProcessTransport;
  handler: CommandHandler;
  inFlight: number;
}

interface KindQueue {
  messages: QueuedMessage[];
  consumers: Consumer[];
  /** Round-robin cursor over consumers. */
  next: number;
  deadLetters: Envelope[];
}

/**
 * The shared "broker" of in-process transports. One per process in production; tests create
 * several transports on one bus to play several nodes.
 */
export class InProcessBus {
  readonly queues = new Map<string, KindQueue>();
  readonly nodes = new Map<string, InProcessTransport>();

  constructor(
    readonly options: { prefetch?: number; deliveryLimit?: number; maxDeadLetters?: number } = {},
  ) {}

  queue(kind: string): KindQueue {
    let q = this.queues.get(kind);
    if (!q) {
      q = { messages: [], consumers: [], next: 0, deadLetters: [] };
      this.queues.set(kind, q);
    }
    return q;
  }

  /** Messages dead-lettered for a kind (for tests and operators). */
  deadLetters(kind: string): readonly Envelope[] {
    return this.queue(kind).deadLetters;
  }

  get prefetch(): number {
    return this.options.prefetch ?? 64;
  }

  get deliveryLimit(): number {
    return this.options.deliveryLimit ?? 5;
  }

  /** Hands queued messages to consumers with free capacity, round robin. */
  pump(kind: string): void {
    const q = this.queue(kind);
    while (q.messages.length > 0) {
      const ready = q.consumers.filter((c) => c.inFlight < this.prefetch && c.transport.consuming);
      if (ready.length === 0) return;
      const consumer = ready[q.next++ % ready.length];
      const message = q.messages.shift()!;
      this.deliver(kind, q, consumer, message);
    }
  }

  private deliver(kind: string, q: KindQueue, consumer: Consumer, message: QueuedMessage): void {
    consumer.inFlight++;
    consumer.transport.inFlight++;
    const delivery: Delivery = {
      envelope: message.envelope,
      redelivered: message.deliveryCount > 1,
      deliveryCount: message.deliveryCount,
    };
    // A macrotask boundary keeps a handler from running inside its sender's stack.
    setImmediate(() => {
      consumer.handler(delivery).then(
        // A dead letter's reason has nowhere to go here (no headers): only the disposition counts.
        (verdict) => this.settle(kind, q, consumer, message, dispositionOf(verdict)),
        () => this.settle(kind, q, consumer, message, 'requeue'),
      );
    });
  }

  private settle(
    kind: string,
    q: KindQueue,
    consumer: Consumer,
    message: QueuedMessage,
    disposition: Disposition,
  ): void {
    consumer.inFlight--;
    consumer.transport.inFlight--;
    consumer.transport.notifyIdle();
    if (disposition === 'requeue') {
      if (message.deliveryCount >= this.deliveryLimit) {
        this.deadLetter(q, message.envelope);
      } else {
        q.messages.push({ envelope: message.envelope, deliveryCount: message.deliveryCount + 1 });
      }
    } else if (disposition === 'dead-letter') {
      this.deadLetter(q, message.envelope);
    }
    this.pump(kind);
  }

  private deadLetter(q: KindQueue, envelope: Envelope): void {
    q.deadLetters.push(envelope);
    const max = this.options.maxDeadLetters ?? 1000;
    if (q.deadLetters.length > max) q.deadLetters.splice(0, q.deadLetters.length - max);
  }
}

/** The process-wide default bus used when no bus is given. */
const defaultBus = new InProcessBus();

/**
 * The embedded transport: queues and fanout inside this process. Same contract as AMQP: one
 * queue per actor kind shared by the consumers of that kind, acknowledgement after the turn,
 * a delivery limit and a dead-letter list, a reply "queue" per node and broadcast to every node.
 * Nothing survives the process (the embedded mode keeps state in documents, not in messages).
 */
export class InProcessTransport implements Transport {
  readonly name = 'in-process' as const;
  consuming = false;
  inFlight = 0;
  private started = false;
  private replyListeners: EnvelopeListener[] = [];
  private broadcastListeners: EnvelopeListener[] = [];
  private idleWaiters: Array<() => void> = [];
  private kinds = new Set<string>();

  constructor(
    readonly nodeId: string,
    readonly bus: InProcessBus = defaultBus,
  ) {}

  async start(): Promise<void> {
    if (this.bus.nodes.has(this.nodeId) && this.bus.nodes.get(this.nodeId) !== this) {
      throw new Error(`node id ${this.nodeId} is already on this bus`);
    }
    this.bus.nodes.set(this.nodeId, this);
    this.started = true;
    this.consuming = true;
  }

  async consume(kind: string, handler: CommandHandler): Promise<void> {
    this.assertStarted();
    this.kinds.add(kind);
    this.bus.queue(kind).consumers.push({ transport: this, handler, inFlight: 0 });
    this.bus.pump(kind);
  }

  async send(envelope: Envelope): Promise<void> {
    this.assertStarted();
    const kind = kindOf(envelope.to);
    this.bus.queue(kind).messages.push({ envelope, deliveryCount: 1 });
    this.bus.pump(kind);
  }

  async reply(nodeId: string, envelope: Envelope): Promise<void> {
    const node = this.bus.nodes.get(nodeId);
    if (!node) return; // the requester is gone; its replies are lost, as on a broker
    setImmediate(() => node.emitReply(envelope));
  }

  onReply(listener: EnvelopeListener): void {
    this.replyListeners.push(listener);
  }

  // Keys are not used here: envelopes are handed over as objects, with nothing to parse to spare.
  async broadcast(envelope: Envelope, _keys?: readonly string[]): Promise<void> {
    this.assertStarted();
    for (const node of this.bus.nodes.values()) {
      setImmediate(() => node.emitBroadcast(envelope));
    }
  }

  onBroadcast(listener: EnvelopeListener): void {
    this.broadcastListeners.push(listener);
  }

  status(): TransportStatus {
    return this.started ? { state: 'up', detail: 'in-process' } : { state: 'down', detail: 'not started' };
  }

  async stop(graceMs = 10000): Promise<void> {
    if (!this.started) return;
    this.consuming = false;
    for (const kind of this.kinds) {
      const q = this.bus.queue(kind);
      q.consumers = q.consumers.filter((c) => c.transport !== this);
    }
    if (this.inFlight > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, graceMs);
        this.idleWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    this.bus.nodes.delete(this.nodeId);
    this.started = false;
    // Messages left for the kinds this node consumed wait for another consumer of the bus.
    for (const kind of this.kinds) this.bus.pump(kind);
  }

  /** @internal */
  emitReply(envelope: Envelope): void {
    for (const l of this.replyListeners) l(envelope);
  }

  /** @internal */
  emitBroadcast(envelope: Envelope): void {
    for (const l of this.broadcastListeners) l(envelope);
  }

  /** @internal */
  notifyIdle(): void {
    if (this.inFlight === 0) {
      const waiters = this.idleWaiters.splice(0);
      for (const w of waiters) w();
    }
  }

  private assertStarted(): void {
    if (!this.started) throw errors.unavailable('Transport is not started');
  }
}
