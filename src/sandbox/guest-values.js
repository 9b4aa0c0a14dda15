// @ts-check
'use strict';

/**
 * Reading values out of a QuickJS context without trusting them: every read checks the type first,
 * and no read copies more than the caps allow.
 *
 * @typedef {import('quickjs-emscripten').QuickJSContext} QuickJSContext
 * @typedef {import('quickjs-emscripten').QuickJSHandle} QuickJSHandle
 * @typedef {{ read(handle: QuickJSHandle): string }} StringReader reads a guest string exactly (guest-strings.js)
 */

/**
 * The JSON value of the script's last expression. Primitives are read directly; objects go through
 * the guest's own JSON.stringify (toJSON and all), whose text is size-checked before it is copied.
 * @param {QuickJSContext} ctx
 * @param {QuickJSHandle} value
 * @param {number} limitBytes cap of the JSON text
 * @param {number} maxDepth deepest nesting of arrays and objects accepted (JSON_DEPTH_LIMIT)
 * @param {(handle: QuickJSHandle) => QuickJSHandle} own registers a handle to dispose with the run
 * @param {StringReader} strings
 * @returns {{ kind: 'value', value: unknown } | { kind: 'none' | 'too_large' | 'too_deep' | 'failed' }}
 */
function readResult(ctx, value, limitBytes, maxDepth, own, strings) {
  const type = ctx.typeof(value);
  if (type === 'number') {
    const n = ctx.getNumber(value);
    return { kind: 'value', value: Number.isFinite(n) ? n : null };
  }
  if (type === 'boolean') return { kind: 'value', value: ctx.dump(value) === true };
  let json = value;
  if (type === 'object') {
    const JSONObject = own(ctx.getProp(ctx.global, 'JSON'));
    const stringify = own(ctx.getProp(JSONObject, 'stringify'));
    const called = ctx.callFunction(stringify, JSONObject, value);
    if (called.error) {
      own(called.error);
      return { kind: 'failed' };
    }
    json = own(called.value);
  } else if (type !== 'string') {
    return { kind: 'none' }; // undefined, function, symbol, bigint: no JSON value
  }
  if (ctx.typeof(json) !== 'string') return { kind: 'none' };
  // A UTF-16 unit is at least one UTF-8 byte: too many units is too many bytes, without a copy.
  if (ctx.getNumber(own(ctx.getProp(json, 'length'))) > limitBytes) return { kind: 'too_large' };
  const text = strings.read(json);
  if (Buffer.byteLength(text, 'utf8') > limitBytes) return { kind: 'too_large' };
  if (type === 'string') return { kind: 'value', value: text };
  // Checked on the text, before it is parsed: a value nested thousands deep would overflow the
  // stack of whatever walks it next (the structured clone to the main thread, the HTTP answer).
  if (jsonDepthExceeds(text, maxDepth)) return { kind: 'too_deep' };
  try {
    return { kind: 'value', value: JSON.parse(text) };
  } catch {
    return { kind: 'none' }; // the script replaced JSON.stringify with something that is not JSON
  }
}

/**
 * Whether the JSON text nests arrays and objects deeper than `maxDepth` (`[]` is depth 1, `[[]]`
 * depth 2). Brackets inside strings do not count. Linear, without recursion.
 * @param {string} text valid JSON
 * @param {number} maxDepth
 */
function jsonDepthExceeds(text, maxDepth) {
  // Each level takes two characters at least: a short text cannot be too deep.
  if (text.length <= 2 * maxDepth) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * A string property of a thrown value, if it has one.
 * @param {QuickJSContext} ctx @param {QuickJSHandle} error @param {string} key
 * @param {StringReader} [strings] to read it exactly (default: the plain, possibly lossy, copy)
 * @returns {string | undefined}
 */
function stringProp(ctx, error, key, strings) {
  try {
    if (ctx.typeof(error) !== 'object') return undefined;
    const prop = ctx.getProp(error, key);
    try {
      if (ctx.typeof(prop) !== 'string') return undefined;
      return strings ? strings.read(prop) : ctx.getString(prop);
    } finally {
      prop.dispose();
    }
  } catch {
    return undefined;
  }
}

/** @param {QuickJSContext} ctx @param {QuickJSHandle} error */
const errorMessage = (ctx, error) => stringProp(ctx, error, 'message');
/** @param {QuickJSContext} ctx @param {QuickJSHandle} error */
const errorName = (ctx, error) => stringProp(ctx, error, 'name');

/**
 * Used when the guest cannot describe its own error (it is out of time or memory).
 * @param {QuickJSContext} ctx @param {QuickJSHandle} error @param {StringReader} strings
 */
function fallbackDescription(ctx, error, strings) {
  if (ctx.typeof(error) === 'string') return `Uncaught '${strings.read(error).slice(0, 1000)}'`;
  const name = stringProp(ctx, error, 'name', strings);
  const message = stringProp(ctx, error, 'message', strings);
  if (name || message) return `${name ?? 'Error'}${message ? `: ${message}` : ''}`;
  return 'Uncaught exception';
}

module.exports = { readResult, jsonDepthExceeds, errorMessage, errorName, fallbackDescription };
