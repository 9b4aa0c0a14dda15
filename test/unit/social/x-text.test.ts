import { extractUrls, weightedLength } from '../../../actors/social/x-text';

describe('weightedLength (X counting)', () => {
  it('counts Latin text one per character', () => {
    expect(weightedLength('hello world')).toBe(11);
    expect(weightedLength('a'.repeat(280))).toBe(280);
  });

  it('counts any URL as 23, however long', () => {
    const long = `https://example.com/${'x'.repeat(200)}`;
    expect(weightedLength(`read ${long}`)).toBe(5 + 23);
    expect(weightedLength('see https://a.io now')).toBe(4 + 23 + 4);
    expect(weightedLength('bare example.com/path too')).toBe(5 + 23 + 4);
    expect(extractUrls('one https://a.io/x, two http://b.com.')).toEqual(['https://a.io/x', 'http://b.com']);
  });

  it('counts CJK characters and emoji as 2', () => {
    expect(weightedLength('日本語')).toBe(6);
    expect(weightedLength('hi 👋')).toBe(5);
    // A ZWJ family and a skin-toned hand are one emoji each.
    expect(weightedLength('👨‍👩‍👧‍👦')).toBe(2);
    expect(weightedLength('👍🏽')).toBe(2);
    expect(weightedLength('🇫🇷')).toBe(2);
  });

  it('normalises to NFC first (a decomposed é is one character)', () => {
    expect(weightedLength('e\u0301')).toBe(1);
  });
});
