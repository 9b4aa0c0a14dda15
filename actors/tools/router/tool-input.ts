import type { z } from 'zod';
import { validationError } from '../../../schemas/validation-error';

/**
 * Validates a tool's input. Invalid: VALIDATION_ERROR (400) `Invalid mem_set input: key: …` with
 * `details: [{path, message}]`, the same shape as the front door's request validation.
 */
export function parseToolInput<S extends z.ZodType>(tool: string, schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw validationError(`${tool} input`, parsed.error);
}
