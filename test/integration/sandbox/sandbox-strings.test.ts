import pino from 'pino';
import { createSandbox, type Sandbox } from '../../../src/sandbox';

/**
 * What a script writes comes back code unit for code unit: NULs and lone surrogates included, in
 * stdout, stderr, `result`, thrown messages, and in `stdin`/`args` on the way in. (The engine's
 * string copies are NUL-terminated UTF-8: they cut at a NUL and turned lone surrogates into U+FFFD.)
 */
describe('sandbox: strings in and out, every code unit kept', () => {
  let sandbox: Sandbox;

  beforeAll(() => {
    sandbox = createSandbox({ threads: 1, logger: pino({ level: 'silent' }), outputLimitBytes: 1024 });
  });
  afterAll(() => sandbox.close());

  const run = (code: string, extra: { stdin?: string; args?: string[] } = {}) =>
    sandbox.execute({ language: 'js', code, ...extra });

  it('keeps a NUL in console output, on stdout and stderr', async () => {
    const r = await run("console.log('abc\\u0000def'); console.error('x\\u0000', 'y')");
    expect(r.stdout).toBe('abc\u0000def\n');
    expect(r.stderr).toBe('x\u0000 y\n');
  });

  it('keeps lone surrogates in console output (no U+FFFD), and real pairs and U+FFFD as they are', async () => {
    const r = await run("console.log('x\\ud800y', '\\udc00z', '\\ud83d\\ude00', '\\ufffd')");
    expect(r.stdout).toBe('x\ud800y \udc00z \ud83d\ude00 \ufffd\n');
  });

  it('keeps them in a string result and inside an object result', async () => {
    expect((await run("'abc\\u0000def\\ud800'")).result).toBe('abc\u0000def\ud800');
    expect((await run("({ a: 'n\\u0000', b: ['\\udfff'] })")).result).toEqual({
      a: 'n\u0000',
      b: ['\udfff'],
    });
  });

  it('keeps them in the message of an uncaught error, and the rest of its description', async () => {
    const thrown = await run("throw new Error('bad\\u0000thing\\ud800')");
    expect(thrown.outcome).toBe('error');
    expect(thrown.stderr.startsWith('Error: bad\u0000thing\ud800\n    at <eval> (main.js:1:')).toBe(true);
    const rejected = await run("Promise.reject(new TypeError('p\\u0000q'))");
    expect(rejected.stderr.split('\n')[0]).toBe('TypeError: p\u0000q');
    expect((await run("throw 'a\\u0000b\\udc00'")).stderr).toBe("Uncaught 'a\u0000b\udc00'\n");
  });

  it('hands stdin and args to the script exactly', async () => {
    const r = await run('[stdin, stdin.length, ...args]', {
      stdin: 'in\u0000put\ud800',
      args: ['a\u0000b', '\udc00', 'plain'],
    });
    expect(r.result).toEqual(['in\u0000put\ud800', 7, 'a\u0000b', '\udc00', 'plain']);
  });

  it('is not fooled by a script that replaces escape, unescape or String methods', async () => {
    const r = await run(
      "globalThis.escape = () => 'x'; globalThis.unescape = null; String.prototype.includes = () => false;" +
        "console.log('a\\u0000b\\ud800'); 'c\\u0000d'",
    );
    expect(r).toMatchObject({ outcome: 'ok', stdout: 'a\u0000b\ud800\n', result: 'c\u0000d' });
  });

  it('cuts output at its cap without turning a lone surrogate into U+FFFD', async () => {
    // 1020 bytes of 'a', then lone surrogates of 3 bytes each: one more fits in the 1024-byte cap.
    const r = await run("console.log('a'.repeat(1020) + '\\ud800\\ud800\\ud800')");
    expect(r.truncated).toBe(true);
    expect(r.stdout).toBe(`${'a'.repeat(1020)}\ud800`);
  });
});
