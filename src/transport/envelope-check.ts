import type { Envelope } from '../../schemas/envelope';

type EnvelopeAuth = NonNullable<Envelope['auth']>;

/** `type` of an envelope, as in EnvelopeSchema: `<domain>.<verb>`. */
const TYPE_PATTERN = /^[a-z][a-zA-Z0-9_-]*(\.[a-zA-Z0-9_-]+)+$/;

/**
 * Validates an envelope received at a boundary (the AMQP decoder, the kernel's hosts and broadcast
 * listener). Equivalent to `EnvelopeSchema.safeParse` for anything JSON or object literals produce
 * (tested against it): the same fields and limits are checked and the result is a new object with
 * only the schema's fields (`auth` and `body` are the values given, not copies).
 *
 * Hand-written because it runs once or twice per message on every node's hot path, where the zod
 * schema cost a few µs per envelope; zod still explains a rejection (see `decodeEnvelope`).
 */
export function readEnvelope(value: unknown): Envelope | undefined {
  if (!isEnvelope(value)) return undefined;
  const { id, type, to, from, correlationId, replyTo, deadline, attempt, auth, traceparent, body } = value;
  const envelope: Envelope = {
    v: 1,
    id,
    type,
    to,
    from,
    correlationId,
    replyTo,
    deadline,
    attempt,
    auth,
    body,
  };
  // Only when present: envelopes without tracing keep the shape (and size) they always had.
  if (traceparent !== undefined) envelope.traceparent = traceparent;
  return envelope;
}

/**
 * The checks of `readEnvelope` without the copy: true when `value` is a valid envelope, which may
 * then carry fields the schema does not know. For values nobody else holds and whose reader only
 * looks at known fields (a reply just parsed from the wire), it spares an object per message.
 */
export function isEnvelope(value: unknown): value is Envelope {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const e = value as Record<string, unknown>;
  const { id, type, to, from, correlationId, replyTo, deadline, attempt, auth, traceparent } = e;
  return !(
    e.v !== 1 ||
    typeof id !== 'string' ||
    id.length < 1 ||
    id.length > 200 ||
    typeof type !== 'string' ||
    !TYPE_PATTERN.test(type) ||
    typeof to !== 'string' ||
    to.length < 1 ||
    to.length > 256 ||
    !isOptionalString(from, 256) ||
    !isOptionalString(correlationId, 200) ||
    !isOptionalString(replyTo, 200) ||
    !isOptionalString(traceparent, 128) ||
    !Number.isSafeInteger(deadline) ||
    (deadline as number) < 0 ||
    !Number.isSafeInteger(attempt) ||
    (attempt as number) < 1 ||
    (auth !== undefined && !isAuth(auth)) ||
    // z.unknown() accepts undefined but, in an object, not a missing key.
    !('body' in e)
  );
}

function isOptionalString(value: unknown, max: number): value is string | undefined {
  return value === undefined || (typeof value === 'string' && value.length <= max);
}

function isAuth(value: unknown): value is EnvelopeAuth {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const a = value as Record<string, unknown>;
  if (a.accountId !== undefined && typeof a.accountId !== 'string') return false;
  if (a.agentId !== undefined && typeof a.agentId !== 'string') return false;
  const scopes = a.scopes;
  if (scopes === undefined) return true;
  if (!Array.isArray(scopes)) return false;
  for (const scope of scopes) if (typeof scope !== 'string') return false;
  return true;
}
