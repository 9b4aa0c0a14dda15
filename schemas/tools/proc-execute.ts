import { MAX_JSON_DEPTH } from '../json-depth';
import { z } from 'zod';

/**
 * Input and output of the `proc_execute` tool. The tool router reuses `ProcExecuteInputSchema` as the
 * tool's input schema; the sandbox (`src/sandbox`) validates every call with it and answers with a
 * `ProcExecuteResult`. The outcomes and exit codes are described in docs/sandbox.md.
 */

/** Limits of the request itself (the run-time limits are options of the sandbox). */
export const PROC_EXECUTE_LIMITS = Object.freeze({
  /** Source size, in UTF-8 bytes. */
  maxCodeBytes: 100 * 1024,
  /** `timeout` when the caller gives none, in milliseconds. */
  defaultTimeoutMs: 10_000,
  maxTimeoutMs: 30_000,
  /** Size of `stdin`, in UTF-8 bytes. */
  maxStdinBytes: 1024 * 1024,
  maxArgs: 64,
  maxArgLength: 4096,
  /**
   * Deepest nesting of arrays and objects in a run's `result` (`[]` is 1, `[[]]` 2); deeper, the
   * call is refused with VALIDATION_ERROR. The service's one limit on JSON (schemas/json-depth.ts).
   */
  maxResultDepth: MAX_JSON_DEPTH,
});

/** Accepted `language` values (case-insensitive). `js` is an alias of `javascript`. */
export const PROC_EXECUTE_LANGUAGES = Object.freeze(['javascript', 'js'] as const);

export function isSupportedLanguage(language: string): boolean {
  return (PROC_EXECUTE_LANGUAGES as readonly string[]).includes(language);
}

const utf8Bytes = (s: string) => Buffer.byteLength(s, 'utf8');

export const ProcExecuteInputSchema = z.object({
  language: z
    .string()
    .trim()
    .toLowerCase()
    .min(1)
    .max(32)
    .refine(isSupportedLanguage, {
      message: `unsupported language; supported: ${PROC_EXECUTE_LANGUAGES.join(', ')}`,
    })
    .describe('Language of `code`: "javascript" (alias "js"). Runs in a QuickJS sandbox, not Node.js.'),
  code: z
    .string()
    .refine((s) => utf8Bytes(s) <= PROC_EXECUTE_LIMITS.maxCodeBytes, {
      message: `code must be at most ${PROC_EXECUTE_LIMITS.maxCodeBytes} bytes`,
    })
    .describe('Source to run as a classic script; the value of its last expression is returned as `result`.'),
  timeout: z
    .number()
    .int()
    .min(1)
    .max(PROC_EXECUTE_LIMITS.maxTimeoutMs)
    .optional()
    .describe(`Wall-clock limit in milliseconds (default ${PROC_EXECUTE_LIMITS.defaultTimeoutMs}).`),
  stdin: z
    .string()
    .refine((s) => utf8Bytes(s) <= PROC_EXECUTE_LIMITS.maxStdinBytes, {
      message: `stdin must be at most ${PROC_EXECUTE_LIMITS.maxStdinBytes} bytes`,
    })
    .optional()
    .describe('Text the script reads from the global `stdin` (default "").'),
  args: z
    .array(z.string().max(PROC_EXECUTE_LIMITS.maxArgLength))
    .max(PROC_EXECUTE_LIMITS.maxArgs)
    .optional()
    .describe('Strings the script reads from the global `args` (default []).'),
});

/** What a caller sends (before defaults and normalisation). */
export type ProcExecuteRequest = z.input<typeof ProcExecuteInputSchema>;
/** A validated request. */
export type ProcExecuteInput = z.output<typeof ProcExecuteInputSchema>;

/** How a run ended. See docs/sandbox.md for what each one means. */
export const SANDBOX_OUTCOMES = Object.freeze([
  'ok',
  'error',
  'syntax_error',
  'timeout',
  'out_of_memory',
  'cancelled',
] as const);

export type SandboxOutcome = (typeof SANDBOX_OUTCOMES)[number];

/** The exit code reported for each outcome (shell conventions: 124 = timeout(1), 128+n = signal n). */
export const OUTCOME_EXIT_CODES: Readonly<Record<SandboxOutcome, number>> = Object.freeze({
  ok: 0,
  error: 1,
  syntax_error: 2,
  timeout: 124,
  cancelled: 130,
  out_of_memory: 137,
});

export const ProcExecuteResultSchema = z.object({
  /** Text written with console.log/info/debug (capped). */
  stdout: z.string(),
  /** Text written with console.error/warn/trace, then the uncaught error or the reason of the stop (capped). */
  stderr: z.string(),
  exitCode: z.number().int(),
  /** Time the script ran in its worker (queueing excluded), in milliseconds. */
  durationMs: z.number().int().nonnegative(),
  /** True when stdout or stderr hit its cap, or `result` was too large and was left out. */
  truncated: z.boolean(),
  outcome: z.enum(SANDBOX_OUTCOMES),
  /** JSON value of the script's last expression (awaited when it is a promise); absent when none. */
  result: z.json().optional(),
});

export type ProcExecuteResult = z.infer<typeof ProcExecuteResultSchema>;
