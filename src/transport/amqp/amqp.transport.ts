import type { Channel, ChannelModel } from 'amqplib';
import type { Envelope } from '../../../schemas/envelope';
import { errors, type AppError } from '../../../schemas/errors';
import { silentLogger, type Logger } from '../../logging/logger';
import { AckBatcher } from './amqp-acks';
import { CommandBatcher, DEFAULT_BATCH_MAX } from './amqp-command-batches';
import { encodeEnvelope } from './amqp-codec';
import { countMessages, queueInfo, peekMessages, type DeadLetter } from './amqp-dead-letters';
import type { AmqpTransportOptions } from './amqp-options';
import { AmqpConnection, messageOf, redactUrl } from './amqp-connection';
import { handleDelivery } from './amqp-consumer';
import { AmqpInbox, broadcastHeaders } from './amqp-inbox';
import type { ConsumerHost, Registration } from './amqp-turn';
import { AmqpLink, type LinkContext } from './amqp-link';
import { AmqpReplySender } from './amqp-reply-sender';
import { WriteWatch } from './amqp-write-watch';
import { AmqpNames, declareNode, emptyDeclaredNames, type DeclaredNames } from './amqp-topology';
import {
  kindOf,
  type BroadcastFilter,
  type CommandHandler,
  type EnvelopeListener,
  type QueueStat,
  type SendHints,
  type Transport,
  type TransportStatus,
} from '../transport';

export type { AmqpTransportOptions } from './amqp-options';

/**
 * Longest wait between two reconnection attempts, by default. Short on purpose: a refused attempt
 * costs nothing, and a broker back from a cut of a few seconds must be found within a second, not
 * at the end of a long backoff (the backoff only spreads the nodes' attempts).
 */
export const DEFAULT_RECONNECT_MAX_MS = 800;

/** Command messages longer than this are dead-lettered unread (see `maxMessageBytes`). */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/**
 * The RabbitMQ transport: a quorum queue per actor kind with a delivery limit and a dead-letter
 * queue, publisher confirms for commands, acknowledgement after the turn, a reply queue and a
 * broadcast inbox per node, and reconnection with backoff that restores the whole topology.
 * While the broker is unreachable every operation fails fast with UNAVAILABLE. See
 * docs/transport-amqp.md.
 */
export class AmqpTransport implements Transport, ConsumerHost, LinkContext {
  readonly name = 'amqp' as const;
  readonly nodeId: string;
  readonly names: AmqpNames;
  readonly prefetch: number;
  readonly deliveryLimit: number;
  readonly maxMessageBytes: number;
  readonly log: Logger;
  readonly closedChannels = new WeakSet<Channel>();
  readonly declared: DeclaredNames = emptyDeclaredNames();
  private readonly connection: AmqpConnection;
  private readonly where: string;
  private link: AmqpLink | undefined;
  private model: ChannelModel | undefined;
  private registrations: Registration[] = [];
  private readonly inbox: AmqpInbox;
  /** Replies: batched per turn, kept while no link can carry them (amqp-reply-sender.ts). */
  private readonly replies: AmqpReplySender;
  /** Commands waiting for this turn's flush; undefined when batching is off (`batchMax` 1). */
  private readonly commands: CommandBatcher | undefined;
  private inFlight = 0;
  private idleWaiters: Array<() => void> = [];
  private started = false;
  private stopped = false;
  private stopping: Promise<void> | undefined;

