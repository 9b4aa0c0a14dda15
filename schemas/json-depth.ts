/**
 * The nesting limit of every JSON value the service accepts from outside (request bodies, Studio
 * `--json` payloads, a model's tool arguments). Validators (zod) and the tools walk values
 * recursively: a value nested thousands of levels deep overflowed the stack (500). 64 levels,
 * counting the outermost object or array as one, is far beyond any real payload and keeps a value
 * stored as a document, with the document's own fields around it, within MongoDB's limit of 100
 * levels of nesting.
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/** Occurrences of `char` in `text`, counting no further than `stopAt`. */
function countUpTo(text: string, char: string, stopAt: number): number {
  let count = 0;
  for (let at = text.indexOf(char); at !== -1 && count < stopAt; at = text.indexOf(char, at + 1)) count += 1;
  return count;
}

/**
 * Whether the JSON text `text` nests objects and arrays deeper than `max` levels. A scan of the
 * text (no recursion, no parse): brackets inside strings do not count. Text that is not JSON gets
 * an answer too (its brackets are counted); `JSON.parse` refuses it anyway.
 *
 * Cheap on the hot path: valid JSON deeper than `max` needs more than `2 * max` characters (every
 * level opens and closes), and more than `max` opening brackets, which two native `indexOf` loops
 * count; only text past both bounds is scanned character by character.
 */
export function jsonTextTooDeep(text: string, max: number = MAX_JSON_DEPTH): boolean {
  if (text.length <= 2 * max) return false;
  const arrays = countUpTo(text, '[', max + 1);
  if (arrays + countUpTo(text, '{', max + 1 - arrays) <= max) return false;
  let depth = 0;
  const end = text.length;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // To the closing quote: one not preceded by an odd number of backslashes.
      let close = text.indexOf('"', i + 1);
      while (close !== -1) {
        let slashes = 0;
        while (text.charCodeAt(close - 1 - slashes) === BACKSLASH) slashes += 1;
        if (slashes % 2 === 0) break;
        close = text.indexOf('"', close + 1);
      }
      if (close === -1) return false;
      i = close;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth -= 1;
    }
  }
  return false;
}

/**
 * Whether a parsed value nests objects and arrays deeper than `max` levels (the outermost counts as
 * one). Walks the value with an explicit stack (no recursion) and stops at the first level too deep.
 */
export function jsonValueTooDeep(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const current = values.pop() as object;
    const depth = depths.pop() as number;
    if (depth > max) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
