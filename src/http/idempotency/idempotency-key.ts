import { createHash, type Hash } from 'node:crypto';
import type { Principal } from '../../../schemas/auth';
import { errors } from '../../../schemas/errors';

/** The request header carrying a key (both dialects of `POST /mcp` and the mutating `/api/*` routes). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Set (`true`) on an answer replayed from the first request with the same key. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

export const IDEMPOTENCY_KEY_MIN_LENGTH = 8;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** Letters, digits and `-_.:~+/=`: a UUID, a ULID, base64 or a `job-42:step-3` all fit. */
const KEY_PATTERN = /^[A-Za-z0-9\-_.:~+/=]+$/;

/**
 * The key of a request, checked: 8 to 255 of the characters above, optionally in double quotes (the
 * structured-field string of the IETF draft). A header sent twice arrives joined by `, ` and is
 * refused like any other malformed value. Throws 400 VALIDATION_ERROR.
 */
export function parseIdempotencyKey(raw: unknown, where = IDEMPOTENCY_KEY_HEADER): string {
  if (typeof raw !== 'string') throw invalidKey(where, 'it must be a string');
  const key = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
  if (key.length < IDEMPOTENCY_KEY_MIN_LENGTH || key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw invalidKey(
      where,
      `it must be ${IDEMPOTENCY_KEY_MIN_LENGTH} to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters long (a UUID is a good key)`,
    );
  }
  if (!KEY_PATTERN.test(key)) {
    throw invalidKey(where, 'use only letters, digits and - _ . : ~ + / = (one key per request)');
  }
  return key;
}

function invalidKey(where: string, why: string) {
  return errors.validation(`Invalid ${where}: ${why}`, {
    details: [{ path: where, message: why }],
  });
}

/**
 * Whose keys these are: the account or the agent calling, and the named token when it is one (a
 * token restricted by scopes must not read what the unrestricted owner ran). A session and the
 * account's own bearer token are the same caller. Tenants never share a scope, so their keys never
 * meet.
 */
export function idempotencyScope(principal: Principal | undefined): string {
  if (!principal) return 'anonymous';
  const subject =
    principal.subjectType === 'agent'
      ? `agent:${principal.agentId ?? '?'}:${principal.accountId ?? ''}`
      : `account:${principal.accountId ?? '?'}`;
  return principal.tokenId ? `${subject}:token:${principal.tokenId}` : subject;
}

/**
 * A digest of what a request asks for (its parts, e.g. method, path and JSON body), the same for
 * equal JSON values whatever the order of their object keys. Written without recursion, so a body
 * nested thousands of levels deep is hashed rather than overflowing the stack.
 */
export function requestFingerprint(parts: readonly unknown[]): string {
  const hash = createHash('sha256');
  hashCanonical(hash, parts);
  return hash.digest('base64url');
}

/** A marker on the work stack: close the array or object begun earlier. */
const CLOSE_ARRAY = Symbol('close-array');
const CLOSE_OBJECT = Symbol('close-object');

/** An object's key on the work stack, hashed before its value. */
class KeyToken {
  constructor(readonly key: string) {}
}

function hashCanonical(hash: Hash, root: unknown): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === CLOSE_ARRAY) hash.update(']');
    else if (value === CLOSE_OBJECT) hash.update('}');
    else if (value instanceof KeyToken) hash.update(`k${JSON.stringify(value.key)}:`);
    else if (Array.isArray(value)) {
      hash.update('[');
      stack.push(CLOSE_ARRAY);
      // Items are separated by the tag each one starts with; reversed so that the first pops first.
      for (let i = value.length - 1; i >= 0; i--) stack.push(value[i]);
    } else if (typeof value === 'object' && value !== null) {
      hash.update('{');
      stack.push(CLOSE_OBJECT);
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((k) => record[k] !== undefined)
        .sort();
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push(record[keys[i]]);
        stack.push(new KeyToken(keys[i]));
      }
    } else {
      // Scalars as JSON, tagged so that "1" and 1, or null and a missing part, differ.
      hash.update(value === undefined ? 'u;' : `${typeof value}${JSON.stringify(value)};`);
    }
  }
}
