// The buffer is plain JS (it runs in the worker as is); typed here by hand.
const { OutputBuffer, cutUtf8 } = require('../../../src/sandbox/output-buffer') as {
  OutputBuffer: new (limitBytes: number) => {
    append(text: string): number;
    note(text: string): void;
    text(): string;
    truncated: boolean;
  };
  cutUtf8(text: string, maxBytes: number): string;
};

describe('OutputBuffer', () => {
  it('keeps text under the cap and says how much room is left', () => {
    const out = new OutputBuffer(10);
    expect(out.append('abc')).toBe(7);
    expect(out.append('defg')).toBe(3);
    expect(out.text()).toBe('abcdefg');
    expect(out.truncated).toBe(false);
  });

  it('fills exactly to the cap without flagging truncation', () => {
    const out = new OutputBuffer(4);
    expect(out.append('abcd')).toBe(0);
    expect(out.truncated).toBe(false);
    expect(out.append('e')).toBe(-1);
    expect(out.truncated).toBe(true);
    expect(out.text()).toBe('abcd');
  });

  it('cuts in bytes without splitting a character, then drops everything', () => {
    const out = new OutputBuffer(5);
    // 'é' is 2 bytes: 'aé' = 3, the next 'é' fits (5), the third one does not.
    expect(out.append('aééé')).toBe(-1);
    expect(out.text()).toBe('aéé');
    expect(out.append('more')).toBe(-1);
    expect(out.text()).toBe('aéé');
  });

  it('adds a note past the cap, on its own line', () => {
    const out = new OutputBuffer(3);
    out.append('abcdef');
    out.note('Error: stopped');
    expect(out.text()).toBe('abc\nError: stopped\n');
  });
});

describe('cutUtf8', () => {
  it('never splits a surrogate pair or a multi-byte sequence', () => {
    expect(cutUtf8('😀x', 3)).toBe('');
    expect(cutUtf8('😀x', 4)).toBe('😀');
    expect(cutUtf8('日本', 5)).toBe('日');
    expect(cutUtf8('plain', 10)).toBe('plain');
  });

  it('keeps lone surrogates and NULs as they are when it cuts (3 bytes each, like Buffer.byteLength)', () => {
    expect(cutUtf8('a\ud800b\udc00c', 5)).toBe('a\ud800b');
    expect(cutUtf8('a\ud800b\udc00c', 8)).toBe('a\ud800b\udc00c'.slice(0, 4));
    expect(cutUtf8('a\0b\0c'.repeat(3), 4)).toBe('a\0b\0');
    // A high surrogate at the end of the room is not taken for half of a pair.
    expect(cutUtf8('ab\ud83d', 4)).toBe('ab');
    expect(cutUtf8('ab\ud83d', 5)).toBe('ab\ud83d');
  });

  it('appends a lone surrogate or a NUL past the cap without turning it into U+FFFD', () => {
    const out = new OutputBuffer(6);
    expect(out.append('x\u0000y\udfffz\ud800')).toBe(-1);
    expect(out.text()).toBe('x\u0000y\udfff');
  });
});
