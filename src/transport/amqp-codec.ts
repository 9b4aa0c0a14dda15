import type { Message } from 'amqplib';
import { EnvelopeSchema, type Envelope } from '../../schemas/envelope';
import { isEnvelope, readEnvelope } from './envelope-check';

export type Decoded = { ok: true; envelope: Envelope } | { ok: false; reason: string };

/** JSON on the wire: one stringify on the way out, one parse (plus the envelope check) on the way in. */
export function encodeEnvelope(envelope: Envelope): Buffer {
  return Buffer.from(JSON.stringify(envelope));
}

/** Parses and validates an incoming message; never throws. */
export function decodeEnvelope(content: Buffer): Decoded {
  const raw = parseJson(content);
  return raw === NOT_JSON ? { ok: false, reason: 'not JSON' } : checkEnvelope(raw);
}

/**
 * Parses a message of a reply queue: one envelope, or a JSON array of envelopes (replies to one
 * node coalesced by the sender, see amqp-replies.ts). Every element is validated on its own: a bad
 * one is reported and the others are kept. Never throws.
 */
export function decodeEnvelopes(content: Buffer): { envelopes: Envelope[]; rejected: string[] } {
  const envelopes: Envelope[] = [];
  const rejected: string[] = [];
  readReplyMessage(
    content,
    (e) => envelopes.push(e),
    (reason) => rejected.push(reason),
  );
  return { envelopes, rejected };
}

/**
 * `decodeEnvelopes` for the reply queue's hot path: hands each valid envelope of a message to
 * `onEnvelope`, in order, and each reason of rejection to `onRejected`, without building arrays
 * or copies. Envelopes are the parsed objects themselves (checked by `isEnvelope`): nobody else
 * holds them, and the requester reads only known fields of a reply. Never throws.
 */
export function readReplyMessage(
  content: Buffer,
  onEnvelope: (envelope: Envelope) => void,
  onRejected: (reason: string) => void,
): void {
  const raw = parseJson(content);
  if (raw === NOT_JSON) return onRejected('not JSON');
  if (!Array.isArray(raw)) return readInPlace(raw, onEnvelope, onRejected);
  if (raw.length === 0) return onRejected('empty batch');
  for (const item of raw as unknown[]) readInPlace(item, onEnvelope, onRejected);
}

function readInPlace(
  raw: unknown,
  onEnvelope: (envelope: Envelope) => void,
  onRejected: (reason: string) => void,
): void {
  if (isEnvelope(raw)) return onEnvelope(raw);
  const decoded = checkEnvelope(raw);
  if (decoded.ok) onEnvelope(decoded.envelope);
  else onRejected(decoded.reason);
}

const NOT_JSON = Symbol('not JSON');

function parseJson(content: Buffer): unknown {
  try {
    return JSON.parse(content.toString('utf8'));
  } catch {
    return NOT_JSON;
  }
}

function checkEnvelope(raw: unknown): Decoded {
  const envelope = readEnvelope(raw);
  if (envelope) return { ok: true, envelope };
  // A rejection is rare: the schema explains it.
  const parsed = EnvelopeSchema.safeParse(raw);
  if (parsed.success) return { ok: true, envelope: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, reason: `invalid envelope: ${issue?.path.join('.') || '(root)'}: ${issue?.message}` };
}

/**
 * 1 on first delivery. Quorum queues stamp `x-delivery-count` (returns so far) on redeliveries;
 * a classic queue only says `redelivered`, which we count as a second delivery.
 */
export function deliveryCountOf(message: Message): number {
  const header: unknown = message.properties.headers?.['x-delivery-count'];
  const returns = typeof header === 'number' || typeof header === 'bigint' ? Number(header) : undefined;
  if (returns !== undefined && Number.isFinite(returns)) return returns + 1;
  return message.fields.redelivered ? 2 : 1;
}
