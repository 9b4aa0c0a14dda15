import type { Channel, ConsumeMessage } from 'amqplib';
import type { Disposition } from '../transport';
import type { WriteSignal } from './amqp-write-watch';

/**
 * How long settled acknowledgements may wait for another write to join (see `AckBatcher`). Longer
 * than a small sandbox run (5-10 ms), so that the ack of a deferred `proc_execute` call usually
 * leaves with its reply: at 5 ms most went out alone, about one socket write more per call for the
 * worker and one more segment for the broker to read (measured under `bench:mcp`'s scale-out load:
 * 1.45 → 1.30 socket writes per call for the workers).
 */
export const ACK_LINGER_MS = 20;

/**
 * Settles the deliveries of one consumer channel, coalescing acknowledgements: acks that complete
 * in the same run of the microtask queue (the turns ended by one batch of socket data, typically)
 * go out as one `basic.ack multiple` for the longest run of settled deliveries at the head, and
 * individually beyond a gap (a turn still running). On a quorum queue each ack frame is a Raft
 * command in the broker, so this cuts the broker's work under load without ever acknowledging a
 * delivery whose turn has not ended. Nacks go out at once.
 *
 * The flush is a `process.nextTick`, not a `setImmediate`: it then runs before amqplib's writer
 * (itself a `setImmediate`) drains the channels, so the acks share the socket write of the replies
 * sent by the same turns instead of costing a write of their own on the next loop iteration.
 *
 * When nothing else is written in that turn (a turn that deferred its work: its reply comes later),
 * the acks linger: they go out with the connection's next write (`WriteWatch`), at the latest after
 * `lingerMs`, or at once when `lingerMax` of them wait (they hold prefetch slots meanwhile). Still
 * never before the turn has ended; a crash while they linger makes the broker redeliver messages
 * whose turns had ended, which at-least-once delivery allows.
 */
export class AckBatcher {
  /** Unsettled deliveries in delivery order (delivery tags increase on a channel). */
  private readonly outstanding: ConsumeMessage[] = [];
  private readonly done = new Set<ConsumeMessage>();
  private scheduled = false;
  private lingering: NodeJS.Timeout | undefined;
  private readonly afterTurns = () => this.settleOrLinger();
  private readonly flushLingering = () => {
    if (this.lingering) this.flush();
  };

  /**
   * @param watch the connection's write watch; without one, acks go out at the end of the turn
   * @param lingerMax acks that may linger at once (a share of the channel's prefetch)
   */
  constructor(
    private readonly channel: Channel,
    private readonly isClosed: () => boolean,
    private readonly watch?: WriteSignal,
    private readonly lingerMax = 16,
    private readonly lingerMs = ACK_LINGER_MS,
  ) {}

  delivered(message: ConsumeMessage): void {
    this.outstanding.push(message);
  }

  ack(message: ConsumeMessage): void {
    this.done.add(message);
    if (!this.scheduled) {
      this.scheduled = true;
      process.nextTick(this.afterTurns);
    }
  }

  nack(message: ConsumeMessage, requeue: boolean): void {
    this.forget(message);
    if (!this.isClosed()) this.channel.nack(message, false, requeue);
  }

  /** Sends the settled acks now (also before the consumer's transport closes). */
  flush(): void {
    this.scheduled = false;
    if (this.lingering) {
      clearTimeout(this.lingering);
      this.lingering = undefined;
    }
    // A closed channel cannot settle anything: the broker has already put the messages back.
    if (this.isClosed()) return;
    try {
      this.settleDone();
    } catch (_) {
      // Closed during the flush: same as above.
    }
  }

  private settleOrLinger(): void {
    this.scheduled = false;
    if (this.done.size === 0) return;
    if (!this.watch || this.watch.scheduled || this.done.size >= this.lingerMax) return this.flush();
    if (this.lingering) return; // already waiting for a write
    this.lingering = setTimeout(this.flushLingering, this.lingerMs);
    this.lingering.unref();
    this.watch.onNextWrite(this.flushLingering);
  }

  private settleDone(): void {
    let head = 0;
    while (head < this.outstanding.length && this.done.has(this.outstanding[head])) head++;
    if (head > 0) {
      const settled = this.outstanding.splice(0, head);
      for (const m of settled) this.done.delete(m);
      this.channel.ack(settled[settled.length - 1], head > 1);
    }
    for (const m of this.done) {
      this.forget(m);
      this.channel.ack(m, false);
    }
    this.done.clear();
  }

  private forget(message: ConsumeMessage): void {
    const i = this.outstanding.indexOf(message);
    if (i !== -1) this.outstanding.splice(i, 1);
  }
}

/** Settles a delivered message as its turn (or batch of turns) answered. */
export function settle(acks: AckBatcher, message: ConsumeMessage, disposition: Disposition): void {
  try {
    if (disposition === 'ack') acks.ack(message);
    else acks.nack(message, disposition === 'requeue');
  } catch (_) {
    // The channel closed meanwhile: the broker has already put the message back.
  }
}