  constructor(private readonly options: AmqpTransportOptions) {
    this.nodeId = options.nodeId;
    this.names = new AmqpNames(options.prefix ?? 'ars');
    this.prefetch = options.prefetch ?? 64;
    this.deliveryLimit = options.deliveryLimit ?? 5;
    if (this.deliveryLimit < 1) throw new Error('deliveryLimit must be at least 1');
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    const batchMax = options.batchMax ?? DEFAULT_BATCH_MAX;
    if (!Number.isInteger(batchMax) || batchMax < 1)
      throw new Error('batchMax must be an integer of at least 1');
    this.commands =
      batchMax > 1
        ? new CommandBatcher(
            (kind, body) => this.publishCommand(kind, body),
            () => this.writeSoon(),
            batchMax,
          )
        : undefined;
    const connectionName = options.connectionName ?? `${this.names.prefix}:${options.nodeId}`;
    this.log = (options.logger ?? silentLogger).child({ component: 'amqp-transport', connectionName });
    this.replies = new AmqpReplySender(
      {
        log: this.log,
        replyLink: () => (this.connection.blocked ? undefined : this.link),
        unavailable: () => this.unavailable(),
        writeSoon: () => this.writeSoon(),
      },
      options.replyHoldBytes ?? 16 * 1024 * 1024,
      options.nodeQueueExpiresMs ?? 60000,
    );
    this.inbox = new AmqpInbox(this.log);
    this.where = `${redactUrl(options.url)} as ${connectionName}`;
    this.connection = new AmqpConnection({
      url: options.url,
      connectionName,
      heartbeatSeconds: options.heartbeatSeconds ?? 10,
      connectTimeoutMs: options.connectTimeoutMs ?? 5000,
      backoff: { initialDelayMs: 100, maxDelayMs: DEFAULT_RECONNECT_MAX_MS, ...options.reconnect },
      logger: this.log,
      setup: (model) => this.setup(model),
      onLost: () => {
        this.link = undefined;
        this.replies.flush(); // no link: every waiting batch fails to publish and is kept
        this.commands?.failAll(this.unavailable()); // never published: their senders learn it now
      },
      onUnblocked: () => this.replies.releaseHeld(),
    });
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.connection.open();
    try {
      await this.connection.waitUp(this.options.startTimeoutMs ?? 30000);
    } catch (err) {
      this.stopped = true;
      await this.connection.close();
      throw errors.unavailable(`AMQP broker unreachable (${this.where}): ${messageOf(err)}`, {
        transport: 'amqp',
      });
    }
  }

  async consume(kind: string, handler: CommandHandler): Promise<void> {
    if (!this.started || this.stopped || this.stopping) throw this.unavailable();
    const registration: Registration = { kind, handler, turns: 0 };
    this.registrations.push(registration);
    const link = this.link;
    // While disconnected the registration waits: the next connection's setup starts it.
    if (!link) return;
    try {
      await this.startConsumer(link, registration);
    } catch (err) {
      if (this.link !== link) return; // the connection dropped meanwhile: setup takes over
      this.registrations = this.registrations.filter((r) => r !== registration);
      throw errors.unavailable(`cannot consume ${kind}: ${messageOf(err)}`, { transport: 'amqp' });
    }
  }

  /**
   * Not `async`: once a kind's queues are known (every send but the first), the promise of the
   * publisher confirm is the only one a send creates. Commands to one kind sent within one turn of
   * the event loop leave as one message (amqp-command-batches.ts) unless batching is off.
   */
  send(envelope: Envelope, hints?: SendHints): Promise<void> {
    const link = this.link;
    if (!link || this.connection.blocked) return Promise.reject(this.unavailable());
    const kind = kindOf(envelope.to);
    let json: string;
    try {
      json = JSON.stringify(envelope);
    } catch (err) {
      return Promise.reject(err as Error);
    }
    const batcher = hints?.alone ? undefined : this.commands;
    if (!link.hasKind(kind))
      return this.declareKind(link, kind).then(() => this.enqueue(kind, json, batcher));
    return this.enqueue(kind, json, batcher);
  }

  /** Into this tick's batch for the kind, or alone (what was sent to the kind before goes first). */
  private enqueue(kind: string, json: string, batcher: CommandBatcher | undefined): Promise<void> {
    if (batcher) return batcher.add(kind, json);
    this.commands?.flushKind(kind);
    return this.publishCommand(kind, Buffer.from(json));
  }

  private async declareKind(link: AmqpLink, kind: string): Promise<void> {
    try {
      await link.ensureKind(kind);
    } catch (err) {
      throw errors.unavailable(`cannot declare the queue of ${kind}: ${messageOf(err)}`, {
        transport: 'amqp',
      });
    }
  }

  /** Publishes one command message (an envelope or a batch) with a publisher confirm, on the live link. */
  private publishCommand(kind: string, body: Buffer): Promise<void> {
    const link = this.link;
    if (!link || this.connection.blocked) return Promise.reject(this.unavailable());
    const timeoutMs = this.confirmTimeoutMs;
    const queue = this.names.commandQueue(kind);
    // A batch filled before a reconnection is published on the new link: its queues are declared first.
    if (!link.hasKind(kind))
      return this.declareKind(link, kind).then(() => link.publishCommand(queue, body, timeoutMs));
    return link.publishCommand(queue, body, timeoutMs);
  }

