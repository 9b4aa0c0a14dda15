import type { Message } from 'amqplib';
import type { Envelope } from '../../../schemas/envelope';
import type { Logger } from '../../logging/logger';
import type { EnvelopeListener } from '../transport';
import { decodeEnvelope, readReplyMessage } from './amqp-codec';
import { messageOf } from './amqp-connection';

/**
 * What arrives on a node's own queues: replies (one envelope or a batch, see amqp-replies.ts) and
 * broadcasts. Both are consumed without acknowledgement, so nothing here may throw back into
 * amqplib: a malformed message is dropped with a warning, a listener that throws is logged and
 * the others still get the envelope.
 */
export class AmqpInbox {
  private readonly replyListeners: EnvelopeListener[] = [];
  private readonly broadcastListeners: EnvelopeListener[] = [];

  constructor(private readonly log: Logger) {}

  onReply(listener: EnvelopeListener): void {
    this.replyListeners.push(listener);
  }

  onBroadcast(listener: EnvelopeListener): void {
    this.broadcastListeners.push(listener);
  }

  /** A message of the node's reply queue, its envelopes in send order. */
  readonly replies = (message: Message | null): void => {
    if (message) readReplyMessage(message.content, this.deliverReply, this.rejectReply);
  };

  /** A message of the node's broadcast queue. */
  readonly broadcast = (message: Message | null): void => {
    if (!message) return;
    const decoded = decodeEnvelope(message.content);
    if (!decoded.ok) {
      this.log.warn({ reason: decoded.reason, what: 'broadcast' }, 'malformed broadcast dropped');
      return;
    }
    this.deliver(decoded.envelope, this.broadcastListeners, 'broadcast');
  };

  private readonly deliverReply = (envelope: Envelope): void =>
    this.deliver(envelope, this.replyListeners, 'reply');

  private readonly rejectReply = (reason: string): void =>
    this.log.warn({ reason, what: 'reply' }, 'malformed reply dropped');

  private deliver(envelope: Envelope, listeners: EnvelopeListener[], what: string): void {
    for (const listener of listeners) {
      try {
        listener(envelope);
      } catch (err) {
        this.log.error({ err: messageOf(err), what }, `${what} listener threw`);
      }
    }
  }
}
