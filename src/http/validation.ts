import type { Request } from 'express';
import type { z } from 'zod';
import { errors } from '../../schemas/errors';
import { validationError } from '../../schemas/validation-error';

export { validationError, type ValidationIssue } from '../../schemas/validation-error';

/** True when the request carries a body, whatever its type. */
function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/**
 * Validates the JSON body of a request against a schema and returns the parsed value.
 * A body that is absent is validated as `{}` (so all-optional schemas accept an empty POST); a body
 * of another content type is refused with a message naming the expected type.
 * Throws AppError VALIDATION_ERROR (400).
 */
export function parseBody<S extends z.ZodType>(schema: S, req: Request): z.output<S> {
  let input: unknown = req.body;
  if (input === undefined) {
    // express.json leaves `body` undefined when it did not parse: either no body or not JSON.
    if (hasBody(req)) throw errors.validation('Request body must be JSON (Content-Type: application/json)');
    input = {};
  }
  const result = schema.safeParse(input);
  if (!result.success) throw validationError('request body', result.error);
  return result.data;
}

/**
 * Validates the query string (`?a=1&b=x`, values are strings or arrays of strings: use
 * `z.coerce` for numbers). Throws AppError VALIDATION_ERROR (400).
 */
export function parseQuery<S extends z.ZodType>(schema: S, req: Request): z.output<S> {
  const result = schema.safeParse({ ...req.query });
  if (!result.success) throw validationError('query', result.error);
  return result.data;
}

/** Validates path parameters (`/executions/:id`). Throws AppError VALIDATION_ERROR (400). */
export function parseParams<S extends z.ZodType>(schema: S, req: Request): z.output<S> {
  const result = schema.safeParse({ ...req.params });
  if (!result.success) throw validationError('path parameters', result.error);
  return result.data;
}
