/**
 * How X counts the length of a post (its "weighted length", as its open counting rules describe):
 * the text is NFC-normalised; every URL counts as 23 characters whatever its length (X wraps it in
 * a t.co link); an emoji (a whole sequence: skin tones, ZWJ families, flags) counts 2; any other
 * code point counts 1 in the Latin, punctuation and general ranges below and 2 elsewhere (CJK,
 * for instance). A post may weigh at most 280.
 */

export const X_MAX_WEIGHTED_LENGTH = 280;
export const X_URL_LENGTH = 23;

/** Code point ranges that weigh 1 (the rest weigh 2). */
const LIGHT_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x0000, 0x10ff],
  [0x2000, 0x200d],
  [0x2010, 0x201f],
  [0x2032, 0x2037],
];

/**
 * URLs as X recognises them in text: with a scheme, or a bare domain with a known-looking TLD
 * (`example.com/path`). Trailing punctuation is not part of the link.
 */
const URL_PATTERN =
  /\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]}]|\b(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:com|org|net|io|dev|co|ai|app|info|biz|edu|gov|me|ly|xyz|us|uk|de|fr)\b(?:\/[^\s<>"']*[^\s<>"'.,;:!?)\]}])?/gi;

const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

function codePointWeight(cp: number): number {
  return LIGHT_RANGES.some(([lo, hi]) => cp >= lo && cp <= hi) ? 1 : 2;
}

/** The URLs of a text, in order, as written. */
export function extractUrls(text: string): string[] {
  return [...text.normalize('NFC').matchAll(URL_PATTERN)].map((m) => m[0]);
}

/** The weighted length of a text as X counts it. */
export function weightedLength(text: string): number {
  const normalized = text.normalize('NFC');
  let total = 0;
  let last = 0;
  for (const match of normalized.matchAll(URL_PATTERN)) {
    total += weightOfPlain(normalized.slice(last, match.index)) + X_URL_LENGTH;
    last = match.index + match[0].length;
  }
  return total + weightOfPlain(normalized.slice(last));
}

function weightOfPlain(text: string): number {
  let total = 0;
  for (const { segment } of segmenter.segment(text)) {
    if (EMOJI.test(segment)) {
      total += 2;
      continue;
    }
    for (const ch of segment) total += codePointWeight(ch.codePointAt(0)!);
  }
  return total;
}
