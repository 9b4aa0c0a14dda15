import { readSync } from 'node:fs';
import { crc32 } from 'node:zlib';

/**
 * Journal framing. A journal file is a 16-byte magic header followed by records:
 *
 *   u32 LE payload length | u32 LE CRC-32 of the payload | payload (one BSON document)
 *
 * A record whose header or payload is cut short, or whose checksum does not match, marks the end of
 * the usable journal: it can only be the write that was in flight when the process died (it was
 * never acknowledged, since acknowledgement waits for fsync).
 */

export const JOURNAL_MAGIC = Buffer.from('EMBEDDED-MONGO01', 'latin1');
export const RECORD_HEADER_SIZE = 8;
/** Upper bound of one record: a 16 MiB document plus the record's own fields. */
export const MAX_RECORD_SIZE = 17 * 1024 * 1024;

/** Header + payload, ready for writev. */
export function frameRecord(payload: Uint8Array): Buffer[] {
  const header = Buffer.allocUnsafe(RECORD_HEADER_SIZE);
  header.writeUInt32LE(payload.byteLength, 0);
  header.writeUInt32LE(crc32(payload), 4);
  return [header, Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength)];
}

/** Where reading stopped, for the log and for deciding whether to keep a copy of the old file. */
export interface ReadOutcome {
  records: number;
  /** Bytes of the file that form valid records (magic included). */
  validBytes: number;
  /** Bytes after the last valid record (a torn or corrupt tail); 0 for a clean file. */
  ignoredBytes: number;
}

const CHUNK = 4 * 1024 * 1024;

/**
 * Reads every valid record of an open journal file, in order, in bounded memory.
 * Throws if the file does not start with the magic header (not a journal of ours).
 */
export function readRecords(fd: number, fileSize: number, onRecord: (payload: Buffer) => void): ReadOutcome {
  if (fileSize === 0) return { records: 0, validBytes: 0, ignoredBytes: 0 };
  const magic = Buffer.alloc(JOURNAL_MAGIC.length);
  const got = readSync(fd, magic, 0, magic.length, 0);
  if (got < magic.length) return { records: 0, validBytes: 0, ignoredBytes: fileSize };
  if (!magic.equals(JOURNAL_MAGIC)) throw new Error('journal file has an unknown format (bad magic header)');
  let filePos = magic.length;
  let buf = Buffer.alloc(0);
  let bufStart = filePos; // file offset of buf[0]
  let records = 0;
  let validEnd = filePos;
  const fill = (need: number): boolean => {
    while (buf.length < need) {
      const remaining = fileSize - filePos;
      if (remaining <= 0) return false;
      const chunk = Buffer.allocUnsafe(Math.min(Math.max(CHUNK, need - buf.length), remaining));
      const n = readSync(fd, chunk, 0, chunk.length, filePos);
      if (n <= 0) return false;
      filePos += n;
      buf = buf.length === 0 ? chunk.subarray(0, n) : Buffer.concat([buf, chunk.subarray(0, n)]);
    }
    return true;
  };
  for (;;) {
    if (!fill(RECORD_HEADER_SIZE)) break;
    const length = buf.readUInt32LE(0);
    const sum = buf.readUInt32LE(4);
    if (length < 5 || length > MAX_RECORD_SIZE) break;
    if (!fill(RECORD_HEADER_SIZE + length)) break;
    const payload = buf.subarray(RECORD_HEADER_SIZE, RECORD_HEADER_SIZE + length);
    if (crc32(payload) !== sum) break;
    onRecord(payload);
    records += 1;
    buf = buf.subarray(RECORD_HEADER_SIZE + length);
    bufStart += RECORD_HEADER_SIZE + length;
    validEnd = bufStart;
  }
  return { records, validBytes: validEnd, ignoredBytes: fileSize - validEnd };
}
