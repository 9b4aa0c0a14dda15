// @ts-check
'use strict';

/*
 * Parsing guest code in QuickJS is slow (the whole console + inspector + timers prelude takes about
 * a millisecond, more than creating the runtime and context), and most scripts print little and
 * use no timer. So every context gets only `installLazyGlobals`: `stdin`, `args`, and accessors
 * that load the guest module behind a global on first use (GUEST_MODULES). The inspector is loaded
 * later still, when console has something other than a primitive to print or the host has an
 * uncaught error to describe.
 *
 * Like the modules, this function is evaluated inside QuickJS from its source text and must not use
 * anything from this module's scope.
 */

/**
 * @param {(module: string) => void} load host function: evaluates that guest module in this context (once)
 * @param {Record<string, string[]>} modules the globals each guest module defines
 * @param {string} stdin exposed as the global `stdin`
 * @param {string} argsJson JSON array of strings, exposed (frozen) as the global `args`
 */
function installLazyGlobals(load, modules, stdin, argsJson) {
  const G = globalThis;
  // Like a builtin: writable, configurable, not enumerable (`let args` in a script still works).
  const define = (/** @type {string} */ name, /** @type {unknown} */ value) =>
    Object.defineProperty(G, name, { value, writable: true, configurable: true, enumerable: false });
  for (const module of Object.keys(modules)) {
    for (const name of modules[module]) {
      Object.defineProperty(G, name, {
        configurable: true,
        get() {
          load(module);
          return /** @type {any} */ (G)[name];
        },
        set(value) {
          define(name, value);
        },
      });
    }
  }
  define('stdin', stdin);
  define('args', Object.freeze(JSON.parse(argsJson)));
}

/** The globals each lazily loaded guest module defines. */
const GUEST_MODULES = Object.freeze({
  console: ['console'],
  timers: [
    'setTimeout',
    'setInterval',
    'setImmediate',
    'clearTimeout',
    'clearInterval',
    'clearImmediate',
    'queueMicrotask',
  ],
});

module.exports = { installLazyGlobals, GUEST_MODULES };
