import type { ConsumeMessage } from 'amqplib';
import { settle, type AckBatcher } from './amqp-acks';
import { batchSlices } from './amqp-batch-slices';
import {
  DEAD_LETTER_DETAIL_HEADER,
  DEAD_LETTER_REASON_HEADER,
  deliveryCountOf,
  detailHeader,
  HANDED_BACK_HEADER,
  PRIOR_DELIVERIES_HEADER,
  type BatchItem,
  type DeadLetterReason,
} from './amqp-codec';
import { messageOf } from './amqp-connection';
import { overDeliveryLimit, runTurn, type ConsumerHost, type Registration } from './amqp-turn';
import type { Disposition } from '../transport';

/**
 * Runs the commands of one batch message (amqp-command-batches.ts) as independent turns, all with
 * the message's delivery count, and settles the message once every one is over.
 *
 * **Turn slots.** A node takes on at most `prefetch` turns of a kind at once, batch or not: the
 * commands of a batch beyond the free slots are handed back at once, each published again on its
 * own to the kind's queue (not counted as a delivery), where any node, this one included, takes
 * them as single commands. So a burst sent in one turn of the loop still spreads over every
 * consumer that has room, as single messages would (at least one command of a batch always runs
 * here, so a full node makes progress instead of bouncing batches).
 *
 * **Settlement.**
 * - every command ended with `ack` (and nothing was handed back) → the message is acknowledged;
 * - every command asked for `requeue` below the delivery limit (nothing handed back) → the message
 *   goes back whole;
 * - otherwise the batch is split: each command that did not end with `ack` is published again on
 *   its own with a publisher confirm, back to its queue (carrying the deliveries it already had,
 *   `PRIOR_DELIVERIES_HEADER`, so the delivery limit counts from its first) or into the kind's DLQ
 *   (with `DEAD_LETTER_REASON_HEADER`, and `DEAD_LETTER_DETAIL_HEADER` when the reason is known);
 *   only once the broker has confirmed every one (and the hand-backs) is the batch acknowledged.
 *   If that fails, the whole batch goes back to its queue: the commands that had ended run again,
 *   as at-least-once delivery allows (the kernel's dedupe sees their ids).
 *
 * A command published on its own is its bytes cut out of the message (amqp-batch-slices.ts), never
 * serialised again: a malformed element of any depth or size goes to the DLQ as it came, at first
 * sight, and its neighbours run. A dead letter is thus one element per message, whatever batch it
 * came in. The batch counts as one turn in flight until it is settled, so a graceful stop waits
 * for a split too.
 */
export function handleBatch(
  host: ConsumerHost,
  registration: Registration,
  acks: AckBatcher,
  message: ConsumeMessage,
  items: BatchItem[],
): void {
  const deliveryCount = deliveryCountOf(message);
  const redelivered = message.fields.redelivered || deliveryCount > 1;
  const state: BatchState = {
    host,
    registration,
    acks,
    message,
    items,
    deliveryCount,
    outcomes: new Array<Disposition>(items.length),
    reasons: new Array<DeadLetterReason | undefined>(items.length),
    details: new Array<string | undefined>(items.length),
    handedBack: [],
  };
  host.turnStarted(); // the batch's own: ended once the message is settled
  const free = Math.max(1, host.prefetch - registration.turns);
  let open = items.length;
  const end = (
    i: number,
    disposition: Disposition,
    reason: DeadLetterReason = 'rejected',
    detail?: string,
  ) => {
    if (overDeliveryLimit(host, disposition, deliveryCount)) {
      disposition = 'dead-letter';
      reason = 'delivery-limit';
    }
    state.outcomes[i] = disposition;
    if (disposition === 'dead-letter') {
      state.reasons[i] = reason;
      state.details[i] = detail;
    }
    if (--open === 0) settleBatch(state);
  };

  let started = 0;
  items.forEach((item, i) => {
    if (!item.ok) {
      host.log.warn(
        { kind: registration.kind, reason: item.reason, index: i },
        'malformed command in a batch dead-lettered',
      );
      end(i, 'dead-letter', 'malformed', item.reason);
      return;
    }
    if (started >= free) {
      // No slot left: back to the queue now, for whoever has room; this delivery does not count.
      const handBack = republishItem(state, i, 'queue', {
        [PRIOR_DELIVERIES_HEADER]: deliveryCount - 1,
        [HANDED_BACK_HEADER]: 1,
      });
      handBack.catch(() => undefined); // its failure is handled when the batch settles
      state.handedBack.push(handBack);
      end(i, 'ack');
      return;
    }
    started++;
    runTurn(
      host,
      registration,
      { envelope: item.envelope, redelivered, deliveryCount },
      (disposition, detail) => end(i, disposition, 'rejected', detail),
    );
  });
}

