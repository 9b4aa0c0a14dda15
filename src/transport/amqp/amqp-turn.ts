import type { Channel } from 'amqplib';
import type { Logger } from '../../logging/logger';
import type { AckBatcher } from './amqp-acks';
import { messageOf } from './amqp-connection';
import type { AmqpLink } from './amqp-link';
import {
  dispositionOf,
  reasonOf,
  type CommandHandler,
  type Delivery,
  type Disposition,
  type Verdict,
} from '../transport';

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
  /** A command message longer than this is dead-lettered unread. */
  readonly maxMessageBytes?: number;
  turnStarted(): void;
  turnEnded(): void;
  /**
   * Publishes one command split out of a batch, or poison dead-lettered with its reason, with a
   * publisher confirm: back to its kind's queue (`queue`) or into its dead-letter queue
   * (`dead-letters`).
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
 * it runs, calls the handler and passes its disposition (and the reason of a dead letter, if the
 * handler gave one) to `over` (`requeue`, logged, when the handler throws or rejects) before the
 * node's count drops.
 */
export function runTurn(
  host: ConsumerHost,
  registration: Registration,
  delivery: Delivery,
  over: (disposition: Disposition, reason?: string) => void,
): void {
  host.turnStarted();
  registration.turns++;
  let turn: Promise<Verdict>;
  try {
    turn = registration.handler(delivery);
  } catch (err) {
    turn = Promise.reject(err);
  }
  const end = (disposition: Disposition, reason?: string) => {
    registration.turns--;
    try {
      over(disposition, reason);
    } catch (err) {
      // Settling must never throw into a promise nobody awaits; say so loudly, it is a defect.
      host.log.error({ kind: registration.kind, err: messageOf(err) }, 'settling a command failed');
    }
    host.turnEnded();
  };
  turn.then(
    (verdict) => end(dispositionOf(verdict), reasonOf(verdict)),
    (err: unknown) => {
      host.log.warn({ kind: registration.kind, err: messageOf(err) }, 'command handler failed; requeued');
      end('requeue');
    },
  );
}

/** A `requeue` at the delivery limit becomes a dead letter (the count is ours, exact). */
export function overDeliveryLimit(
  host: ConsumerHost,
  disposition: Disposition,
  deliveryCount: number,
): boolean {
  return disposition === 'requeue' && deliveryCount >= host.deliveryLimit;
}