  async reply(nodeId: string, envelope: Envelope): Promise<void> {
    // The reply joins this tick's batch for its node. The default exchange routes by queue name;
    // a queue that is gone drops the reply, as documented. Without a usable link it is kept for the
    // next one: the turn that made it is over, and nothing else would ever answer its requester.
    if (!this.started || this.stopped) throw this.unavailable();
    this.replies.send(this.names.replyQueue(nodeId), JSON.stringify(envelope), envelope.deadline);
  }

  onReply(listener: EnvelopeListener): void {
    this.inbox.onReply(listener);
  }

  async broadcast(envelope: Envelope, keys?: readonly string[]): Promise<void> {
    // The keys travel as headers, read by the receivers before the body (amqp-inbox.ts).
    const headers = keys ? broadcastHeaders(envelope.type, keys) : undefined;
    this.publish(this.link, this.names.broadcastExchange, '', envelope, headers);
  }

  onBroadcast(listener: EnvelopeListener): void {
    this.inbox.onBroadcast(listener);
  }

  filterBroadcasts(wanted: BroadcastFilter): void {
    this.inbox.filterBroadcasts(wanted);
  }

  status(): TransportStatus {
    if (!this.started) return { state: 'down', detail: `${this.where}: not started` };
    if (this.stopped) return { state: 'down', detail: `${this.where}: stopped` };
    const state = this.connection.state;
    if (state === 'up' && this.connection.blocked) {
      return { state: 'down', detail: `${this.where}: publishing blocked by the broker (resource alarm)` };
    }
    if (state === 'up') return { state, detail: this.where };
    return { state, detail: `${this.where}: ${this.connection.lastError ?? 'connecting'}` };
  }

  stop(graceMs = 10000): Promise<void> {
    if (!this.started || this.stopped) return Promise.resolve();
    this.stopping ??= this.drainAndClose(graceMs);
    return this.stopping;
  }

  /** Dead letters waiting in a kind's DLQ (operators, tests). */
  async deadLetterCount(kind: string): Promise<number> {
    if (!this.link) throw this.unavailable();
    return countMessages(this.link.model, this.names.deadLetterQueue(kind));
  }

  /**
   * Messages ready and consumers of the command queue of each kind (metrics). One short-lived
   * channel per queue, one queue after the other: a handful of broker calls per scrape.
   */
  async queueStats(kinds: readonly string[]): Promise<QueueStat[]> {
    const link = this.link;
    if (!link) throw this.unavailable();
    const out: QueueStat[] = [];
    for (const kind of kinds) {
      const info = await queueInfo(link.model, this.names.commandQueue(kind));
      if (info) out.push({ kind, ...info });
    }
    return out;
  }

  /** Reads up to `max` dead letters of a kind without removing them. */
  async peekDeadLetters(kind: string, max = 100): Promise<DeadLetter[]> {
    if (!this.link) throw this.unavailable();
    return peekMessages(this.link.model, this.names.deadLetterQueue(kind), max);
  }

  /** Every queue and exchange this transport declared (for cleanup by tests and tools). */
  declaredNames(): { queues: string[]; exchanges: string[] } {
    return { queues: [...this.declared.queues], exchanges: [...this.declared.exchanges] };
  }

  /** @internal ConsumerHost: publishes one command split out of a batch, or a dead letter with its reason. */
  republish(target: 'queue' | 'dead-letters', kind: string, body: Buffer, headers: Record<string, unknown>) {
    const link = this.link;
    if (!link || this.connection.blocked) return Promise.reject(this.unavailable());
    const timeoutMs = this.confirmTimeoutMs;
    return target === 'queue'
      ? link.publishCommand(this.names.commandQueue(kind), body, timeoutMs, headers)
      : link.publishDeadLetter(this.names.deadLetterExchange, kind, body, timeoutMs, headers);
  }

  private get confirmTimeoutMs(): number {
    return this.options.confirmTimeoutMs ?? 10000;
  }

  /** Writes what the channels hold at the end of this tick (see WriteWatch.writeSoon). */
  private writeSoon(): void {
    const link = this.link;
    if (link) WriteWatch.of(link.model)?.writeSoon();
  }

  /** @internal ConsumerHost */
  turnStarted(): void {
    this.inFlight++;
  }

  /** @internal ConsumerHost */
  turnEnded(): void {
    this.inFlight--;
    if (this.inFlight === 0) for (const w of this.idleWaiters.splice(0)) w();
  }

