import type { ChannelModel } from 'amqplib';

/**
 * Tells when an AMQP connection is about to write to its socket. amqplib's multiplexer schedules
 * one writer run (a `setImmediate`) as soon as any channel has a frame to send; work that may wait
 * a little, like acknowledgements (amqp-acks.ts), can join that write instead of causing one of
 * its own. On loopback a socket write costs the sender the broker's side of the TCP stack too, and
 * wakes the broker: at low rates a write per frame group was a large share of a worker's CPU.
 *
 * This reaches into amqplib internals (pinned version), like the write coalescing in
 * amqp-connection.ts; if their shape changes, `WriteWatch.of` returns undefined and callers write
 * at once, as before.
 */
/** What waiting work needs to know about the connection's writes. */
export interface WriteSignal {
  /** True when a write is already scheduled in this event-loop turn: work added now joins it. */
  readonly scheduled: boolean;
  /** Runs `fn` (once) when the next write gets scheduled. */
  onNextWrite(fn: () => void): void;
}

export class WriteWatch implements WriteSignal {
  private waiting: Array<() => void> = [];
  private writeSoonQueued = false;

  private constructor(private readonly muxer: { scheduledRead?: boolean; _readIncoming?: () => void }) {}

  /** True when a write is already scheduled in this event-loop turn: work added now joins it. */
  get scheduled(): boolean {
    return this.muxer.scheduledRead === true;
  }

  /** Runs `fn` (once) when the next write gets scheduled. */
  onNextWrite(fn: () => void): void {
    this.waiting.push(fn);
  }

  /**
   * Writes what the channels hold at the end of the current tick instead of at the writer's
   * scheduled run. Frames published from a `setImmediate` callback (batched commands and replies)
   * would otherwise wait a whole turn of the event loop: the writer learns of them through a
   * stream event (a `process.nextTick`), and the `setImmediate` it then schedules runs only in the
   * next turn's check phase, after that turn's poll phase has handled its socket data. The tick
   * queued here runs after that stream event, so it finds them; it waits one tick more, so that
   * frames written by the work that event wakes (acknowledgements joining the write, see
   * `onNextWrite`) are in too. The scheduled run still happens and finds nothing left (or what
   * arrived since).
   */
  writeSoon(): void {
    if (this.writeSoonQueued) return;
    this.writeSoonQueued = true;
    process.nextTick(this.writeAfterTheirEvents);
  }

  private readonly writeAfterTheirEvents = () => process.nextTick(this.writeNow);

  private readonly writeNow = () => {
    this.writeSoonQueued = false;
    if (this.muxer.scheduledRead === true) this.muxer._readIncoming?.();
  };

  /** Installs the watch on a connection (once); undefined when amqplib's internals are not as expected. */
  static install(model: ChannelModel): WriteWatch | undefined {
    const existing = watches.get(model);
    if (existing) return existing;
    const internals = (model as unknown as { connection?: { muxer?: unknown } }).connection;
    const muxer = internals?.muxer as
      { scheduledRead?: boolean; _scheduleRead?: () => void; _readIncoming?: () => void } | undefined;
    const schedule = muxer?._scheduleRead;
    if (
      !muxer ||
      typeof schedule !== 'function' ||
      typeof muxer._readIncoming !== 'function' ||
      typeof muxer.scheduledRead !== 'boolean'
    )
      return undefined;
    const watch = new WriteWatch(muxer);
    muxer._scheduleRead = function watchedSchedule(this: unknown) {
      const first = muxer.scheduledRead !== true;
      schedule.call(this);
      if (first && watch.waiting.length > 0) {
        // Frames written now (acks) reach the writer scheduled just above.
        const waiting = watch.waiting;
        watch.waiting = [];
        for (const fn of waiting) fn();
      }
    };
    watches.set(model, watch);
    return watch;
  }

  /** The watch installed on a connection, if any. */
  static of(model: ChannelModel): WriteWatch | undefined {
    return watches.get(model);
  }
}

const watches = new WeakMap<ChannelModel, WriteWatch>();
