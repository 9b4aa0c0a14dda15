import { pipeline, type Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/**
 * Reads a response body up to a cap and turns it into the tool's `body` string. The cap applies to
 * decoded bytes (after gzip, deflate or br), so a small compressed body cannot expand past it; the
 * rest is never read (the stream is destroyed, which closes the connection).
 */

export interface ReadBody {
  buffer: Buffer;
  truncated: boolean;
  /** True when a content coding was removed (the Content-Encoding header no longer applies). */
  decoded: boolean;
}

function decoderFor(contentEncoding: string | undefined): Transform | undefined {
  switch ((contentEncoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      // identity, none, or a coding (or chain of codings) not supported: the bytes are returned as is.
      return undefined;
  }
}

/** Reads at most `maxBytes` decoded bytes of `body`. Rejects with the stream's error (abort, reset, bad gzip). */
export async function readBody(
  body: Readable,
  maxBytes: number,
  contentEncoding?: string,
  /** Told the decoded bytes read so far after each chunk (progress of a tool call). */
  onBytes?: (bytes: number) => void,
): Promise<ReadBody> {
  const decoder = decoderFor(contentEncoding);
  // Destroying a body early (at the cap) makes undici emit an abort error after we stopped listening.
  body.on('error', () => undefined);
  const source: Readable = decoder ? pipeline(body, decoder, () => undefined) : body;
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of source) {
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      const room = maxBytes - size;
      if (bytes.length > room) {
        if (room > 0) chunks.push(bytes.subarray(0, room));
        size += Math.max(room, 0);
        truncated = true;
        break;
      }
      chunks.push(bytes);
      size += bytes.length;
      onBytes?.(size);
    }
  } finally {
    if (truncated || !source.readableEnded) source.destroy();
    if (!body.destroyed && (truncated || !body.readableEnded)) body.destroy();
  }
  return { buffer: Buffer.concat(chunks, size), truncated, decoded: decoder !== undefined };
}

// Media types that are text whatever their bytes; other types are tried as UTF-8.
const TEXT_TYPE =
  /^(text\/|application\/(json|xml|javascript|ecmascript|x-www-form-urlencoded|graphql|x-ndjson|yaml|x-yaml|sql)$)|\+(json|xml)$/;
// Media types that are binary whatever their bytes.
const BINARY_TYPE =
  /^(image\/(?!svg\+xml)|audio\/|video\/|font\/|application\/(octet-stream|pdf|zip|gzip|x-tar|x-7z-compressed|wasm|x-protobuf|protobuf|vnd\.))/;

/** `body` and `bodyEncoding` of the result: UTF-8 text when the bytes are text, base64 otherwise. */
export function encodeBody(
  buffer: Buffer,
  contentType: string | undefined,
  truncated: boolean,
): { body: string; bodyEncoding: 'utf8' | 'base64' } {
  const [mediaType = '', ...params] = (contentType ?? '').toLowerCase().split(';');
  const type = mediaType.trim();
  const charset = params
    .map((p) => p.trim())
    .find((p) => p.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/^"|"$/g, '');
  const base64 = { body: buffer.toString('base64'), bodyEncoding: 'base64' as const };
  if (BINARY_TYPE.test(type)) return base64;
  try {
    // `stream: true` leaves out a multi-byte character cut by the cap instead of failing on it.
    const text = new TextDecoder(charset || 'utf-8', { fatal: true }).decode(buffer, { stream: truncated });
    if (!TEXT_TYPE.test(type) && text.includes('\u0000')) return base64;
    return { body: text, bodyEncoding: 'utf8' };
  } catch {
    // Not valid in its charset, or a charset this runtime does not know.
    return base64;
  }
}
