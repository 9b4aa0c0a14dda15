import type { Message } from 'amqplib';
import { EnvelopeSchema, type Envelope } from '../../../schemas/envelope';
import { isEnvelope, readEnvelope } from '../envelope-check';

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

/** One element of a command batch: a valid envelope, or what is wrong with it (kept raw, for the DLQ). */
export type BatchItem = { ok: true; envelope: Envelope } | { ok: false; reason: string; raw: unknown };

/** A command message: one envelope, or a batch of them (amqp-command-batches.ts). */
export type CommandMessage = { batch: false; decoded: Decoded } | { batch: true; items: BatchItem[] };

/**
 * The body of a message carrying serialised envelopes (commands or replies): a lone one as it is,
 * several as a JSON array (what `decodeCommandMessage` and `readReplyMessage` read as a batch).
 */
export function encodeBatch(jsons: readonly string[]): string {
  return jsons.length === 1 ? jsons[0] : `[${jsons.join(',')}]`;
}

/**
 * Parses a message of a command queue. A JSON array is a batch: each element is validated on its
 * own, so one bad element does not take the others down. Never throws.
 */
export function decodeCommandMessage(content: Buffer): CommandMessage {
  const raw = parseJson(content);
  if (raw === NOT_JSON) return { batch: false, decoded: { ok: false, reason: 'not JSON' } };
  if (!Array.isArray(raw)) return { batch: false, decoded: checkEnvelope(raw) };
  if (raw.length === 0) return { batch: false, decoded: { ok: false, reason: 'empty batch' } };
  const items = (raw as unknown[]).map((item): BatchItem => {
    const decoded = checkEnvelope(item);
    return decoded.ok ? decoded : { ok: false, reason: decoded.reason, raw: item };
  });
  return { batch: true, items };
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
 * Header of a command split out of a batch and published again (amqp-consumer-batch.ts): the deliveries
 * it already had as part of the batch, so its count goes on instead of starting over.
 */
export const PRIOR_DELIVERIES_HEADER = 'x-ars-prior-deliveries';

/**
 * Header of a command handed back by a node that had no turn slot for it (amqp-consumer-batch.ts).
 * Its batch is still unacknowledged there: if that node dies, the batch comes back with this
 * command in it. The command is therefore delivered as `redelivered`, which makes the kernel claim
 * its id in the shared dedupe store (Redis): the copy that comes back in the batch is recognised.
 */
export const HANDED_BACK_HEADER = 'x-ars-handed-back';

/** True when the message is a command handed back out of a batch (`HANDED_BACK_HEADER`). */
export function wasHandedBack(message: Message): boolean {
  return message.properties.headers?.[HANDED_BACK_HEADER] !== undefined;
}

/**
 * 1 on first delivery. Quorum queues stamp `x-delivery-count` (returns so far) on redeliveries;
 * a classic queue only says `redelivered`, which we count as a second delivery. A command split
 * out of a batch adds the deliveries it had before (`PRIOR_DELIVERIES_HEADER`).
 */
export function deliveryCountOf(message: Message): number {
  const headers = message.properties.headers;
  const prior = countHeader(headers?.[PRIOR_DELIVERIES_HEADER]) ?? 0;
  const returns = countHeader(headers?.['x-delivery-count']);
  if (returns !== undefined) return prior + returns + 1;
  return prior + (message.fields.redelivered ? 2 : 1);
}

function countHeader(value: unknown): number | undefined {
  const n = typeof value === 'number' || typeof value === 'bigint' ? Number(value) : undefined;
  return n !== undefined && Number.isFinite(n) && n >= 0 ? n : undefined;
}
