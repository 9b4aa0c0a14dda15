import { mostSimilar, normalizeForSimilarity, similarity } from '../../../actors/social/similarity';

describe('similarity (character-trigram Jaccard)', () => {
  it('is 1 for the same text, whatever the case, punctuation and spacing', () => {
    expect(similarity('Shipping v2 today!', 'shipping   V2 today')).toBe(1);
    expect(normalizeForSimilarity('Hi, https://x.io/a  THERE')).toBe('hi url there');
  });

  it('is high for a near-duplicate and low for an unrelated text', () => {
    const a = 'We just shipped version 2 of the runtime, with faster tool calls';
    const near = 'We just shipped version 2 of the runtime with much faster tool calls!';
    const other = 'Lunch in the park was lovely; the ducks were out in force';
    expect(similarity(a, near)).toBeGreaterThan(0.7);
    expect(similarity(a, other)).toBeLessThan(0.15);
    expect(similarity(a, near)).toBeLessThan(1);
  });

  it('is symmetric and within 0..1; empty texts score 0', () => {
    const a = 'alpha beta gamma';
    const b = 'beta gamma delta';
    expect(similarity(a, b)).toBe(similarity(b, a));
    expect(similarity(a, b)).toBeGreaterThan(0);
    expect(similarity(a, b)).toBeLessThan(1);
    expect(similarity('', 'abc')).toBe(0);
  });

  it('mostSimilar finds the closest of several', () => {
    const best = mostSimilar('release notes for v3 are out', ['cats', 'release notes for v3 are up', 'v3']);
    expect(best.index).toBe(1);
    expect(best.score).toBeGreaterThan(0.6);
    expect(mostSimilar('anything', [])).toEqual({ score: 0, index: -1 });
  });
});
