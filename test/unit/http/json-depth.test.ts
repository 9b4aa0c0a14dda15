import {
  MAX_JSON_DEPTH,
  jsonTextMayBeTooDeep,
  jsonTextTooDeep,
  jsonValueTooDeep,
} from '../../../schemas/json-depth';

const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

describe('jsonTextTooDeep', () => {
  it('counts the outermost object or array as one level', () => {
    expect(jsonTextTooDeep(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonTextTooDeep(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonTextTooDeep('{"a":{"b":[1]}}', 3)).toBe(false);
    expect(jsonTextTooDeep('{"a":{"b":[1]}}', 2)).toBe(true);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const brackets = '['.repeat(500);
    expect(jsonTextTooDeep(JSON.stringify({ text: brackets }), 4)).toBe(false);
    // An escaped quote does not end the string; an escaped backslash before a quote does.
    expect(jsonTextTooDeep(JSON.stringify({ text: `say \\"${brackets}` }), 4)).toBe(false);
    expect(jsonTextTooDeep(`{"a":"x\\\\",${'['.repeat(300)}`, 4)).toBe(true);
  });

  it('follows objects and arrays mixed, and long flat bodies', () => {
    const mixed = '{"a":'.repeat(40) + '['.repeat(40) + ']'.repeat(40) + '}'.repeat(40);
    expect(jsonTextTooDeep(mixed, 79)).toBe(true);
    expect(jsonTextTooDeep(mixed, 80)).toBe(false);
    const flat = JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ i, tags: [i] })));
    expect(jsonTextTooDeep(flat)).toBe(false);
  });

  it('scans a 1,000,000-deep text without recursion', () => {
    expect(jsonTextTooDeep(nested(1_000_000))).toBe(true);
  });
});

describe('jsonTextMayBeTooDeep', () => {
  it('settles short texts and texts with few brackets without a scan, never missing a deep one', () => {
    expect(jsonTextMayBeTooDeep(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonTextMayBeTooDeep(JSON.stringify({ text: 'x'.repeat(10_000), tags: ['a', 'b'] }))).toBe(false);
    expect(jsonTextMayBeTooDeep(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    // Many brackets, shallow: "maybe" (the walk of the value settles it).
    const flat = JSON.stringify(Array.from({ length: 100 }, () => ({})));
    expect(jsonTextMayBeTooDeep(flat)).toBe(true);
    expect(jsonValueTooDeep(JSON.parse(flat))).toBe(false);
  });
});

describe('jsonValueTooDeep', () => {
  it('agrees with the text scan on parsed values', () => {
    for (const levels of [2, 3, MAX_JSON_DEPTH, MAX_JSON_DEPTH + 1, 5000]) {
      const text = `{"a":${nested(levels - 1)}}`;
      expect(jsonValueTooDeep(JSON.parse(text))).toBe(jsonTextTooDeep(text));
    }
    expect(jsonValueTooDeep('text')).toBe(false);
    expect(jsonValueTooDeep(null)).toBe(false);
    expect(jsonValueTooDeep({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(jsonValueTooDeep({ a: [{ b: {} }] }, 3)).toBe(true);
  });

  it('sees a value under an own "__proto__" key, and walks a 1,000,000-deep value without overflowing', () => {
    expect(jsonValueTooDeep(JSON.parse(`{"__proto__":${nested(10)}}`), 5)).toBe(true);
    expect(jsonValueTooDeep(JSON.parse(nested(1_000_000)))).toBe(true);
  });
});
