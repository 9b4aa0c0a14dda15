import type { Channel, ConsumeMessage } from 'amqplib';
import { settle, type AckBatcher } from './amqp-acks';
import {
  DEAD_LETTER_DETAIL_HEADER,
  DEAD_LETTER_REASON_HEADER,
  decodeCommandMessage,
  deliveryCountOf,
  detailHeader,
  PRIOR_DELIVERIES_HEADER,
  wasHandedBack,
  type CommandMessage,
  type DeadLetterReason,
} from './amqp-codec';
import { handleBatch } from './amqp-consumer-batch';
import { messageOf } from './amqp-connection';
import { overDeliveryLimit, runTurn, type ConsumerHost, type Registration } from './amqp-turn';
import type { Delivery } from '../transport';

/**
 * Runs the handler of one delivered command (a batch: of each of its commands, see
 * amqp-consumer-batch.ts) and settles the message only when the turn is over:
 * `ack`; `requeue` → nack with requeue (or dead-letter once the delivery limit is reached, so the
 * count is exact whatever the broker's own counting); `dead-letter` → nack without requeue, which
 * the queue's dead-letter exchange routes to the kind's DLQ. A handler that throws counts as
 * `requeue`.
 *
 * Poison is dead-lettered at first sight, never retried and never handed to a handler: a message
 * that is not a valid envelope (too large, not UTF-8, not JSON, another envelope version, an array
 * with no valid envelope) goes to the DLQ as it came, with its reason in headers (`deadLetterNow`);
 * so does a command whose handler refused it with a reason (a body its schema rejects). Nothing
 * here throws into amqplib: an exception in a consumer callback would close the channel, and the
 * message would come back to the next consumer, and the next.
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
  let command: CommandMessage;
  try {
    command = decodeCommandMessage(message.content, host.maxMessageBytes);
  } catch (err) {
    // Not expected (decoding never throws); poison all the same, never a crashed channel.
    command = { batch: false, decoded: { ok: false, reason: `undecodable: ${messageOf(err)}` } };
  }
  if (command.batch) return handleBatch(host, registration, acks, message, command.items);
  const decoded = command.decoded;
  const deliveryCount = deliveryCountOf(message);
  if (!decoded.ok) {
    host.log.warn(
      { kind: registration.kind, reason: decoded.reason, bytes: message.content.length },
      'malformed command dead-lettered',
    );
    deadLetterNow(host, registration.kind, acks, message, 'malformed', decoded.reason, deliveryCount);
    return;
  }
  const delivery: Delivery = {
    envelope: decoded.envelope,
    // A command split out of a batch is a new message to the broker, but not a first delivery; a
    // handed-back one may come back in its batch too (HANDED_BACK_HEADER).
    redelivered: message.fields.redelivered || deliveryCount > 1 || wasHandedBack(message),
    deliveryCount,
  };
  runTurn(host, registration, delivery, (disposition, reason) => {
    if (overDeliveryLimit(host, disposition, deliveryCount)) disposition = 'dead-letter';
    if (disposition === 'dead-letter') {
      host.log.warn(
        {
          kind: registration.kind,
          id: decoded.envelope.id,
          type: decoded.envelope.type,
          deliveryCount,
          reason,
        },
        'command dead-lettered',
      );
    }
    if (disposition === 'dead-letter' && reason !== undefined) {
      deadLetterNow(host, registration.kind, acks, message, 'rejected', reason, deliveryCount);
    } else {
      settle(acks, message, disposition);
    }
  });
}

/**
 * Dead-letters a message as it came, with why in its headers: published to the kind's DLQ with a
 * publisher confirm, then acknowledged. A nack would route it there too, but the broker's
 * `x-death` only says `rejected`. If the publish fails, the nack is the fallback (dead-lettered
 * all the same, without the reason). The message counts as a turn in flight until settled, so a
 * graceful stop waits for it.
 */
function deadLetterNow(
  host: ConsumerHost,
  kind: string,
  acks: AckBatcher,
  message: ConsumeMessage,
  reason: DeadLetterReason,
  detail: string,
  deliveryCount: number,
): void {
  host.turnStarted();
  const headers = {
    [DEAD_LETTER_REASON_HEADER]: reason,
    [DEAD_LETTER_DETAIL_HEADER]: detailHeader(detail),
    [PRIOR_DELIVERIES_HEADER]: deliveryCount,
  };
  let published: Promise<void>;
  try {
    published = host.republish('dead-letters', kind, message.content, headers);
  } catch (err) {
    published = Promise.reject(err);
  }
  published.then(
    () => {
      settle(acks, message, 'ack');
      host.turnEnded();
    },
    (err: unknown) => {
      host.log.warn(
        { kind, err: messageOf(err) },
        'dead letter not published with its reason; nacked instead',
      );
      settle(acks, message, 'dead-letter');
      host.turnEnded();
    },
  );
}
