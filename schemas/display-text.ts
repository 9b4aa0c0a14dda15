import { z } from 'zod';

/**
 * The one rule for text that people read back as a name or a path: agent names (signup,
 * `/register`, `POST /api/agents`), bearer-token names, workspace names, SDK-credential names,
 * connector names and file paths. Refused anywhere in the text:
 *
 * - C0 controls (NUL, ESC, newline, tab...), DEL and C1 controls (U+0080 to U+009F): they cut
 *   strings in C code, split log lines and drive terminals;
 * - the bidirectional controls (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069): an
 *   override such as U+202E shows `exe.txt` for `txt.exe` and makes one name pass for another;
 * - the line and paragraph separators U+2028 and U+2029 (line breaks by another name);
 * - lone surrogates (not Unicode text: they turn into U+FFFD on their way out).
 *
 * Joiners (U+200C, U+200D) stay allowed: emoji sequences and several scripts need them.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a text was refused: what was found, and where (0-based index in UTF-16 units). */
export interface UnsafeCharacter {
  kind: 'control' | 'bidi' | 'separator' | 'surrogate';
  /** `U+202E`. */
  codePoint: string;
  index: number;
  /** `must not contain control characters (U+001B at position 3)`. */
  message: string;
}

const codePointOf = (ch: string) => `U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

function kindOf(code: number): UnsafeCharacter['kind'] {
  if (code <= 0x9f) return 'control';
  if (code === 0x2028 || code === 0x2029) return 'separator';
  return 'bidi';
}

const DESCRIPTIONS: Record<UnsafeCharacter['kind'], string> = {
  control: 'control characters',
  bidi: 'bidirectional text controls',
  separator: 'line or paragraph separators',
  surrogate: 'lone surrogates (invalid Unicode)',
};

/** The first character of `text` that the rule refuses, or undefined when the text is clean. */
export function findUnsafeCharacter(text: string): UnsafeCharacter | undefined {
  const unsafe = UNSAFE.exec(text);
  const surrogate = LONE_SURROGATE.exec(text);
  const hit = unsafe && (!surrogate || unsafe.index < surrogate.index) ? unsafe : surrogate;
  if (!hit) return undefined;
  const kind = hit === unsafe ? kindOf(hit[0].charCodeAt(0)) : 'surrogate';
  const codePoint = codePointOf(hit[0]);
  return {
    kind,
    codePoint,
    index: hit.index,
    message: `must not contain ${DESCRIPTIONS[kind]} (${codePoint} at position ${hit.index})`,
  };
}

/**
 * The rule as a zod check, for any string schema: `z.string().check(refuseUnsafeCharacters)`.
 * Put it before `.trim()` so that a newline or a tab at either end is refused, not trimmed away.
 */
export function refuseUnsafeCharacters(ctx: z.core.ParsePayload<string>): void {
  const found = findUnsafeCharacter(ctx.value);
  if (found) ctx.issues.push({ code: 'custom', input: ctx.value, message: found.message });
}

/** A display name: no unsafe character (see above), trimmed, 1 to `max` characters. */
export function displayNameSchema(max: number) {
  return z
    .string({ error: 'must be a string' })
    .check(refuseUnsafeCharacters)
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`);
}
