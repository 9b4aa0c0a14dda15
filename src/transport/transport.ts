import type { Envelope } from '../../schemas/envelope';

/** What the kernel tells the transport to do with a command once its turn is over. */
export type Disposition =
  /** Done (successfully or with a domain error already replied): remove it from the queue. */
  | 'ack'
  /** Give it back to the queue for another delivery (counts towards the delivery limit). */
  | 'requeue'
  /** Move it to the dead-letter queue now. */
  | 'dead-letter';

/** One delivery of a command envelope. */
export interface Delivery {
  readonly envelope: Envelope;
  /** True when the broker has delivered this message before (to this or another node). */
  readonly redelivered: boolean;
  /** 1 on first delivery; the broker's count otherwise (where it keeps one). */
  readonly deliveryCount: number;
}

/**
 * A dead letter with its reason, in words: what a handler answers for a command it refuses for
 * good (a body its schema rejects), so that whoever reads the dead letter learns why (over AMQP,
 * the `x-ars-dead-letter-detail` header).
 */
export interface DeadLetterVerdict {
  readonly deadLetter: string;
}

/** What a handler answers: a disposition, or a dead letter with its reason. */
export type Verdict = Disposition | DeadLetterVerdict;

export type CommandHandler = (delivery: Delivery) => Promise<Verdict>;

/** The disposition a verdict asks for. */
export function dispositionOf(verdict: Verdict): Disposition {
  return typeof verdict === 'string' ? verdict : 'dead-letter';
}

/** The reason a verdict gives, if any. */
export function reasonOf(verdict: Verdict): string | undefined {
  return typeof verdict === 'string' ? undefined : verdict.deadLetter;
}

/** How a command would rather travel (transports that do not batch ignore it). */
export interface SendHints {
  /**
   * Send it as a message of its own, never in a batch with other commands: for heavy work that
   * should spread over the nodes one command at a time (a batch goes to one node).
   */
  alone?: boolean;
}
export type EnvelopeListener = (envelope: Envelope) => void;

/** Whether a node reads a broadcast of `type` about `keys` (keyed broadcasts, docs/kernel.md). */
export type BroadcastFilter = (type: string, keys: readonly string[]) => boolean;

export interface TransportStatus {
  state: 'up' | 'connecting' | 'down';
  /** Human-readable detail, never a secret (URLs are shown without credentials). */
  detail?: string;
}

/**
 * One interface, two implementations (in-process and AMQP). The kernel is the only user; a
 * conformance suite in test/conformance runs against both.
 *
 * Commands go to one durable queue per actor kind (the part of `to` before the colon); any node
 * consuming that kind may receive them. Replies and stream items go to the per-node reply queue of
 * the requester. Broadcasts reach every node, including the sender.
 */
export interface Transport {
  readonly name: 'in-process' | 'amqp';
  readonly nodeId: string;
  /** Connects (or joins the in-process bus) and declares the reply queue and broadcast binding. */
  start(): Promise<void>;
  /**
   * Starts consuming the queue of an actor kind. The handler's promise settles when the turn is
   * over; only then is the message acknowledged (or requeued / dead-lettered as it answers). At most
   * `prefetch` handlers of one kind run at once on this node (over AMQP, fewer than `2 × prefetch`:
   * a batch runs the commands that fit, at least one, and hands the rest back to the queue for any
   * node with room; docs/transport-amqp.md).
   */
  consume(kind: string, handler: CommandHandler): Promise<void>;
  /**
   * Publishes a command to the queue of its kind. Resolves once the broker has accepted it
   * (publisher confirm). Rejects with AppError UNAVAILABLE at once when the broker is unreachable.
   * Over AMQP, commands to one kind sent in one event-loop turn share one message and one confirm.
   */
  send(envelope: Envelope, hints?: SendHints): Promise<void>;
  /** Sends a reply or stream item to a node's reply queue. Best effort: a lost node loses its replies. */
  reply(nodeId: string, envelope: Envelope): Promise<void>;
  /** Registers the listener of this node's reply queue. */
  onReply(listener: EnvelopeListener): void;
  /**
   * Publishes to every node (fanout). `keys` (what it is about) let a receiving node skip it
   * unread when its filter (`filterBroadcasts`) wants none of them.
   */
  broadcast(envelope: Envelope, keys?: readonly string[]): Promise<void>;
  onBroadcast(listener: EnvelopeListener): void;
  /**
   * Which keyed broadcasts this node reads: a broadcast of `type` about `keys` for which `wanted`
   * is false is dropped before it is decoded. Transports that hand over envelopes without
   * decoding them (in-process) may deliver it anyway; the listeners filter as before.
   */
  filterBroadcasts?(wanted: BroadcastFilter): void;
  status(): TransportStatus;
  /** Graceful stop: stop consuming, let turns in flight finish (bounded by `graceMs`), close. */
  stop(graceMs?: number): Promise<void>;
  /**
   * The command queue of each kind: messages waiting and consumers (metrics). Only transports
   * with shared queues have it (AMQP); kinds without a queue are left out.
   */
  queueStats?(kinds: readonly string[]): Promise<QueueStat[]>;
}

/** One command queue's depth and consumers. */
export interface QueueStat {
  kind: string;
  messages: number;
  consumers: number;
}

/** `execution:exe_1` → `execution`. */
export function kindOf(address: string): string {
  const i = address.indexOf(':');
  return i === -1 ? address : address.slice(0, i);
}
