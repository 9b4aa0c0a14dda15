import { isAppError } from '../../../schemas/errors';
import type { ProcExecuteRequest } from '../../../schemas/tools/proc-execute';
import { createSandbox, type Sandbox } from '../../../src/sandbox';
import { silentLogger } from '../../../src/logging/logger';

let sandbox: Sandbox;
const js = (code: string, extra: Partial<ProcExecuteRequest> = {}) =>
  sandbox.execute({ language: 'javascript', code, ...extra });

beforeAll(() => {
  sandbox = createSandbox({ threads: 2, logger: silentLogger });
});
afterAll(() => sandbox.close());

describe('sandbox: output and results', () => {
  it('prints hello world to stdout and returns the last expression', async () => {
    const r = await js("console.log('hello', 'world'); 6 * 7");
    expect(r).toMatchObject({
      stdout: 'hello world\n',
      stderr: '',
      exitCode: 0,
      outcome: 'ok',
      truncated: false,
    });
    expect(r.result).toBe(42);
    expect(Number.isInteger(r.durationMs)).toBe(true);
  });

  it('sends console.error and console.warn to stderr, info and debug to stdout', async () => {
    const r = await js(
      "console.error('bad'); console.warn('careful'); console.info('i'); console.debug('d')",
    );
    expect(r.stderr).toBe('bad\ncareful\n');
    expect(r.stdout).toBe('i\nd\n');
    expect(r.exitCode).toBe(0);
  });

  it('formats values the way Node does, on one line', async () => {
    const r = await js(`
      const o = { a: 1, s: 'x', n: null, u: undefined, arr: [1, [2, [3, [4]]]], m: new Map([['k', 1]]) };
      o.self = o;
      console.log(o, new Set([1]), -0, 10n, Symbol('t'), function named() {}, new Error('e').message);
      console.log('%s is %d years', 'Bob', 42, 'extra');
    `);
    expect(r.stdout).toBe(
      "{ a: 1, s: 'x', n: null, u: undefined, arr: [ 1, [ 2, [Array] ] ], m: Map(1) { 'k' => 1 }, " +
        'self: [Circular] } Set(1) { 1 } -0 10n Symbol(t) [Function: named] e\nBob is 42 years extra\n',
    );
  });

  it('returns JSON values only, awaiting a final promise', async () => {
    expect((await js('({ a: [1, "two"], b: null })')).result).toEqual({ a: [1, 'two'], b: null });
    expect((await js('(async () => { await null; return "done" })()')).result).toBe('done');
    expect((await js('const x = 1;')).result).toBeUndefined();
    expect((await js('() => 1')).result).toBeUndefined();
    expect((await js('NaN')).result).toBeNull();
  });

  it('exposes stdin and args', async () => {
    const r = await js('stdin.toUpperCase() + args.join("+")', { stdin: 'in:', args: ['a', 'b'] });
    expect(r.result).toBe('IN:a+b');
  });

  it('runs virtual timers in order after the job queue, without waiting', async () => {
    const r = await js(`
      setTimeout(() => console.log('t200'), 200);
      setTimeout(() => console.log('t10'), 10);
      const id = setInterval(() => { console.log('tick'); if (++n === 2) clearInterval(id); }, 50);
      let n = 0;
      Promise.resolve().then(() => console.log('micro'));
      // Scheduled at virtual time 50 (first tick) + 120 = 170: before t200.
      setTimeout(() => setTimeout(() => console.log('t170'), 120), 50);
      console.log('sync');
    `);
    expect(r.stdout).toBe('sync\nmicro\nt10\ntick\ntick\nt170\nt200\n');
    expect(r.durationMs).toBeLessThan(150);
  });

  it("keeps the script's own console and timer functions", async () => {
    const r = await js(`
      const lines = [];
      console = { log: (x) => lines.push(x) };
      setTimeout = (fn) => { lines.push('own setTimeout'); fn(); };
      setInterval(() => {}, 10) && clearInterval(1);
      setTimeout(() => console.log('ran'));
      let args = 'shadowed';
      [lines, args]
    `);
    expect(r.result).toEqual([['own setTimeout', 'ran'], 'shadowed']);
    expect(r.stdout).toBe('');
  });

  it('caps stdout and flags the result as truncated', async () => {
    const r = await js("for (let i = 0; i < 10000; i++) console.log('x'.repeat(100)); 'end'");
    expect(r.truncated).toBe(true);
    expect(Buffer.byteLength(r.stdout)).toBe(64 * 1024);
    expect(r.outcome).toBe('ok');
    expect(r.result).toBe('end');
  });

  it('leaves out a result that is too large, and says it was truncated', async () => {
    const r = await js("'x'.repeat(100000)");
    expect(r.result).toBeUndefined();
    expect(r.truncated).toBe(true);
  });
});

