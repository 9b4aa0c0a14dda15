// @ts-check
'use strict';

/*
 * Guest code, evaluated inside QuickJS from its source text (Function#toString): it must not use
 * anything from this module's scope or from Node.js. See guest-lazy.js for how it is loaded.
 */

/**
 * Node-like formatting of any value (util.inspect on one line: depth 2, 100 items, circular refs),
 * and the text of an uncaught exception. Pure: defines no global.
 * @returns {{ inspect: (v: unknown, depth: number, seen: unknown[]) => string,
 *   describe: (error: unknown) => string }}
 */
function createInspector() {
  const MAX_ITEMS = 100;
  const MAX_DEPTH = 2;
  const MAX_NESTED_STRING = 10000;
  const MAX_FRAMES = 20;

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

  /** The text printed for an uncaught exception (the stack capped at MAX_FRAMES frames). */
  function describe(/** @type {unknown} */ error) {
    if (error instanceof Error) return inspect(error, 0, []);
    return `Uncaught ${inspect(error, 1, [])}`;
  }

  return { inspect, describe };
}

module.exports = { createInspector };
