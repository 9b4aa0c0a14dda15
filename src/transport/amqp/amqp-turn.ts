import type { Channel } from 'amqplib';
import type { Logger } from '../../logging/logger';
import type { AckBatcher } from './amqp-acks';
import { messageOf } from './amqp-connection';
import type { AmqpLink } from './amqp-link';
import type { CommandHandler, Delivery, Disposition } from '../transport';

/*
 * What a single delivery (amqp-consumer.ts) and a batch (amqp-consumer-batch.ts) share: the
 * registration they belong to, what they need from the transport, and running one turn. Its own
 * module so that neither of the two imports the other's values back.
 */

/** A `consume(kind, handler)` call; it survives reconnections and is re-registered on each. */
export interface Registration {
  readonly kind: string;
  readonly handler: CommandHandler;
  /** The link its consumer was last started on (once per link). */
  link?: AmqpLink;
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
