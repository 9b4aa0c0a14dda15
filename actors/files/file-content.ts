import { createHash } from 'node:crypto';
import { AppError, errors } from '../../schemas/errors';
import type { ContentEncoding } from '../../schemas/documents/file';
import { isStrictBase64 } from '../../schemas/tools/fs';

/** Content as a caller gives it: `data` (base64 unless `contentEncoding` says utf8) or `content` (text). */
export interface ContentInput {
  data?: string;
  content?: string;
  contentEncoding?: ContentEncoding;
}

/** Decoded content and the encoding it came in (the default encoding of later reads). */
export interface DecodedContent {
  bytes: Buffer;
  contentEncoding: ContentEncoding;
}

function tooLarge(size: number, maxBytes: number): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `File content is ${size} bytes; the limit is ${maxBytes} bytes`, {
    size,
    maxBytes,
  });
}

/**
 * Decodes content, checking the size before decoding anything. Exactly one of `data` and
 * `content` (VALIDATION_ERROR otherwise); invalid base64 is VALIDATION_ERROR; more than `maxBytes`
 * decoded bytes is PAYLOAD_TOO_LARGE (413) with `{ size, maxBytes }`.
 */
export function decodeContent(input: ContentInput, maxBytes: number): DecodedContent {
  const { data, content } = input;
  if ((data === undefined) === (content === undefined)) {
    throw errors.validation('Give exactly one of data (base64) or content (utf8)', { field: 'data' });
  }
  if (content !== undefined) {
    if (typeof content !== 'string')
      throw errors.validation('content must be a string', { field: 'content' });
    if (input.contentEncoding === 'base64') {
      throw errors.validation('content is UTF-8 text: send base64 as data', { field: 'contentEncoding' });
    }
    return { bytes: utf8(content, maxBytes), contentEncoding: 'utf8' };
  }
  if (typeof data !== 'string') throw errors.validation('data must be a string', { field: 'data' });
  const encoding = input.contentEncoding ?? 'base64';
  if (encoding === 'utf8') return { bytes: utf8(data, maxBytes), contentEncoding: 'utf8' };
  if (!isStrictBase64(data)) throw errors.validation('data is not valid base64', { field: 'data' });
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  const size = Math.floor((data.length * 3) / 4) - padding;
  if (size > maxBytes) throw tooLarge(size, maxBytes);
  return { bytes: Buffer.from(data, 'base64'), contentEncoding: 'base64' };
}

function utf8(text: string, maxBytes: number): Buffer {
  // A UTF-16 code unit is at most 3 UTF-8 bytes: skip the exact count for obviously small text.
  if (text.length * 3 > maxBytes) {
    const size = Buffer.byteLength(text, 'utf8');
    if (size > maxBytes) throw tooLarge(size, maxBytes);
  }
  return Buffer.from(text, 'utf8');
}

/**
 * Bytes as a string in `encoding`. UTF-8 is decoded strictly: bytes that are not valid UTF-8 are
 * a VALIDATION_ERROR telling the caller to read them as base64 (never silently replaced).
 */
export function encodeContent(bytes: Buffer, encoding: ContentEncoding): string {
  if (encoding === 'base64') return bytes.toString('base64');
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw errors.validation('The file is not valid UTF-8 text: read it with encoding base64', {
      field: 'encoding',
    });
  }
}

export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

const TYPES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    txt: 'text/plain',
    log: 'text/plain',
    md: 'text/markdown',
    csv: 'text/csv',
    tsv: 'text/tab-separated-values',
    html: 'text/html',
    htm: 'text/html',
    css: 'text/css',
    js: 'text/javascript',
    mjs: 'text/javascript',
    cjs: 'text/javascript',
    ts: 'text/x-typescript',
    py: 'text/x-python',
    sh: 'text/x-shellscript',
    sql: 'application/sql',
    json: 'application/json',
    jsonl: 'application/jsonl',
    xml: 'application/xml',
    yaml: 'application/yaml',
    yml: 'application/yaml',
    toml: 'application/toml',
    svg: 'image/svg+xml',
    png: 'image/png',
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    gif: 'image/gif',
    webp: 'image/webp',
    ico: 'image/x-icon',
    pdf: 'application/pdf',
    zip: 'application/zip',
    gz: 'application/gzip',
    tar: 'application/x-tar',
    wasm: 'application/wasm',
    mp3: 'audio/mpeg',
    wav: 'audio/wav',
    mp4: 'video/mp4',
  }),
);

/**
 * A content type guessed from the file name's extension; without a known extension, text/plain
 * for content written as UTF-8 and application/octet-stream otherwise. A guess, never sniffed.
 */
export function guessContentType(path: string, encoding: ContentEncoding): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  const known = dot > 0 ? TYPES.get(name.slice(dot + 1).toLowerCase()) : undefined;
  return known ?? (encoding === 'utf8' ? 'text/plain' : 'application/octet-stream');
}

/** Cuts UTF-8 bytes at `max` without splitting a character. */
export function utf8Prefix(bytes: Buffer, max: number): Buffer {
  if (bytes.length <= max) return bytes;
  let end = max;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end);
}

/** Whether the bytes are valid UTF-8 (a preview shows text only then). */
export function isUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}
