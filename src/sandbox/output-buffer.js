// @ts-check
'use strict';

/** Size of the note (uncaught error, reason of a stop) that may follow a full stream. */
const NOTE_LIMIT_BYTES = 4096;

/**
 * One output stream of a run (stdout or stderr), capped in UTF-8 bytes. Once the cap is hit the rest
 * is dropped and `truncated` is set; a cut never splits a character.
 */
class OutputBuffer {
  /** @param {number} limitBytes */
  constructor(limitBytes) {
    this.limit = limitBytes;
    this.bytes = 0;
    this.truncated = false;
    /** @type {string[]} */
    this.chunks = [];
  }

  /**
   * Appends text as far as the cap allows.
   * @param {string} text
   * @returns {number} bytes the stream still accepts, or -1 once something was cut (nothing more is kept)
   */
  append(text) {
    if (this.truncated) return -1;
    const room = this.limit - this.bytes;
    const size = Buffer.byteLength(text, 'utf8');
    if (size <= room) {
      this.chunks.push(text);
      this.bytes += size;
      return room - size;
    }
    const cut = cutUtf8(text, room);
    this.chunks.push(cut);
    this.bytes += Buffer.byteLength(cut, 'utf8');
    this.truncated = true;
    return -1;
  }

  /**
   * Appends a note from the sandbox itself, even past the cap (bounded by NOTE_LIMIT_BYTES), so the
   * reason a run ended is never lost behind a script's own output.
   * @param {string} text
   */
  note(text) {
    const joined = this.chunks.length === 0 || this.chunks[this.chunks.length - 1].endsWith('\n') ? '' : '\n';
    const line = text.endsWith('\n') ? text : `${text}\n`;
    this.chunks.push(joined + cutUtf8(line, NOTE_LIMIT_BYTES));
  }

  /** @returns {string} */
  text() {
    return this.chunks.join('');
  }
}

/**
 * The longest prefix of `text` that fits in `maxBytes` of UTF-8 without splitting a character. A
 * lone surrogate counts 3 bytes (what `Buffer.byteLength` counts for it) and is kept as it is: the
 * text is cut, never transcoded.
 * @param {string} text
 * @param {number} maxBytes
 */
function cutUtf8(text, maxBytes) {
  // A UTF-16 unit takes at least one byte: past `maxBytes` units nothing fits.
  if (text.length <= maxBytes && Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  let bytes = 0;
  let end = 0;
  while (end < text.length) {
    const c = text.charCodeAt(end);
    let size = 1;
    let units = 1;
    if (c >= 0x800) {
      const pair = c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(end + 1) & 0xfc00) === 0xdc00;
      size = pair ? 4 : 3;
      units = pair ? 2 : 1;
    } else if (c >= 0x80) size = 2;
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += units;
  }
  return text.slice(0, end);
}

module.exports = { OutputBuffer, cutUtf8 };
