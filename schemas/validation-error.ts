import type { z } from 'zod';
import { errors, type AppError } from './errors';

/**
 * The one mapping of a zod failure to VALIDATION_ERROR (400), shared by the front door's request
 * validation (src/http/validation.ts) and the tool router's input validation, so that both answer
 * the same shape.
 */

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