  /**
   * Runs on every new connection: channels, the node's queues, then every registered consumer.
   * The link is in use before the first consumer starts: a delivery's turn can end (and reply)
   * at once, and its reply must find the link (else its requester waits for its deadline although
   * the work is done). The connection reports `up` once every consumer is back.
   */
  private async setup(model: ChannelModel): Promise<void> {
    this.model = model;
    model.once('close', () => {
      if (this.link?.model === model) this.link = undefined; // fail fast from this instant on
      if (this.model === model) this.model = undefined;
    });
    const link = await AmqpLink.open(model, this);
    const expiresMs = this.options.nodeQueueExpiresMs ?? 60000;
    const own = await declareNode(link.node, this.names, this.nodeId, expiresMs, this.declared);
    // No acknowledgements: replies and broadcasts are best effort, and this is the hot path.
    const noAck = { noAck: true };
    await link.node.consume(own.replyQueue, this.inbox.replies, noAck);
    await link.node.consume(own.broadcastQueue, this.inbox.broadcast, noAck);
    if (this.stopped) return; // a stop() during setup wins: the loop then closes this connection
    this.link = link;
    this.replies.releaseHeld();
    // Indexed loop: a consume() arriving during this setup is appended and picked up here too
    // (or started by consume() itself, now that the link is set: startConsumer runs once per link).
    for (let i = 0; i < this.registrations.length; i++) await this.startConsumer(link, this.registrations[i]);
  }

  private async startConsumer(link: AmqpLink, registration: Registration): Promise<void> {
    if (registration.link === link) return;
    registration.link = link;
    await link.ensureKind(registration.kind);
    const channel = await link.consumerChannel(this.prefetch, `consumer ${registration.kind}`);
    registration.channel = channel;
    const acks = new AckBatcher(
      channel,
      () => this.closedChannels.has(channel),
      WriteWatch.of(link.model),
      Math.max(1, Math.floor(this.prefetch / 4)),
    );
    registration.acks = acks;
    const { consumerTag } = await channel.consume(this.names.commandQueue(registration.kind), (m) =>
      handleDelivery(this, registration, channel, acks, m),
    );
    registration.consumerTag = consumerTag;
  }

  /** @internal LinkContext */
  isCurrent(model: ChannelModel): boolean {
    return this.model === model && !this.stopped;
  }

  private publish(
    link: AmqpLink | undefined,
    exchange: string,
    routingKey: string,
    envelope: Envelope,
    headers?: Record<string, unknown>,
  ): void {
    if (!link || this.connection.blocked) throw this.unavailable();
    try {
      link.node.publish(exchange, routingKey, encodeEnvelope(envelope), headers ? { headers } : undefined);
    } catch (err) {
      throw errors.unavailable(`publish failed: ${messageOf(err)}`, { transport: 'amqp' });
    }
  }

  private async drainAndClose(graceMs: number): Promise<void> {
    // No new deliveries: cancel every consumer (deliveries already received are turns in flight).
    const registrations = this.registrations.splice(0);
    await Promise.all(
      registrations.map((r) =>
        r.channel && r.consumerTag && !this.closedChannels.has(r.channel)
          ? r.channel.cancel(r.consumerTag).catch(() => undefined)
          : undefined,
      ),
    );
    if (this.inFlight > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, graceMs);
        this.idleWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    // Acknowledgements and replies are coalesced (and acks may linger): let the last ones go out first.
    for (const r of registrations) r.acks?.flush();
    this.commands?.flush();
    this.replies.flush();
    await new Promise((resolve) => setImmediate(resolve));
    const link = this.link;
    this.stopped = true;
    this.link = undefined;
    this.model = undefined;
    if (link) {
      // A node that leaves takes its own queues with it; unacknowledged commands go back to their queues.
      await link.node.deleteQueue(this.names.replyQueue(this.nodeId)).catch(() => undefined);
      await link.node.deleteQueue(this.names.broadcastQueue(this.nodeId)).catch(() => undefined);
    }
    await this.connection.close();
  }

  private unavailable(): AppError {
    if (this.stopped || this.stopping)
      return errors.unavailable('AMQP transport is stopped', { transport: 'amqp' });
    if (!this.started) return errors.unavailable('AMQP transport is not started', { transport: 'amqp' });
    const status = this.status();
    return errors.unavailable('message broker unavailable', { transport: 'amqp', state: status.state });
  }
}
