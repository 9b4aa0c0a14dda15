import type { AppError } from '../../../schemas/errors';
import type { Logger } from '../../logging/logger';
import { messageOf } from './amqp-connection';
import type { AmqpLink } from './amqp-link';
import { ReplyBatcher } from './amqp-replies';
import { ReplyHold } from './amqp-reply-hold';

/** What the reply path needs from its transport. */
export interface ReplyHost {
  readonly log: Logger;
  /** The link replies may be published on now; undefined without one or while the broker blocks publishing. */
  replyLink(): AmqpLink | undefined;
  unavailable(): AppError;
  /** Writes what the channels hold at the end of this tick. */
  writeSoon(): void;
}

/**
 * The reply path of a node: replies to one node within one event-loop turn leave as one message
 * (amqp-replies.ts); a reply that finds no usable link, or whose batch fails to publish because the
 * link went between the reply and its flush, is kept (amqp-reply-hold.ts) and sent, oldest first,
 * once a link can carry it. The turn that made a reply is over by then, and nothing else would
 * ever answer its requester.
 */
export class AmqpReplySender {
  private readonly batcher: ReplyBatcher;
  private readonly held: ReplyHold;

  constructor(
    private readonly host: ReplyHost,
    holdBytes: number,
    holdMs: number,
  ) {
    this.batcher = new ReplyBatcher(
      (queue, content) => {
        const link = host.replyLink();
        if (!link) throw host.unavailable();
        link.node.publish('', queue, content);
      },
      (err, queue, jsons) => {
        host.log.warn({ err: messageOf(err), queue, count: jsons.length }, 'replies kept: publish failed');
        this.held.holdAll(queue, jsons);
      },
      undefined,
      () => host.writeSoon(),
    );
    this.held = new ReplyHold(holdBytes, holdMs, (dropped) =>
      host.log.warn({ dropped }, 'kept replies dropped: over the limit of memory'),
    );
  }

  /** Sends one encoded reply to `queue` (in this turn's batch), or keeps it until a link can carry it. */
  send(queue: string, json: string, deadline: number | undefined): void {
    if (!this.host.replyLink()) return this.held.hold(queue, json, deadline);
    if (this.held.size > 0) this.releaseHeld(); // the older ones first
    this.batcher.add(queue, json);
  }

  /** Hands the kept replies to the batcher, oldest first, once a link can carry them. */
  releaseHeld(): void {
    if (this.held.size === 0 || !this.host.replyLink()) return;
    const { sent, expired } = this.held.release((queue, json) => this.batcher.add(queue, json));
    this.host.log.info({ sent, expired }, 'kept replies released on the restored link');
  }

  /** Publishes every waiting batch now (with no link, each fails and is kept). */
  flush(): void {
    this.batcher.flush();
  }
}
