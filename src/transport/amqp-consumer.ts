import type { Channel, ConsumeMessage } from 'amqplib';
import type { Logger } from '../logging/logger';
import type { AckBatcher } from './amqp-acks';
import { decodeEnvelope, deliveryCountOf } from './amqp-codec';
import { messageOf } from './amqp-connection';
import type { CommandHandler, Disposition } from './transport';

/** A `consume(kind, handler)` call; it survives reconnections and is re-registered on each. */
export interface Registration {
  readonly kind: string;
  readonly handler: CommandHandler;
  /** The channel of the live broker consumer, if any. */
  channel?: Channel;
  /** Its acknowledgements (flushed before the transport closes). */
  acks?: AckBatcher;
  consumerTag?: string;
}

/** What the consumer side needs from the transport. */
export interface ConsumerHost {
  readonly log: Logger;
  readonly deliveryLimit: number;
  turnStarted(): void;
  turnEnded(): void;
}

/**
 * Runs the handler of one delivered command and settles the message only when the turn is over:
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
  const decoded = decodeEnvelope(message.content);
  if (!decoded.ok) {
    host.log.warn(
      { kind: registration.kind, reason: decoded.reason, bytes: message.content.length },
      'malformed command dead-lettered',
    );
    settle(acks, message, 'dead-letter');
    return;
  }
  const deliveryCount = deliveryCountOf(message);
  host.turnStarted();
  let turn: Promise<Disposition>;
  try {
    turn = registration.handler({
      envelope: decoded.envelope,
      redelivered: message.fields.redelivered,
      deliveryCount,
    });
  } catch (err) {
    turn = Promise.reject(err);
  }
  const end = (disposition: Disposition) => {
    if (disposition === 'requeue' && deliveryCount >= host.deliveryLimit) disposition = 'dead-letter';
    if (disposition === 'dead-letter') {
      host.log.warn(
        { kind: registration.kind, id: decoded.envelope.id, type: decoded.envelope.type, deliveryCount },
        'command dead-lettered',
      );
    }
    settle(acks, message, disposition);
    host.turnEnded();
  };
  turn.then(end, (err: unknown) => {
    host.log.warn({ kind: registration.kind, err: messageOf(err) }, 'command handler failed; requeued');
    end('requeue');
  });
}

function settle(acks: AckBatcher, message: ConsumeMessage, disposition: Disposition): void {
  try {
    if (disposition === 'ack') acks.ack(message);
    else acks.nack(message, disposition === 'requeue');
  } catch (_) {
    // The channel closed meanwhile: the broker has already put the message back.
  }
}
