import type { Message } from 'amqplib';
import type { Envelope } from '../../../schemas/envelope';
import type { Logger } from '../../logging/logger';
import type { BroadcastFilter, EnvelopeListener } from '../transport';
import { decodeEnvelope, readReplyMessage } from './amqp-codec';
import { messageOf } from './amqp-connection';

/** Message headers of a keyed broadcast: its type and keys, readable without parsing the body. */
const BROADCAST_TYPE_HEADER = 'x-broadcast-type';
const BROADCAST_KEYS_HEADER = 'x-broadcast-keys';

export function broadcastHeaders(type: string, keys: readonly string[]): Record<string, unknown> {
  return { [BROADCAST_TYPE_HEADER]: type, [BROADCAST_KEYS_HEADER]: keys };
}

/**
 * What arrives on a node's own queues: replies (one envelope or a batch, see amqp-replies.ts) and
 * broadcasts. Both are consumed without acknowledgement, so nothing here may throw back into
 * amqplib: a malformed message is dropped with a warning, a listener that throws is logged and
 * the others still get the envelope.
 */
export class AmqpInbox {
  private readonly replyListeners: EnvelopeListener[] = [];
  private readonly broadcastListeners: EnvelopeListener[] = [];
  private wanted: BroadcastFilter | undefined;
  /** Keyed broadcasts dropped unread because nobody here wanted them (tests, diagnostics). */
  skippedBroadcasts = 0;

  constructor(private readonly log: Logger) {}

  /** Keyed broadcasts for which `wanted` is false are dropped before they are parsed. */
  filterBroadcasts(wanted: BroadcastFilter): void {
    this.wanted = wanted;
  }

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
    if (this.wanted && !this.wantedHere(message)) {
      this.skippedBroadcasts += 1;
      return;
    }
    const decoded = decodeEnvelope(message.content);
    if (!decoded.ok) {
      this.log.warn({ reason: decoded.reason, what: 'broadcast' }, 'malformed broadcast dropped');
      return;
    }
    this.deliver(decoded.envelope, this.broadcastListeners, 'broadcast');
  };

  /** A message without well-formed keys (a node of an earlier version, unkeyed) is always read. */
  private wantedHere(message: Message): boolean {
    const headers = message.properties.headers as Record<string, unknown> | undefined;
    const type = headers?.[BROADCAST_TYPE_HEADER];
    const keys = headers?.[BROADCAST_KEYS_HEADER];
    if (typeof type !== 'string' || !Array.isArray(keys)) return true;
    if (!keys.every((key) => typeof key === 'string')) return true;
    return this.wanted!(type, keys as string[]);
  }

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
