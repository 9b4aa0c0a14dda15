import type { Request } from 'express';
import type { z } from 'zod';
import { errors, type AppError } from '../../schemas/errors';

/** One problem of a rejected input, as sent in `details`. */
export interface ValidationIssue {
  /** Where the problem is: `items[0].name`; empty for the input as a whole. */
  path: string;
  message: string;
}

/** How many issues the readable summary names before it says "and N more" (all are in `details`). */
const SUMMARY_ISSUES = 5;

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/**
 * The 400 for a zod failure: `{ error: 'Invalid request body: enabled: expected boolean ...',
 * code: 'VALIDATION_ERROR', details: [{ path, message }] }`.
 */
export function validationError(where: string, zodError: z.ZodError): AppError {
  const issues: ValidationIssue[] = zodError.issues.map((issue) => ({
    path: formatPath(issue.path),
    // zod prefixes type errors with "Invalid input: ", which only repeats the summary's first words.
    message: issue.message.replace(/^Invalid input: /, ''),
  }));
  const named = issues.slice(0, SUMMARY_ISSUES).map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));
  const more = issues.length > SUMMARY_ISSUES ? ` (and ${issues.length - SUMMARY_ISSUES} more)` : '';
  return errors.validation(`Invalid ${where}: ${named.join('; ')}${more}`, { details: issues });
}

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
