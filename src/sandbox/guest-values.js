// @ts-check
'use strict';

/**
 * Reading values out of a QuickJS context without trusting them: every read checks the type first,
 * and no read copies more than the caps allow.
 *
 * @typedef {import('quickjs-emscripten').QuickJSContext} QuickJSContext
 * @typedef {import('quickjs-emscripten').QuickJSHandle} QuickJSHandle
 */

/**
 * The JSON value of the script's last expression. Primitives are read directly; objects go through
 * the guest's own JSON.stringify (toJSON and all), whose text is size-checked before it is copied.
 * @param {QuickJSContext} ctx
 * @param {QuickJSHandle} value
 * @param {number} limitBytes cap of the JSON text
 * @param {(handle: QuickJSHandle) => QuickJSHandle} own registers a handle to dispose with the run
 * @returns {{ kind: 'value', value: unknown } | { kind: 'none' | 'too_large' | 'failed' }}
 */
function readResult(ctx, value, limitBytes, own) {
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
  const text = ctx.getString(json);
  if (Buffer.byteLength(text, 'utf8') > limitBytes) return { kind: 'too_large' };
  if (type === 'string') return { kind: 'value', value: text };
  try {
    return { kind: 'value', value: JSON.parse(text) };
  } catch {
    return { kind: 'none' }; // the script replaced JSON.stringify with something that is not JSON
  }
}

/**
 * A string property of a thrown value, if it has one.
 * @param {QuickJSContext} ctx @param {QuickJSHandle} error @param {string} key
 * @returns {string | undefined}
 */
function stringProp(ctx, error, key) {
  try {
    if (ctx.typeof(error) !== 'object') return undefined;
    const prop = ctx.getProp(error, key);
    try {
      return ctx.typeof(prop) === 'string' ? ctx.getString(prop) : undefined;
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
 * @param {QuickJSContext} ctx @param {QuickJSHandle} error
 */
function fallbackDescription(ctx, error) {
  if (ctx.typeof(error) === 'string') return `Uncaught '${ctx.getString(error).slice(0, 1000)}'`;
  const name = errorName(ctx, error);
  const message = errorMessage(ctx, error);
  if (name || message) return `${name ?? 'Error'}${message ? `: ${message}` : ''}`;
  return 'Uncaught exception';
}

module.exports = { readResult, errorMessage, errorName, fallbackDescription };
