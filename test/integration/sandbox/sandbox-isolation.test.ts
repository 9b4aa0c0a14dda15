import { createSandbox, type Sandbox } from '../../../src/sandbox';
import { silentLogger } from '../../../src/logging/logger';

// One worker, so that consecutive calls surely share a worker and its WebAssembly module.
let sandbox: Sandbox;
const js = (code: string) => sandbox.execute({ language: 'javascript', code, timeout: 2000 });

beforeAll(() => {
  sandbox = createSandbox({ threads: 1, logger: silentLogger });
});
afterAll(() => sandbox.close());

describe('sandbox: isolation between calls', () => {
  it('keeps no global, prototype or builtin change from one call to the next', async () => {
    const first = await js(`
      globalThis.leaked = 'yes';
      var alsoLeaked = 1;
      Object.prototype.polluted = 'yes';
      Array.prototype.push = () => 'hijacked';
      JSON.stringify = () => 'hijacked';
      console = { log() {} };
      'set'
    `);
    expect(first.result).toBe('set');
    const second = await js(
      '[typeof leaked, typeof alsoLeaked, ({}).polluted, [].push(1), JSON.stringify({ a: 1 }), typeof console.log]',
    );
    expect(second.result).toEqual(['undefined', 'undefined', null, 1, '{"a":1}', 'function']);
  });

  it('never lets prototype pollution reach the host', async () => {
    await js("Object.prototype.hostPolluted = 'yes'; Object.prototype.toString = () => 'pwned'");
    expect(({} as Record<string, unknown>).hostPolluted).toBeUndefined();
    expect(Object.prototype.toString.call([])).toBe('[object Array]');
  });
});

describe('sandbox: escape attempts', () => {
  it('has no Node.js, web or engine-host globals', async () => {
    const r = await js(
      "['require', 'process', 'module', 'exports', 'fetch', 'XMLHttpRequest', 'WebAssembly', 'Buffer', 'Deno', 'Bun', 'std', 'os']" +
        '.map((name) => typeof globalThis[name])',
    );
    expect(r.result).toEqual(Array(12).fill('undefined'));
  });

  it('cannot load modules, statically or dynamically', async () => {
    const dynamic = await js("import('node:child_process')");
    expect(dynamic).toMatchObject({ outcome: 'error', exitCode: 1 });
    expect(dynamic.stderr).toMatch(/could not load module/);
    const fromFs = await js("import('fs').then((fs) => fs.readFileSync('/etc/passwd', 'utf8'))");
    expect(fromFs.outcome).toBe('error');
    expect(fromFs.stdout).toBe('');
    const staticImport = await js("import fs from 'fs'; fs");
    expect(staticImport.outcome).toBe('syntax_error');
  });

  it('reaches only the QuickJS global through Function and constructor tricks', async () => {
    const r = await js(`[
      Function('return this')() === globalThis,
      typeof Function('return this')().process,
      typeof console.log.constructor('return typeof process')(),
      (() => { try { return this.constructor.constructor('return process')() } catch (e) { return e.name } })(),
      (() => { try { return globalThis.constructor.constructor('return require')() } catch (e) { return e.name } })(),
    ]`);
    expect(r.result).toEqual([true, 'undefined', 'string', 'ReferenceError', 'ReferenceError']);
  });

  it('cannot get at the host through the async function constructor either', async () => {
    const r = await js("Object.getPrototypeOf(async function () {}).constructor('return process.pid')()");
    expect(r.outcome).toBe('error');
    expect(r.stderr).toMatch(/ReferenceError: 'process' is not defined/);
  });

  it('cannot stop or crash the host process', async () => {
    const exit = await js('process.exit(0)');
    expect(exit.stderr).toMatch(/'process' is not defined/);
    // The pool still answers.
    expect((await js('1 + 1')).result).toBe(2);
  });
});
