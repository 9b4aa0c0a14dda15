import type { z } from 'zod';
import { errors } from '../../../schemas/errors';

/** How many issues the readable message names (all of them are in `details`). */
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
 * Validates a tool's input. Invalid: VALIDATION_ERROR (400) `Invalid mem_set input: key: …` with
 * `details: [{path, message}]`, the same shape as the front door's request validation.
 */
export function parseToolInput<S extends z.ZodType>(tool: string, schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({
    path: formatPath(issue.path),
    message: issue.message.replace(/^Invalid input: /, ''),
  }));
  const named = issues.slice(0, SUMMARY_ISSUES).map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));
  const more = issues.length > SUMMARY_ISSUES ? ` (and ${issues.length - SUMMARY_ISSUES} more)` : '';
  throw errors.validation(`Invalid ${tool} input: ${named.join('; ')}${more}`, { details: issues });
}
