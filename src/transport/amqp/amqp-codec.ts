import type { Message } from 'amqplib';
import { isUtf8 } from 'node:buffer';
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
  return raw instanceof Unreadable ? { ok: false, reason: raw.reason } : checkEnvelope(raw);
}

/**
 * One element of a command batch: a valid envelope, or what is wrong with it. Neither is ever
 * serialised again: a command republished alone is its own bytes cut out of the message
 * (amqp-batch-slices.ts), so poison of any depth or size never runs through `JSON.stringify`.
 */
export type BatchItem = { ok: true; envelope: Envelope } | { ok: false; reason: string };

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
 * own, so one bad element does not take the others down; an array with no valid envelope at all is
 * one malformed message (it is dead-lettered whole, as it came). A message longer than `maxBytes`
 * is refused unread, and one that is not UTF-8 is never parsed (a lenient decoding would turn its
 * bad bytes into U+FFFD and maybe into a valid envelope of other content). Never throws.
 */
export function decodeCommandMessage(content: Buffer, maxBytes = Infinity): CommandMessage {
  if (content.length > maxBytes) {
    return {
      batch: false,
      decoded: { ok: false, reason: `too large: ${content.length} bytes (limit ${maxBytes})` },
    };
  }
  const raw = parseJson(content);
  if (raw instanceof Unreadable) return { batch: false, decoded: { ok: false, reason: raw.reason } };
  if (!Array.isArray(raw)) return { batch: false, decoded: checkEnvelope(raw) };
  if (raw.length === 0) return { batch: false, decoded: { ok: false, reason: 'empty batch' } };
  let valid = 0;
  const items = (raw as unknown[]).map((item): BatchItem => {
    const decoded = checkEnvelope(item);
    if (decoded.ok) valid++;
    return decoded;
  });
  if (valid === 0) {
    const first = items[0] as { reason: string };
    const reason = `an array with no valid envelope (${items.length} element${items.length > 1 ? 's' : ''}; the first: ${first.reason})`;
    return { batch: false, decoded: { ok: false, reason } };
  }
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
  if (raw instanceof Unreadable) return onRejected(raw.reason);
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

/** Why a message could not be read as JSON (never a value JSON.parse returns). */
class Unreadable {
  constructor(readonly reason: string) {}
}
const NOT_UTF8 = new Unreadable('invalid UTF-8');
const NOT_JSON = new Unreadable('not JSON');

/** JSON.parse is iterative in V8: any depth parses without growing the stack. */
function parseJson(content: Buffer): unknown {
  if (!isUtf8(content)) return NOT_UTF8;
  try {
    return JSON.parse(content.toString('utf8'));
  } catch {
    return NOT_JSON;
  }
}

function checkEnvelope(raw: unknown): Decoded {
  const envelope = readEnvelope(raw);
  if (envelope) return { ok: true, envelope };
  // Not an object: said here, without handing an arbitrarily deep array to the schema.
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, reason: `invalid envelope: (root): expected an object, got ${describe(raw)}` };
  }
  // A rejection is rare: the schema explains it.
  const parsed = EnvelopeSchema.safeParse(raw);
  if (parsed.success) return { ok: true, envelope: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, reason: `invalid envelope: ${issue?.path.join('.') || '(root)'}: ${issue?.message}` };
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/**
 * Header of a dead letter published by the transport itself (a command split out of a batch, or
 * poison dead-lettered at first sight): why, in one word: `rejected` (its handler said so),
 * `delivery-limit` or `malformed` (not a valid envelope). The broker's `x-death` is absent.
 */
export const DEAD_LETTER_REASON_HEADER = 'x-ars-dead-letter-reason';

/** Header beside DEAD_LETTER_REASON_HEADER: what exactly was wrong, in words (when known). */
export const DEAD_LETTER_DETAIL_HEADER = 'x-ars-dead-letter-detail';

export type DeadLetterReason = 'rejected' | 'delivery-limit' | 'malformed';

/** A detail short enough for a header (it may quote an untrusted message's content). */
export function detailHeader(detail: string): string {
  return detail.length <= 500 ? detail : `${detail.slice(0, 497)}...`;
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
