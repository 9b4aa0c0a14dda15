/**
 * Text similarity of two posts: the Jaccard index of their sets of character trigrams ("shingles")
 * after normalisation (lower case, URLs replaced by one token, punctuation dropped, runs of
 * spaces collapsed). 1 means the same trigrams, 0 none in common. Trigrams catch a post reworded
 * a little (a word changed, an emoji added, the order of two clauses swapped) where exact matching
 * would not, and cost nothing to compute at the sizes of posts (at most a few hundred shingles).
 */

const SHINGLE = 3;

/** Lower case, URLs as one token, letters, digits and single spaces only. */
export function normalizeForSimilarity(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/https?:\/\/\S+/g, ' url ')
    .replace(/[^\p{L}\p{N}\s]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The character shingles of a normalised text (a text shorter than one shingle is its own). */
export function shingles(text: string): Set<string> {
  const s = normalizeForSimilarity(text);
  const chars = [...s];
  const out = new Set<string>();
  if (chars.length === 0) return out;
  if (chars.length < SHINGLE) {
    out.add(s);
    return out;
  }
  for (let i = 0; i + SHINGLE <= chars.length; i++) out.add(chars.slice(i, i + SHINGLE).join(''));
  return out;
}

/** Jaccard index of two shingle sets, 0..1 (two empty texts are not "similar": 0). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const x of small) if (large.has(x)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Similarity of two texts, 0..1, rounded to 3 decimals. */
export function similarity(a: string, b: string): number {
  return Math.round(jaccard(shingles(a), shingles(b)) * 1000) / 1000;
}

/** The most similar of `others` to `text`: its score (0 when there are none) and index. */
export function mostSimilar(text: string, others: readonly string[]): { score: number; index: number } {
  const mine = shingles(text);
  let best = { score: 0, index: -1 };
  others.forEach((other, index) => {
    const score = Math.round(jaccard(mine, shingles(other)) * 1000) / 1000;
    if (score > best.score) best = { score, index };
  });
  return best;
}
