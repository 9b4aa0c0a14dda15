import { ERROR_CODES, type ErrorCode } from '../../../schemas/errors';
import type { JsonSchema } from './json-schema';

/** The wire form of every error (`schemas/errors.ts`): `{ error, code, ...details }`. */
export const ERROR_BODY_SCHEMA: JsonSchema = {
  type: 'object',
  description:
    'Every error: a readable `error`, a stable `code` (switch on it), and details that depend on the code ' +
    '(`details` lists the problems of a VALIDATION_ERROR; `retryAfter` comes with RATE_LIMITED).',
  properties: {
    error: { type: 'string' },
    code: { type: 'string', enum: Object.keys(ERROR_CODES) },
    details: {
      type: 'array',
      items: {
        type: 'object',
        properties: { path: { type: 'string' }, message: { type: 'string' } },
        required: ['path', 'message'],
      },
    },
  },
  required: ['error', 'code'],
  additionalProperties: true,
};

/** A readable example for each status the document mentions. */
const EXAMPLES: Record<number, { code: ErrorCode; error: string; extra?: Record<string, unknown> }> = {
  400: {
    code: 'VALIDATION_ERROR',
    error: 'Invalid request body: name: expected string, received undefined',
    extra: { details: [{ path: 'name', message: 'expected string, received undefined' }] },
  },
  401: { code: 'UNAUTHORIZED', error: 'Authentication required' },
  403: { code: 'PERMISSION_DENIED', error: 'This token has no scope for this route' },
  404: { code: 'NOT_FOUND', error: 'Not found' },
  405: { code: 'METHOD_NOT_ALLOWED', error: 'Method not allowed' },
  409: { code: 'CONFLICT', error: 'The resource changed or already exists' },
  413: { code: 'PAYLOAD_TOO_LARGE', error: 'Request body too large' },
  415: { code: 'UNSUPPORTED_MEDIA_TYPE', error: 'Unsupported media type' },
  429: { code: 'RATE_LIMITED', error: 'Too many requests', extra: { retryAfter: 30 } },
  502: { code: 'SKILL_FAILED', error: 'The capability failed' },
  503: { code: 'UNAVAILABLE', error: 'A dependency is unavailable; retry later' },
  504: { code: 'DEADLINE_EXCEEDED', error: 'The work did not finish in time' },
};

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input (VALIDATION_ERROR, or a domain precondition such as SECRET_REQUIRED)',
  401: 'Missing or invalid credentials (UNAUTHORIZED)',
  403: 'Authenticated but not allowed (PERMISSION_DENIED: scope, role or plan)',
  404: 'Not found, or not visible to this caller (NOT_FOUND)',
  405: 'Method not allowed (METHOD_NOT_ALLOWED)',
  409: 'Conflict with the current state (CONFLICT, APP_NOT_READY, IDEMPOTENCY_KEY_*)',
  413: 'Body too large (PAYLOAD_TOO_LARGE)',
  415: 'Unsupported media type',
  429: 'Rate limited (RATE_LIMITED, with Retry-After)',
  502: 'A capability failed (SKILL_FAILED)',
  503: 'A dependency is unavailable (UNAVAILABLE, retryable)',
  504: 'Deadline exceeded (DEADLINE_EXCEEDED, retryable)',
};

/** `components.responses`: one reusable error answer per status, `Error<status>`. */
export function errorResponseComponents(): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const [status, example] of Object.entries(EXAMPLES)) {
    out[`Error${status}`] = {
      description: DESCRIPTIONS[Number(status)],
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/ErrorBody' },
          example: { error: example.error, code: example.code, ...example.extra },
        },
      },
    };
  }
  out.ErrorDefault = {
    description: 'Any other error, same shape (500 INTERNAL_ERROR…)',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
  };
  return out;
}

export function errorResponseRef(status: number): JsonSchema {
  if (!(status in EXAMPLES)) throw new Error(`No error response is described for status ${status}`);
  return { $ref: `#/components/responses/Error${status}` };
}
