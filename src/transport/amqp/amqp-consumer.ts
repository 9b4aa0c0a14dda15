import type { Channel, ConsumeMessage } from 'amqplib';
import { settle, type AckBatcher } from './amqp-acks';
import { handleBatch } from './amqp-consumer-batch';
import { decodeCommandMessage, deliveryCountOf, wasHandedBack } from './amqp-codec';
import { overDeliveryLimit, runTurn, type ConsumerHost, type Registration } from './amqp-turn';
import type { Delivery } from '../transport';

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
