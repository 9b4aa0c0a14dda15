import type { Envelope, ReplyBody } from '../../schemas/envelope';
import { errors, type ErrorBody } from '../../schemas/errors';
import { readEnvelope } from '../transport/envelope-check';

/** Type of reply and stream-item envelopes sent to a requester's reply queue. */
export const REPLY_TYPE = 'kernel.reply';
/** Broadcast type that cancels the work of a request (`correlationId` = the request's id). */
export const CANCEL_TYPE = 'kernel.cancel';
/** `to` of broadcast envelopes (they are addressed to every node, not to an actor). */
export const BROADCAST_ADDRESS = '*';

// The patterns of ActorAddressSchema and EnvelopeSchema.shape.type, tested once per request as
// plain regular expressions (a zod parse each cost more than the rest of building the envelope).
const ADDRESS_PATTERN = /^[a-z][a-z0-9-]*:[^\s]{1,200}$/;
const TYPE_PATTERN = /^[a-z][a-zA-Z0-9_-]*(\.[a-zA-Z0-9_-]+)+$/;

/** Checks what a caller gives before anything is sent; throws VALIDATION_ERROR. */
export function assertAddress(to: string): void {
  if (typeof to !== 'string' || !ADDRESS_PATTERN.test(to)) {
    throw errors.validation(`Invalid actor address "${String(to).slice(0, 100)}": expected "kind:id"`);
  }
}

export function assertType(type: string): void {
  if (typeof type !== 'string' || !TYPE_PATTERN.test(type)) {
    throw errors.validation(
      `Invalid message type "${String(type).slice(0, 100)}": expected "<domain>.<verb>"`,
    );
  }
}

/**
 * Validates an envelope received from the transport (the boundary): `readEnvelope`, the
 * hand-written equivalent of EnvelopeSchema (tested against it), because it runs on every message.
 */
export function parseEnvelope(value: unknown): Envelope | undefined {
  return readEnvelope(value);
}

/**
 * Reads the body of a reply envelope. Equivalent to ReplyBodySchema, except that a missing
 * `value` reads as `undefined`: JSON drops undefined properties, so a handler that returns
 * nothing arrives over AMQP as `{ kind: 'reply' }`. Hand-written because it runs once per reply
 * on the caller's hot path and must not copy the value.
 */
export function readReplyBody(body: unknown): ReplyBody | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  switch (b.kind) {
    case 'reply':
      return body as ReplyBody;
    case 'next':
      return isSeq(b.seq) ? (body as ReplyBody) : undefined;
    case 'complete':
      return isSeq(b.seq) ? (body as ReplyBody) : undefined;
    case 'error': {
      const e = b.error as Record<string, unknown> | null | undefined;
      return typeof e === 'object' && e !== null && typeof e.error === 'string' && typeof e.code === 'string'
        ? (body as ReplyBody)
        : undefined;
    }
    default:
      return undefined;
  }
}

function isSeq(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** The reply body of an error. */
export function errorReply(error: ErrorBody): ReplyBody {
  return { kind: 'error', error };
}
