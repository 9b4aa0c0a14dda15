/**
 * Builds `{ cursor: { firstBatch | nextBatch: [...], id, ns }, ok: 1 }` directly from documents that
 * are already BSON. Each document is serialized exactly once (which also gives its size for the
 * batch limit), then spliced into the reply without a second encode of the whole batch.
 */

const TYPE_DOUBLE = 0x01;
const TYPE_STRING = 0x02;
const TYPE_DOCUMENT = 0x03;
const TYPE_ARRAY = 0x04;
const TYPE_INT64 = 0x12;

function cstringSize(s: string): number {
  return Buffer.byteLength(s) + 1;
}

export function encodeCursorReply(
  batchField: 'firstBatch' | 'nextBatch',
  docs: readonly Uint8Array[],
  cursorId: number,
  ns: string,
): Buffer {
  let arrayBody = 0;
  for (let i = 0; i < docs.length; i++) arrayBody += 1 + cstringSize(String(i)) + docs[i].byteLength;
  const arraySize = 4 + arrayBody + 1;
  const nsBytes = Buffer.byteLength(ns);
  const cursorSize =
    4 +
    (1 + cstringSize(batchField) + arraySize) +
    (1 + 3 + 8) + // id
    (1 + 3 + 4 + nsBytes + 1) + // ns
    1;
  const total = 4 + (1 + 7 + cursorSize) + (1 + 3 + 8) + 1;
  const out = Buffer.allocUnsafe(total);
  let p = 0;
  p = out.writeInt32LE(total, p);
  out[p++] = TYPE_DOCUMENT;
  p += out.write('cursor\0', p, 'latin1');
  p = out.writeInt32LE(cursorSize, p);
  out[p++] = TYPE_ARRAY;
  p += out.write(batchField, p, 'latin1');
  out[p++] = 0;
  p = out.writeInt32LE(arraySize, p);
  for (let i = 0; i < docs.length; i++) {
    out[p++] = TYPE_DOCUMENT;
    p += out.write(String(i), p, 'latin1');
    out[p++] = 0;
    out.set(docs[i], p);
    p += docs[i].byteLength;
  }
  out[p++] = 0; // end of array
  out[p++] = TYPE_INT64;
  p += out.write('id\0', p, 'latin1');
  p = out.writeBigInt64LE(BigInt(cursorId), p);
  out[p++] = TYPE_STRING;
  p += out.write('ns\0', p, 'latin1');
  p = out.writeInt32LE(nsBytes + 1, p);
  p += out.write(ns, p, 'utf8');
  out[p++] = 0;
  out[p++] = 0; // end of cursor
  out[p++] = TYPE_DOUBLE;
  p += out.write('ok\0', p, 'latin1');
  p = out.writeDoubleLE(1, p);
  out[p++] = 0;
  if (p !== total) throw new Error(`cursor reply size mismatch: ${p} != ${total}`);
  return out;
}
