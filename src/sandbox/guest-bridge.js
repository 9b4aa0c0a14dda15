// @ts-check
'use strict';

const { installConsole } = require('./guest-console');
const { GuestStrings } = require('./guest-strings');
const { createInspector } = require('./guest-inspect');
const { installLazyGlobals } = require('./guest-lazy');
const { installTimers } = require('./guest-timers');

/**
 * @typedef {import('quickjs-emscripten').QuickJSContext} QuickJSContext
 * @typedef {import('quickjs-emscripten').QuickJSHandle} QuickJSHandle
 * @typedef {import('./sandbox-types').Limits} Limits
 * @typedef {import('./sandbox-types').ScriptTask} ScriptTask
 * @typedef {import('./output-buffer').OutputBuffer} OutputBuffer
 * @typedef {'console' | 'timers' | 'inspector'} GuestModule
 * @typedef {{ value?: QuickJSHandle, error?: QuickJSHandle }} Loaded what a module's function returned, or why it failed
 */

/** Guest sources, evaluated in QuickJS; see guest-lazy.js. */
const SOURCES = Object.freeze({
  console: `(${installConsole.toString()})`,
  timers: `(${installTimers.toString()})`,
  inspector: `(${createInspector.toString()})`,
});

/**
 * The host's side of the guest environment of one context: installs `stdin`, `args` and the lazy
 * accessors at once, loads a guest module on first use, and gives the host the functions it needs
 * (the next timer, the description of an error). The host functions the guest can reach are the
 * lazy globals' getters and setters (guest-lazy.js: they load a module, or define the global), and,
 * hidden in closures, `loadInspector()` and `write(fd, text)`, which appends a string to the run's
 * capped output.
 */
class GuestBridge {
  /**
   * @param {QuickJSContext} ctx
   * @param {ScriptTask} task
   * @param {Limits} limits
   * @param {OutputBuffer} stdout
   * @param {OutputBuffer} stderr
   * @param {(handle: QuickJSHandle) => QuickJSHandle} own registers a handle to dispose with the run
   */
  constructor(ctx, task, limits, stdout, stderr, own) {
    this.ctx = ctx;
    this.limits = limits;
    this.stdout = stdout;
    this.stderr = stderr;
    this.own = own;
    /** @type {Map<GuestModule, Loaded>} */
    this.loaded = new Map();
    /** @type {Map<string, QuickJSHandle>} functions taken from loaded modules */
    this.functions = new Map();
    /** Strings in and out of the guest, every code unit kept (NULs, lone surrogates). */
    this.strings = new GuestStrings(ctx, own);

    installLazyGlobals(ctx, task, (module) => this.load(module), own, this.strings);
  }

  /**
   * Evaluates a guest module in the context, once (a failure is not retried).
   * @param {GuestModule} module
   * @returns {Loaded}
   */
  load(module) {
    let loaded = this.loaded.get(module);
    if (!loaded) {
      loaded = this.evaluate(module);
      this.loaded.set(module, loaded);
    }
    return loaded;
  }

  /** @param {GuestModule} module @returns {Loaded} */
  evaluate(module) {
    const { ctx, own } = this;
    const compiled = ctx.evalCode(SOURCES[module], `${module}.js`, { type: 'global' });
    if (compiled.error) return { error: own(compiled.error) };
    const args = module === 'console' ? this.consoleArgs() : [];
    const called = ctx.callFunction(own(compiled.value), ctx.undefined, args);
    if (called.error) return { error: own(called.error) };
    return { value: own(called.value) };
  }

  consoleArgs() {
    const { ctx, own } = this;
    const write = own(
      ctx.newFunction('write', (fd, text) => {
        if (ctx.typeof(fd) !== 'number' || ctx.typeof(text) !== 'string') return ctx.newNumber(-1);
        const stream = ctx.getNumber(fd) === 2 ? this.stderr : this.stdout;
        return ctx.newNumber(stream.append(this.strings.read(text)));
      }),
    );
    const loadInspector = own(ctx.newFunction('loadInspector', () => rethrow(this.load('inspector'))));
    return [write, own(ctx.newNumber(this.limits.outputLimitBytes)), loadInspector];
  }

  /**
   * A function exported by a guest module, loading the module if needed.
   * @param {GuestModule} module @param {string} name
   * @returns {QuickJSHandle | undefined}
   */
  fn(module, name) {
    const key = `${module}.${name}`;
    let handle = this.functions.get(key);
    if (!handle) {
      const loaded = this.load(module);
      if (!loaded.value) return undefined;
      handle = this.own(this.ctx.getProp(loaded.value, name));
      this.functions.set(key, handle);
    }
    return handle;
  }

  /**
   * Runs the next due timer. Timers exist only once the script has touched a timer global.
   * @returns {{ ran: boolean, error?: QuickJSHandle }}
   */
  runTimer() {
    if (!this.loaded.get('timers')?.value) return { ran: false };
    const runTimer = this.fn('timers', 'runTimer');
    if (!runTimer) return { ran: false };
    const timer = this.ctx.callFunction(runTimer, this.ctx.undefined);
    if (timer.error) return { ran: false, error: this.own(timer.error) };
    // Disposed at once: this runs once per timer, and there may be millions.
    const ran = timer.value.consume((v) => this.ctx.getNumber(v)) === 1;
    return { ran };
  }

  /**
   * The guest's own description of an uncaught exception (name, message, stack; Node-like).
   * @param {QuickJSHandle} error
   * @returns {string | undefined} undefined when the guest cannot (out of time or memory)
   */
  describe(error) {
    const describe = this.fn('inspector', 'describe');
    if (!describe) return undefined;
    const described = this.ctx.callFunction(describe, this.ctx.undefined, error);
    if (described.error) {
      this.own(described.error);
      return undefined;
    }
    const text = this.own(described.value);
    return this.ctx.typeof(text) === 'string' ? this.strings.read(text) : undefined;
  }
}

/**
 * A host function's answer for a module load: its value, or its error thrown again in the guest (the
 * same object, so an interrupt stays uncatchable). Handles are duplicated: the caller disposes them.
 * @param {Loaded} loaded
 */
function rethrow(loaded) {
  if (loaded.error) return { error: loaded.error.dup() };
  return loaded.value ? loaded.value.dup() : undefined;
}

module.exports = { GuestBridge };
