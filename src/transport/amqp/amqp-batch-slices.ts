/**
 * The bytes of each element of a command batch (a JSON array), cut out of the message as it came.
 *
 * Why: a command that leaves its batch (handed back, requeued alone, dead-lettered) is published
 * again on its own. Serialising the parsed element again would run `JSON.stringify`, recursive in
 * V8, over whatever the message held: 5,000 nested arrays in 10 KB overflow the stack, and did, on
 * the consumer's stack, taking its channel down at every delivery. Cutting the bytes out is one
 * iterative pass over the message, whatever its depth, and the element leaves exactly as it came.
 *
 * The content must be a JSON array that `JSON.parse` accepted (a batch, once decoded): only its
 * structure is tracked here (strings and their escapes, brackets, commas at the top level).
 * Structural characters are ASCII and never occur inside a multi-byte UTF-8 sequence, so the scan
 * reads bytes.
 */
export function batchSlices(content: Buffer): Buffer[] {
  const slices: Buffer[] = [];
  let depth = 0;
  let inString = false;
  let start = -1;
  for (let i = 0; i < content.length; i++) {
    const c = content[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      depth++;
      if (depth === 1) {
        start = i + 1;
        continue;
      }
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
      if (depth === 0) {
        push(slices, content, start, i);
        break;
      }
    } else if (c === COMMA && depth === 1) {
      push(slices, content, start, i);
      start = i + 1;
    }
  }
  return slices;
}

/** The element between `start` and `end`, without the whitespace around it. */
function push(slices: Buffer[], content: Buffer, start: number, end: number): void {
  while (start < end && isSpace(content[start])) start++;
  while (end > start && isSpace(content[end - 1])) end--;
  if (end > start) slices.push(content.subarray(start, end));
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}