interface BatchState {
  readonly host: ConsumerHost;
  readonly registration: Registration;
  readonly acks: AckBatcher;
  readonly message: ConsumeMessage;
  readonly items: BatchItem[];
  readonly deliveryCount: number;
  readonly outcomes: Disposition[];
  readonly reasons: Array<DeadLetterReason | undefined>;
  /** What exactly was wrong with a dead letter, when known (a malformed element, a handler's reason). */
  readonly details: Array<string | undefined>;
  /** Publishes of the commands handed back for lack of a turn slot. */
  readonly handedBack: Array<Promise<void>>;
  /** The bytes of each element, cut out of the message the first time one leaves the batch. */
  slices?: Buffer[];
}

/** Publishes element `i` of the batch alone, as its bytes came in the message. */
function republishItem(
  state: BatchState,
  i: number,
  target: 'queue' | 'dead-letters',
  headers: Record<string, unknown>,
): Promise<void> {
  state.slices ??= batchSlices(state.message.content);
  const body = state.slices[i];
  // Cannot happen for an array JSON.parse accepted; refuse rather than publish something else.
  if (body === undefined) return Promise.reject(new Error(`element ${i} not found in the batch`));
  try {
    return state.host.republish(target, state.registration.kind, body, headers);
  } catch (err) {
    return Promise.reject(err as Error);
  }
}

function settleBatch(state: BatchState): void {
  const { host, registration, acks, message, items, outcomes, reasons, details, deliveryCount } = state;
  if (
    state.handedBack.length === 0 &&
    (outcomes.every((d) => d === 'ack') || outcomes.every((d) => d === 'requeue'))
  ) {
    settle(acks, message, outcomes[0]);
    host.turnEnded();
    return;
  }
  const { kind } = registration;
  const published = [...state.handedBack];
  outcomes.forEach((disposition, i) => {
    if (disposition === 'ack') return;
    if (disposition === 'requeue') {
      published.push(republishItem(state, i, 'queue', { [PRIOR_DELIVERIES_HEADER]: deliveryCount }));
      return;
    }
    const item = items[i];
    if (item.ok) {
      host.log.warn(
        { kind, id: item.envelope.id, type: item.envelope.type, deliveryCount, reason: reasons[i] },
        'command dead-lettered',
      );
    }
    const headers: Record<string, unknown> = {
      [DEAD_LETTER_REASON_HEADER]: reasons[i] ?? 'rejected',
      [PRIOR_DELIVERIES_HEADER]: deliveryCount,
    };
    const detail = details[i];
    if (detail !== undefined) headers[DEAD_LETTER_DETAIL_HEADER] = detailHeader(detail);
    published.push(republishItem(state, i, 'dead-letters', headers));
  });
  Promise.all(published).then(
    () => {
      settle(acks, message, 'ack');
      host.turnEnded();
    },
    (err: unknown) => {
      host.log.warn(
        { kind, err: messageOf(err), commands: items.length },
        'splitting a command batch failed; the whole batch goes back to its queue',
      );
      settle(acks, message, 'requeue');
      host.turnEnded();
    },
  );
}