describe('sandbox: outcomes', () => {
  it('a thrown error exits 1 with the message and stack in stderr', async () => {
    const r = await js("function f() { throw new TypeError('boom') }\nf()");
    expect(r).toMatchObject({ exitCode: 1, outcome: 'error', stdout: '' });
    expect(r.stderr).toMatch(/^TypeError: boom\n\s+at f \(main\.js:1/);
    expect((await js("throw 'plain'")).stderr).toBe("Uncaught 'plain'\n");
  });

  it('a rejected final promise is an error too', async () => {
    const r = await js("Promise.reject(new RangeError('nope'))");
    expect(r).toMatchObject({ exitCode: 1, outcome: 'error' });
    expect(r.stderr).toMatch(/^RangeError: nope/);
  });

  it('a syntax error exits 2; a SyntaxError thrown at run time exits 1', async () => {
    const parse = await js("console.log('never');\nlet = = 1");
    expect(parse).toMatchObject({ exitCode: 2, outcome: 'syntax_error', stdout: '' });
    expect(parse.stderr).toMatch(/^SyntaxError: .*\n\s+at main\.js:2/);
    const runtime = await js("JSON.parse('{')");
    expect(runtime).toMatchObject({ exitCode: 1, outcome: 'error' });
  });

  it('an infinite loop ends at its timeout with exit 124', async () => {
    const began = Date.now();
    const r = await js('while (true) {}', { timeout: 300 });
    expect(r).toMatchObject({ exitCode: 124, outcome: 'timeout' });
    expect(r.stderr).toBe('Error: script timed out after 300 ms\n');
    expect(Date.now() - began).toBeLessThan(300 + 700);
    expect(r.durationMs).toBeGreaterThanOrEqual(300);
  });

  it('the timeout cannot be caught and covers promise jobs', async () => {
    const caught = await js('try { while (true) {} } catch (e) { console.log("caught") }', { timeout: 200 });
    expect(caught).toMatchObject({ outcome: 'timeout', stdout: '' });
    const jobs = await js('(async () => { for (;;) await null })()', { timeout: 200 });
    expect(jobs.outcome).toBe('timeout');
    // Hundreds of thousands of timer turns: none may leave anything behind until the end.
    const timers = await js('(async () => { setInterval(() => {}, 1); await new Promise(() => {}) })()', {
      timeout: 1500,
    });
    expect(timers.outcome).toBe('timeout');
  });

  it.each([
    ['an array of big strings', "const a = []; while (true) a.push('x'.repeat(1e6))"],
    ['many small objects', 'const m = new Map(); for (let i = 0; ; i++) m.set(i, { i })'],
    ['string doubling', "let s = 'x'; while (true) { s = s + s; s.indexOf('y') }"],
  ])('a memory bomb (%s) ends with exit 137 and the next call works', async (_name, code) => {
    const r = await js(code);
    expect(r).toMatchObject({ exitCode: 137, outcome: 'out_of_memory' });
    expect(r.stderr).toMatch(/out of memory/);
    expect((await js('[1, 2, 3].map((x) => x * 2)')).result).toEqual([2, 4, 6]);
  });

  it('deep recursion fails cleanly, in code and in the parser', async () => {
    const r = await js('function f(n) { return f(n + 1) + 1 } f(0)');
    expect(r).toMatchObject({ exitCode: 1, outcome: 'error' });
    expect(r.stderr).toMatch(/^InternalError: stack overflow/);
    expect(r.stderr.split('\n').length).toBeLessThan(30);
    const parser = await js("eval('('.repeat(100000))");
    expect(parser.stderr).toMatch(/stack overflow/);
    const nested = await js('let a = []; for (let i = 0; i < 1e5; i++) a = [a]; String(a)');
    expect(nested.stderr).toMatch(/stack overflow/);
    expect((await js('1 + 1')).result).toBe(2);
  });

  it('refuses an unknown language before running anything', async () => {
    const err = await js('print(1)', { language: 'python' }).catch((e: unknown) => e);
    expect(isAppError(err)).toBe(true);
    expect(err).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
  });

  it('refuses a bad timeout', async () => {
    await expect(js('1', { timeout: 0 })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(js('1', { timeout: 30_001 })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('accepts the js alias', async () => {
    expect((await sandbox.execute({ language: 'JS', code: '1' })).result).toBe(1);
  });
});
