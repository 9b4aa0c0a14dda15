// @ts-check
'use strict';

/**
 * The guest side of the sandbox: `console` and virtual timers, installed in a fresh QuickJS context.
 *
 * These functions are never called on the host. Their source text (Function#toString) is evaluated
 * inside QuickJS, so they must not use anything from this module's scope or from Node.js. Formatting
 * runs in the guest on purpose: it is then bounded by the guest's timeout and memory cap, and the
 * host only ever receives plain strings.
 *
 * Parsing `installGuest` costs about a millisecond, more than creating the runtime and context, so
 * it is loaded lazily (see guest-lazy.js).
 */

/**
 * @param {(fd: number, text: string) => number} write host bridge: appends text to stdout (1) or
 *   stderr (2) and returns how many more bytes that stream accepts (-1 once it is truncated)
 * @param {number} outputLimit cap of each stream, in bytes (a first guess until `write` answers)
 * @returns {{ runTimer: () => number, describe: (error: unknown) => string }}
 */
function installGuest(write, outputLimit) {
  const G = globalThis;
  const stringify = JSON.stringify;
  const MAX_ITEMS = 100;
  const MAX_DEPTH = 2;
  const MAX_NESTED_STRING = 10000;
  const MAX_FRAMES = 20;

  /** @param {string} name @param {unknown} value */
  const define = (name, value) =>
    Object.defineProperty(G, name, { value, writable: true, configurable: true, enumerable: false });

  /** @param {string} s */
  const quote = (s) => {
    const cut = s.length > MAX_NESTED_STRING ? s.slice(0, MAX_NESTED_STRING) : s;
    const more = s.length - cut.length;
    const body = cut.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n');
    return `'${body}'` + (more > 0 ? `... ${more} more characters` : '');
  };

  /** @param {any} e */
  const errorHead = (e) => {
    const name = typeof e.name === 'string' && e.name ? e.name : 'Error';
    return e.message ? `${name}: ${e.message}` : name;
  };

  /** @param {any} v @param {number} depth @param {unknown[]} seen @returns {string} */
  function inspect(v, depth, seen) {
    switch (typeof v) {
      case 'string':
        return depth === 0 ? v : quote(v);
      case 'number':
        return Object.is(v, -0) ? '-0' : String(v);
      case 'bigint':
        return `${v}n`;
      case 'symbol':
        return v.toString();
      case 'undefined':
      case 'boolean':
        return String(v);
      case 'function': {
        const name = typeof v.name === 'string' && v.name ? v.name : '';
        if (/^class\b/.test(Function.prototype.toString.call(v))) return `[class ${name || '(anonymous)'}]`;
        return `[Function: ${name || '(anonymous)'}]`;
      }
    }
    if (v === null) return 'null';
    if (seen.includes(v)) return '[Circular]';
    if (v instanceof Error) {
      if (depth > 0 || typeof v.stack !== 'string') return `[${errorHead(v)}]`;
      const frames = v.stack.trimEnd().split('\n');
      const more = frames.length - MAX_FRAMES;
      const shown = more > 0 ? [...frames.slice(0, MAX_FRAMES), `    ... ${more} more frames`] : frames;
      return [errorHead(v), ...shown].join('\n');
    }
    if (v instanceof Date) return isNaN(v.getTime()) ? 'Invalid Date' : v.toISOString();
    if (v instanceof RegExp) return String(v);
    if (v instanceof Promise) return 'Promise {}';
    if (v instanceof ArrayBuffer) return `ArrayBuffer { byteLength: ${v.byteLength} }`;
    const isArray = Array.isArray(v);
    if (depth > MAX_DEPTH) return isArray ? '[Array]' : '[Object]';
    seen.push(v);
    try {
      /** @type {string[]} */
      const parts = [];
      let prefix = '';
      let [open, close] = ['{', '}'];
      /** @param {unknown} x */
      const nested = (x) => inspect(x, depth + 1, seen);
      /** @param {number} total */
      const addMore = (total) => total > MAX_ITEMS && parts.push(`... ${total - MAX_ITEMS} more items`);
      if (isArray || (ArrayBuffer.isView(v) && !(v instanceof DataView))) {
        /** @type {any} */
        const list = v;
        [open, close] = ['[', ']'];
        if (!isArray) prefix = `${list.constructor.name}(${list.length}) `;
        for (let i = 0; i < list.length && i < MAX_ITEMS; i++)
          parts.push(i in list ? nested(list[i]) : '<empty>');
        addMore(list.length);
      } else if (v instanceof Map || v instanceof Set) {
        prefix = `${v instanceof Map ? 'Map' : 'Set'}(${v.size}) `;
        for (const [k, x] of v.entries()) {
          if (parts.length >= MAX_ITEMS) break;
          parts.push(v instanceof Map ? `${nested(k)} => ${nested(x)}` : nested(x));
        }
        addMore(v.size);
      } else {
        const proto = Object.getPrototypeOf(v);
        const ctor =
          proto && Object.prototype.hasOwnProperty.call(proto, 'constructor') ? proto.constructor : null;
        if (proto === null) prefix = '[Object: null prototype] ';
        else if (typeof ctor === 'function' && ctor.name && ctor.name !== 'Object') prefix = `${ctor.name} `;
        const keys = Object.keys(v);
        for (const key of keys.slice(0, MAX_ITEMS)) {
          const d = Object.getOwnPropertyDescriptor(v, key);
          const shown = /^[A-Za-z_$][\w$]*$/.test(key) ? key : quote(key);
          const value = !d
            ? 'undefined'
            : d.get || d.set
              ? `[${d.get ? 'Getter' : ''}${d.get && d.set ? '/' : ''}${d.set ? 'Setter' : ''}]`
              : nested(d.value);
          parts.push(`${shown}: ${value}`);
        }
        addMore(keys.length);
      }
      return parts.length === 0
        ? `${prefix}${open}${close}`
        : `${prefix}${open} ${parts.join(', ')} ${close}`;
    } finally {
      seen.pop();
    }
  }

  /** Node's util.format subset: %s %d %i %f %j %o %O %c %%. @param {unknown[]} args */
  function format(args) {
    let i = 0;
    let out = '';
    const first = args[0];
    if (typeof first === 'string' && first.includes('%')) {
      i = 1;
      out = first.replace(/%([sdifjoOc%])/g, (m, c) => {
        if (c === '%') return '%';
        if (i >= args.length) return m;
        const a = args[i++];
        if (c === 's') return typeof a === 'string' ? a : inspect(a, 1, []);
        if (c === 'd' || c === 'i')
          return typeof a === 'bigint' ? `${a}n` : String(c === 'i' ? parseInt(String(a)) : Number(a));
        if (c === 'f') return String(parseFloat(String(a)));
        if (c === 'j') {
          try {
            return String(stringify(a));
          } catch {
            return '[Circular]';
          }
        }
        return c === 'c' ? '' : inspect(a, 1, []);
      });
    }
    for (; i < args.length; i++) out += (out || i > 0 ? ' ' : '') + inspect(args[i], 0, []);
    return out;
  }

  // Bytes each stream still accepts, as the host last said; -1 once it is full and marked truncated.
  const room = [-1, outputLimit, outputLimit];
  /** @param {number} fd @param {string} text */
  const emit = (fd, text) => {
    const left = room[fd];
    // One UTF-16 unit is at least one byte, so `left + 1` units are enough for the host to fill the
    // stream to its exact byte cap and to see that something was cut.
    if (left >= 0) room[fd] = write(fd, text.length > left + 1 ? text.slice(0, left + 1) : text);
  };
  /** @param {number} fd */
  const printer =
    (fd) =>
    (/** @type {unknown[]} */ ...a) =>
      emit(fd, `${format(a)}\n`);
  /** @type {Map<string, number>} */
  const timeLabels = new Map();
  const console = {
    log: printer(1),
    info: printer(1),
    debug: printer(1),
    error: printer(2),
    warn: printer(2),
    /** @param {unknown} v */
    dir: (v) => emit(1, `${inspect(v, 0, [])}\n`),
    trace: (/** @type {unknown[]} */ ...a) => emit(2, `Trace: ${format(a)}\n${new Error().stack || ''}`),
    assert: (/** @type {unknown} */ ok, /** @type {unknown[]} */ ...a) => {
      if (!ok) emit(2, `Assertion failed${a.length ? `: ${format(a)}` : ''}\n`);
    },
    time: (label = 'default') => void timeLabels.set(label, Date.now()),
    timeEnd: (label = 'default') => {
      const t = timeLabels.get(label);
      timeLabels.delete(label);
      if (t !== undefined) emit(1, `${label}: ${Date.now() - t}ms\n`);
    },
  };
  define('console', console);

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
    if (next.every > 0) {
      next.at += next.every;
      next.seq = ++seq;
    } else {
      timers.delete(id);
    }
    clock = Math.max(clock, next.at);
    next.fn(...next.args);
    return 1;
  }

  /** The text printed for an uncaught exception. */
  function describe(/** @type {unknown} */ error) {
    if (error instanceof Error) return inspect(error, 0, []);
    return `Uncaught ${inspect(error, 1, [])}`;
  }

  return { runTimer, describe };
}

module.exports = { installGuest };
