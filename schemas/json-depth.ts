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
 * False when the JSON text `text` surely nests no deeper than `max` levels; true when it may. Cheap
 * enough for every request: valid JSON deeper than `max` needs more than `2 * max` characters (each
 * level opens and closes) and more than `max` opening brackets, which two native `indexOf` loops
 * count (stopping past `max`). A typical body of a few hundred bytes is settled here.
 */
export function jsonTextMayBeTooDeep(text: string, max: number = MAX_JSON_DEPTH): boolean {
  if (text.length <= 2 * max) return false;
  const arrays = countUpTo(text, '[', max + 1);
  return arrays + countUpTo(text, '{', max + 1 - arrays) > max;
}

/**
 * Whether the JSON text `text` nests objects and arrays deeper than `max` levels, before any parse
 * (a hostile text is refused without being built). A scan of the text without recursion; brackets
 * inside strings do not count. Text that is not JSON gets an answer too (its brackets are
 * counted); `JSON.parse` refuses it anyway. About half the cost of `JSON.parse` on a text full of
 * small objects: `jsonValueTooDeep` on the parsed value is cheaper where the value is at hand.
 */
export function jsonTextTooDeep(text: string, max: number = MAX_JSON_DEPTH): boolean {
  if (!jsonTextMayBeTooDeep(text, max)) return false;
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

/** Whether `value` (at the level `room` counts down from) reaches past the limit. */
function exceeds(value: object, room: number): boolean {
  if (room === 0) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const child: unknown = value[i];
      if (typeof child === 'object' && child !== null && exceeds(child, room - 1)) return true;
    }
    return false;
  }
  // `for…in` over a parsed object: its own keys (an own "__proto__" key included), no allocation.
  for (const key in value) {
    const child: unknown = (value as Record<string, unknown>)[key];
    if (typeof child === 'object' && child !== null && exceeds(child, room - 1)) return true;
  }
  return false;
}

/**
 * Whether a parsed value nests objects and arrays deeper than `max` levels (the outermost counts as
 * one). The walk descends at most `max + 1` levels whatever the value (it stops there): its
 * recursion cannot overflow the stack, and it costs a fraction of the parse that built the value
 * (a tenth on a 64 KB body of small objects).
 */
export function jsonValueTooDeep(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  return typeof value === 'object' && value !== null && exceeds(value, max);
}
