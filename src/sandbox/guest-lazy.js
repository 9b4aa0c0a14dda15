// @ts-check
'use strict';

/*
 * Parsing the full guest prelude (guest-prelude.js) costs about a millisecond in QuickJS, more than
 * creating the runtime and context, and most scripts print little or nothing. So every context gets
 * only `installLazyGlobals` (cheap): `stdin`, `args`, and accessors for the prelude's globals that
 * load the prelude on first use. Like the prelude, it is evaluated inside QuickJS from its source
 * text and must not use anything from this module's scope.
 */

/**
 * @param {() => void} load host function: evaluates `installGuest` in this context (once)
 * @param {string[]} names the globals `installGuest` defines
 * @param {string} stdin exposed as the global `stdin`
 * @param {string} argsJson JSON array of strings, exposed (frozen) as the global `args`
 */
function installLazyGlobals(load, names, stdin, argsJson) {
  const G = globalThis;
  // Like a builtin: writable, configurable, not enumerable (`let args` in a script still works).
  const define = (/** @type {string} */ name, /** @type {unknown} */ value) =>
    Object.defineProperty(G, name, { value, writable: true, configurable: true, enumerable: false });
  for (const name of names) {
    Object.defineProperty(G, name, {
      configurable: true,
      get() {
        load();
        return /** @type {any} */ (G)[name];
      },
      set(value) {
        define(name, value);
      },
    });
  }
  define('stdin', stdin);
  define('args', Object.freeze(JSON.parse(argsJson)));
}

/** The globals `installGuest` defines (each an accessor until the prelude is loaded). */
const GUEST_GLOBALS = Object.freeze([
  'console',
  'setTimeout',
  'setInterval',
  'setImmediate',
  'clearTimeout',
  'clearInterval',
  'clearImmediate',
  'queueMicrotask',
]);

module.exports = { installLazyGlobals, GUEST_GLOBALS };
