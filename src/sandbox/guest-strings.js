// @ts-check
'use strict';

/**
 * Strings between the host and a QuickJS context, every UTF-16 code unit kept.
 *
 * quickjs-emscripten copies strings as NUL-terminated UTF-8: a NUL ends the copy (`'abc\0def'`
 * arrives as `'abc'`), and a lone surrogate, valid in a JavaScript string but not in UTF-8, arrives
 * as U+FFFD replacement characters (into the guest, `stringToUTF8` may even merge it with the next
 * unit). Output, results and error messages must keep what the script wrote, so:
 *
 * - reading: the plain copy is kept when it has the guest string's own length and no U+FFFD (a
 *   lossy copy is always shorter, from a NUL, or holds U+FFFD, from a surrogate); otherwise the
 *   string is read again through the guest's `escape()`, whose output is ASCII (`%00`, `%uD800`,
 *   `%E9`), and `unescape()`d here. Both are Annex B functions that work on code units, so the
 *   round trip is exact.
 * - writing: a string with a NUL or a lone surrogate is passed `escape()`d and `unescape()`d in the
 *   guest.
 *
 * The guest's `escape` and `unescape` are taken when the context is created, before any script
 * runs: a script that replaces the globals does not change what these functions call.
 *
 * @typedef {import('quickjs-emscripten').QuickJSContext} QuickJSContext
 * @typedef {import('quickjs-emscripten').QuickJSHandle} QuickJSHandle
 */

const REPLACEMENT = '\uFFFD';
/** A NUL, or a surrogate without its other half. */
const NEEDS_ESCAPE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

class GuestStrings {
  /**
   * @param {QuickJSContext} ctx a fresh context (no script has run in it yet)
   * @param {(handle: QuickJSHandle) => QuickJSHandle} own registers a handle to dispose with the run
   */
  constructor(ctx, own) {
    this.ctx = ctx;
    this.escape = own(ctx.getProp(ctx.global, 'escape'));
    this.unescape = own(ctx.getProp(ctx.global, 'unescape'));
  }

  /**
   * The guest string `handle` (the caller checked its type), exactly.
   * @param {QuickJSHandle} handle
   * @returns {string}
   */
  read(handle) {
    const { ctx } = this;
    const copy = ctx.getString(handle);
    if (copy.length === ctx.getLength(handle) && !copy.includes(REPLACEMENT)) return copy;
    const escaped = ctx.callFunction(this.escape, ctx.undefined, handle);
    if (escaped.error) {
      // Only when the guest is out of memory (the escaped text is up to 6 times longer): the lossy
      // copy is all there is.
      escaped.error.dispose();
      return copy;
    }
    const text = escaped.value.consume((v) => (ctx.typeof(v) === 'string' ? ctx.getString(v) : undefined));
    return text === undefined ? copy : unescape(text);
  }

  /**
   * A new guest string equal to `text` (the caller disposes it).
   * @param {string} text
   * @returns {QuickJSHandle}
   */
  make(text) {
    const { ctx } = this;
    if (!NEEDS_ESCAPE.test(text)) return ctx.newString(text);
    const escaped = ctx.newString(escape(text));
    try {
      return ctx.unwrapResult(ctx.callFunction(this.unescape, ctx.undefined, escaped));
    } finally {
      escaped.dispose();
    }
  }
}

module.exports = { GuestStrings };
