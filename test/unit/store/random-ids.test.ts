import { randomText } from '../../../src/store/random-ids';

describe('randomText', () => {
  it('gives the length and alphabet randomBytes(n).toString(encoding) gives', () => {
    expect(randomText(12, 'hex')).toMatch(/^[0-9a-f]{24}$/);
    expect(randomText(18, 'base64url')).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(randomText(9, 'base64url')).toMatch(/^[A-Za-z0-9_-]{12}$/);
  });

  it('never hands out the same bytes twice, across refills of its pool', () => {
    const seen = new Set<string>();
    // 2,000 × 16 bytes: the 4 KB pool is refilled several times, at offsets that do not divide it.
    for (let i = 0; i < 2000; i += 1) seen.add(randomText(i % 2 === 0 ? 16 : 13, 'hex'));
    expect(seen.size).toBe(2000);
  });

  it('refuses more bytes than its pool holds', () => {
    expect(() => randomText(8192, 'hex')).toThrow(RangeError);
  });
});
