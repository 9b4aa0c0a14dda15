// @ts-check
'use strict';

/*
 * Guest code, evaluated inside QuickJS from its source text (Function#toString): it must not use
 * anything from this module's scope or from Node.js. See guest-lazy.js for how it is loaded.
 */

/**
 * Defines the global `console`. Formatting runs in the guest (bounded by its timeout and memory);
 * the host only receives strings. Primitives are formatted here; anything else asks the host for the
 * inspector (guest-inspect.js), which is parsed only then.
 * @param {(fd: number, text: string) => number} write host bridge: appends text to stdout (1) or
 *   stderr (2) and returns how many more bytes that stream accepts (-1 once it is truncated)
 * @param {number} outputLimit cap of each stream, in bytes (a first guess until `write` answers)
 * @param {() => { inspect: (v: unknown, depth: number, seen: unknown[]) => string }} loadInspector
 */
function installConsole(write, outputLimit, loadInspector) {
  const stringify = JSON.stringify;
  /** @type {((v: unknown, depth: number, seen: unknown[]) => string) | null} */
  let inspector = null;
  /** @param {unknown} v @param {number} depth @param {unknown[]} seen */
  const inspect = (v, depth, seen) => (inspector ??= loadInspector().inspect)(v, depth, seen);
  /** A primitive as console.log prints it at the top level; anything else through the inspector. */
  const show = (/** @type {unknown} */ v) => {
    switch (typeof v) {
      case 'string':
        return v;
      case 'number':
        return Object.is(v, -0) ? '-0' : String(v);
      case 'bigint':
        return `${v}n`;
      case 'boolean':
      case 'undefined':
        return String(v);
    }
    return v === null ? 'null' : inspect(v, 0, []);
  };

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
    for (; i < args.length; i++) out += (out || i > 0 ? ' ' : '') + show(args[i]);
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
    dir: (v) => emit(1, `${show(v)}\n`),
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
  Object.defineProperty(globalThis, 'console', {
    value: console,
    writable: true,
    configurable: true,
    enumerable: false,
  });
}

module.exports = { installConsole };
