import type { Channel, ChannelModel, ConfirmChannel } from 'amqplib';
import { errors, type AppError } from '../../../schemas/errors';
import type { Logger } from '../../logging/logger';
import { messageOf } from './amqp-connection';
import { declareKind, type AmqpNames, type DeclaredNames } from './amqp-topology';
import { TimeoutLists } from '../timeout-list';

/** Publish options of every command (amqplib reads them, never changes them). */
const PERSISTENT = Object.freeze({ persistent: true });

/** What a link needs from its transport. */
export interface LinkContext {
  readonly names: AmqpNames;
  readonly deliveryLimit: number;
  readonly declared: DeclaredNames;
  readonly log: Logger;
  /** Channels that have closed: deliveries received on them can no longer be settled. */
  readonly closedChannels: WeakSet<Channel>;
  /** False once the transport has moved on from this connection (stopped, or a newer one). */
  isCurrent(model: ChannelModel): boolean;
}

/**
 * The channels of one live connection. A channel that closes while its connection is current is
 * a fault (the broker closes a channel on a protocol error): the whole connection is closed, and
 * the reconnection rebuilds everything. Declaration channels are the exception: a refused
 * declaration (arguments that contradict an existing queue) closes only that channel, so it must
 * not bring the node down; they are re-opened on demand.
 */
export class AmqpLink {
  /** Kinds whose queues were declared on this connection (`true` once done). */
  private readonly kinds = new Map<string, Promise<void> | true>();
  private readonly admin: [Promise<Channel> | undefined, Promise<Channel> | undefined] = [
    undefined,
    undefined,
  ];
  /** Publishes waiting for their confirm, by deadline (one timer per duration, not per publish). */
  private readonly confirmTimeouts = new TimeoutLists<(error: AppError) => void>((reject) =>
    reject(
      // Written to the socket: the broker may have routed it all the same.
      errors.unavailable('the broker did not confirm the command in time', {
        transport: 'amqp',
        mayHaveRun: true,
      }),
    ),
  );

  private constructor(
    readonly model: ChannelModel,
    /** Commands, with publisher confirms. */
    readonly confirm: ConfirmChannel,
    /** Replies and broadcasts (no confirms), and the node's own no-ack consumers. */
    readonly node: Channel,
    private readonly context: LinkContext,
  ) {}

  static async open(model: ChannelModel, context: LinkContext): Promise<AmqpLink> {
    const confirm = await model.createConfirmChannel();
    watch(model, confirm, 'confirm', context);
    const node = await model.createChannel();
    watch(model, node, 'node', context);
    return new AmqpLink(model, confirm, node, context);
  }

  /** A channel for one consumer, with its prefetch. */
  async consumerChannel(prefetch: number, what: string): Promise<Channel> {
    const channel = await this.model.createChannel();
    watch(this.model, channel, what, this.context);
    await channel.prefetch(prefetch);
    return channel;
  }

  /** True when the kind's queues are known to exist on this connection (the hot path's check). */
  hasKind(kind: string): boolean {
    return this.kinds.get(kind) === true;
  }

  /** Declares a kind's queues once per connection; concurrent callers share the declaration. */
  ensureKind(kind: string): Promise<void> {
    const known = this.kinds.get(kind);
    if (known === true) return Promise.resolve();
    if (known) return known;
    const pending = (async () => {
      const channels = await Promise.all([this.adminChannel(0), this.adminChannel(1)]);
      await declareKind(
        channels,
        this.context.names,
        kind,
        this.context.deliveryLimit,
        this.context.declared,
      );
      this.kinds.set(kind, true);
    })();
    this.kinds.set(kind, pending);
    pending.catch(() => this.kinds.delete(kind));
    return pending;
  }

  /**
   * Publishes a command and resolves when the broker confirms it. Publishes are not awaited one
   * by one: many are outstanding at once, each with its own confirm callback.
   */
  publishCommand(
    queue: string,
    body: Buffer,
    timeoutMs: number,
    headers?: Record<string, unknown>,
  ): Promise<void> {
    return this.confirmed(timeoutMs, (done) =>
      this.confirm.sendToQueue(queue, body, headers ? { persistent: true, headers } : PERSISTENT, done),
    );
  }

  /** Publishes one dead letter to the dead-letter exchange (routed to the kind's DLQ), confirmed. */
  publishDeadLetter(
    exchange: string,
    kind: string,
    body: Buffer,
    timeoutMs: number,
    headers: Record<string, unknown>,
  ): Promise<void> {
    return this.confirmed(timeoutMs, (done) =>
      this.confirm.publish(exchange, kind, body, { persistent: true, headers }, done),
    );
  }

  private confirmed(timeoutMs: number, publish: (done: (err: unknown) => void) => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const handle = this.confirmTimeouts.add(reject, timeoutMs);
      // A nack or a channel closed before the confirm: the message was written, and may have been
      // routed; a publish that threw was never written.
      let written = false;
      const confirmed = (err: unknown) => {
        this.confirmTimeouts.remove(handle);
        if (!err) return resolve();
        reject(
          errors.unavailable(`the broker did not accept the command: ${messageOf(err)}`, {
            transport: 'amqp',
            mayHaveRun: written,
          }),
        );
      };
      try {
        publish(confirmed);
        written = true;
      } catch (err) {
        confirmed(err ?? new Error('publish failed'));
      }
    });
  }

  private adminChannel(slot: 0 | 1): Promise<Channel> {
    const existing = this.admin[slot];
    if (existing) return existing;
    const opened = (async () => {
      const channel = await this.model.createChannel();
      channel.on('error', (err: Error) =>
        this.context.log.warn({ err: messageOf(err) }, 'amqp declaration refused'),
      );
      channel.on('close', () => {
        if (this.admin[slot] === opened) this.admin[slot] = undefined;
      });
      return channel;
    })();
    this.admin[slot] = opened;
    opened.catch(() => {
      if (this.admin[slot] === opened) this.admin[slot] = undefined;
    });
    return opened;
  }
}

function watch(model: ChannelModel, channel: Channel, what: string, context: LinkContext): void {
  channel.on('error', (err: Error) =>
    context.log.warn({ err: messageOf(err), channel: what }, 'amqp channel error'),
  );
  channel.on('close', () => {
    context.closedChannels.add(channel);
    // amqplib closes the channels of a dying connection just before the connection says so:
    // look again once that has happened, so only a channel closed on its own counts as a fault.
    queueMicrotask(() => {
      if (!context.isCurrent(model)) return;
      context.log.warn({ channel: what }, 'amqp channel closed; reconnecting');
      model.close().catch(() => undefined);
    });
  });
}
