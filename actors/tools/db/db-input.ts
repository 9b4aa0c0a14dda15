import type { z } from 'zod';
import { errors } from '../../../schemas/errors';

type Issue = { path: string; message: string };

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path)
    out += typeof key === 'number' ? `[${key}]` : out === '' ? String(key) : `.${String(key)}`;
  return out;
}

/** Flattens zod issues; of a failed union, keeps the branch that got furthest (the one meant). */
function collectIssues(list: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[] = []): Issue[] {
  const out: Issue[] = [];
  for (const issue of list) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const depth = (branch: readonly z.core.$ZodIssue[]) => Math.max(...branch.map((i) => i.path.length));
      const best = issue.errors.reduce((a, b) => (depth(b) > depth(a) ? b : a));
      out.push(...collectIssues(best, path));
    } else {
      out.push({ path: formatPath(path), message: issue.message.replace(/^Invalid input: /, '') });
    }
  }
  return out;
}

/**
 * Validates a db tool's input against its schema: VALIDATION_ERROR naming the first few issues,
 * with every issue (path and message) in `details.issues`.
 */
export function parseDbInput<S extends z.ZodType>(schema: S, input: unknown, tool: string): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = collectIssues(parsed.error.issues);
  const summary = issues
    .slice(0, 5)
    .map((i) => (i.path ? `${i.path}: ${i.message}` : i.message))
    .join('; ');
  throw errors.validation(`Invalid ${tool} input: ${summary}`, { issues });
}
