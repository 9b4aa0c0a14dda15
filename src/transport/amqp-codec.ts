import type { Message } from 'amqplib';
import { EnvelopeSchema, type Envelope } from '../../schemas/envelope';
import { readEnvelope } from './envelope-check';

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
  const raw = parseJson(content);
  if (raw === NOT_JSON) return { envelopes: [], rejected: ['not JSON'] };
  const items = Array.isArray(raw) ? (raw as unknown[]) : [raw];
  const envelopes: Envelope[] = [];
  const rejected: string[] = [];
  for (const item of items) {
    const decoded = checkEnvelope(item);
    if (decoded.ok) envelopes.push(decoded.envelope);
    else rejected.push(decoded.reason);
  }
  if (items.length === 0) rejected.push('empty batch');
  return { envelopes, rejected };
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
