import type { Channel, ConsumeMessage } from 'amqplib';
import type { Logger } from '../logging/logger';
import { settle, type AckBatcher } from './amqp-acks';
import { handleBatch } from './amqp-consumer-batch';
import { decodeCommandMessage, deliveryCountOf, wasHandedBack } from './amqp-codec';
import { messageOf } from './amqp-connection';
import type { CommandHandler, Delivery, Disposition } from './transport';

/** A `consume(kind, handler)` call; it survives reconnections and is re-registered on each. */
export interface Registration {
  readonly kind: string;
  readonly handler: CommandHandler;
  /** The channel of the live broker consumer, if any. */
  channel?: Channel;
  /** Its acknowledgements (flushed before the transport closes). */
  acks?: AckBatcher;
  consumerTag?: string;
  /** Turns of this kind running on this node (a batch's commands count one each). */
  turns: number;
}

/** What the consumer side needs from the transport. */
export interface ConsumerHost {
  readonly log: Logger;
  readonly deliveryLimit: number;
  /** Turns of one kind a node takes on at once (a batch's commands beyond it are handed back). */
  readonly prefetch: number;
  turnStarted(): void;
  turnEnded(): void;
  /**
   * Publishes one command split out of a batch, with a publisher confirm: back to its kind's queue
   * (`queue`) or into its dead-letter queue (`dead-letters`).
   */
  republish(
    target: 'queue' | 'dead-letters',
    kind: string,
    body: Buffer,
    headers: Record<string, unknown>,
  ): Promise<void>;
}

/**
 * Runs the handler of one delivered command (a batch: of each of its commands, see
 * amqp-consumer-batch.ts) and settles the message only when the turn is over:
 * `ack`; `requeue` → nack with requeue (or dead-letter once the delivery limit is reached, so the
 * count is exact whatever the broker's own counting); `dead-letter` → nack without requeue, which
 * the queue's dead-letter exchange routes to the kind's DLQ. A handler that throws counts as
 * `requeue`. A message that is not a valid envelope is dead-lettered at once, never retried.
 */
export function handleDelivery(
  host: ConsumerHost,
  registration: Registration,
  channel: Channel,
  acks: AckBatcher,
  message: ConsumeMessage | null,
): void {
  if (message === null) {
    // The broker cancelled this consumer (its queue was deleted). The registration stays, so the
    // next reconnection declares the queue again and resumes consuming.
    host.log.warn({ kind: registration.kind }, 'amqp consumer cancelled by the broker');
    if (registration.channel === channel) registration.consumerTag = undefined;
    return;
  }
  acks.delivered(message);
  const command = decodeCommandMessage(message.content);
  if (command.batch) return handleBatch(host, registration, acks, message, command.items);
  const decoded = command.decoded;
  if (!decoded.ok) {
    host.log.warn(
      { kind: registration.kind, reason: decoded.reason, bytes: message.content.length },
      'malformed command dead-lettered',
    );
    settle(acks, message, 'dead-letter');
    return;
  }
  const deliveryCount = deliveryCountOf(message);
  const delivery: Delivery = {
    envelope: decoded.envelope,
    // A command split out of a batch is a new message to the broker, but not a first delivery; a
    // handed-back one may come back in its batch too (HANDED_BACK_HEADER).
    redelivered: message.fields.redelivered || deliveryCount > 1 || wasHandedBack(message),
    deliveryCount,
  };
  runTurn(host, registration, delivery, (disposition) => {
    if (overDeliveryLimit(host, disposition, deliveryCount)) disposition = 'dead-letter';
    if (disposition === 'dead-letter') {
      host.log.warn(
        { kind: registration.kind, id: decoded.envelope.id, type: decoded.envelope.type, deliveryCount },
        'command dead-lettered',
      );
    }
    settle(acks, message, disposition);
  });
}

/**
 * Runs the turn of one command, alone or out of a batch: counts it on the node and the kind while
 * it runs, calls the handler and passes its disposition to `over` (`requeue`, logged, when the
 * handler throws or rejects) before the node's count drops.
 */
export function runTurn(
  host: ConsumerHost,
  registration: Registration,
  delivery: Delivery,
  over: (disposition: Disposition) => void,
): void {
  host.turnStarted();
  registration.turns++;
  let turn: Promise<Disposition>;
  try {
    turn = registration.handler(delivery);
  } catch (err) {
    turn = Promise.reject(err);
  }
  const end = (disposition: Disposition) => {
    registration.turns--;
    over(disposition);
    host.turnEnded();
  };
  turn.then(end, (err: unknown) => {
    host.log.warn({ kind: registration.kind, err: messageOf(err) }, 'command handler failed; requeued');
    end('requeue');
  });
}

/** A `requeue` at the delivery limit becomes a dead letter (the count is ours, exact). */
export function overDeliveryLimit(
  host: ConsumerHost,
  disposition: Disposition,
  deliveryCount: number,
): boolean {
  return disposition === 'requeue' && deliveryCount >= host.deliveryLimit;
}
