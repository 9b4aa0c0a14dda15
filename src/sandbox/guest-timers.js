// @ts-check
'use strict';

/*
 * Guest code, evaluated inside QuickJS from its source text (Function#toString): it must not use
 * anything from this module's scope or from Node.js. See guest-lazy.js for how it is loaded.
 */

/**
 * Defines setTimeout, setInterval, setImmediate, their clear* and queueMicrotask.
 * @returns {{ runTimer: () => number }}
 */
function installTimers() {
  const G = globalThis;
  /** Replaces the lazy accessor, unless the script has assigned its own value already. */
  const define = (/** @type {string} */ name, /** @type {unknown} */ value) => {
    const current = Object.getOwnPropertyDescriptor(G, name);
    if (current && 'value' in current) return;
    Object.defineProperty(G, name, { value, writable: true, configurable: true, enumerable: false });
  };

  // Virtual timers: a callback runs once the job queue is empty, in order of due time, without real
  // waiting (a sleeping worker would be a worker lost to everyone else). The whole run, timers
  // included, stays under the call's timeout.
  let clock = 0;
  let seq = 0;
  /** @type {Map<number, { at: number, seq: number, fn: Function, args: unknown[], every: number }>} */
  const timers = new Map();
  /** @param {unknown} fn @param {unknown} ms @param {unknown[]} args @param {boolean} repeat */
  const schedule = (fn, ms, args, repeat) => {
    if (typeof fn !== 'function') throw new TypeError('The "callback" argument must be of type function');
    const delay = Math.max(1, Number(ms) || 0);
    const id = ++seq;
    timers.set(id, { at: clock + delay, seq: id, fn, args, every: repeat ? delay : -1 });
    return id;
  };
  /** @param {unknown} id */
  const clear = (id) => void timers.delete(/** @type {number} */ (id));
  define(
    'setTimeout',
    (/** @type {unknown} */ fn, /** @type {unknown} */ ms, /** @type {unknown[]} */ ...a) =>
      schedule(fn, ms, a, false),
  );
  define(
    'setInterval',
    (/** @type {unknown} */ fn, /** @type {unknown} */ ms, /** @type {unknown[]} */ ...a) =>
      schedule(fn, ms, a, true),
  );
  define('setImmediate', (/** @type {unknown} */ fn, /** @type {unknown[]} */ ...a) =>
    schedule(fn, 0, a, false),
  );
  define('clearTimeout', clear);
  define('clearInterval', clear);
  define('clearImmediate', clear);
  define('queueMicrotask', (/** @type {() => void} */ fn) => void Promise.resolve().then(fn));

  /** Runs the next due timer; 1 if one ran, 0 if none is left. */
  function runTimer() {
    let id = 0;
    let next = null;
    for (const [key, t] of timers) {
      if (!next || t.at < next.at || (t.at === next.at && t.seq < next.seq)) [id, next] = [key, t];
    }
    if (!next) return 0;
    clock = Math.max(clock, next.at);
    if (next.every > 0) {
      next.at += next.every;
      next.seq = ++seq;
    } else {
      timers.delete(id);
    }
    next.fn(...next.args);
    return 1;
  }

  return { runTimer };
}

module.exports = { installTimers };
