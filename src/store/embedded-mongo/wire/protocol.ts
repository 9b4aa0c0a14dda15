import { deserialize, serialize, type Document } from 'bson';
import { rememberEncoded } from '../encoded-bytes';

/**
 * MongoDB wire protocol framing: the 16-byte header, OP_MSG (kind 0 body and kind 1 document
 * sequences, optional checksum), the legacy OP_QUERY used by the driver's first handshake, and the
 * two reply shapes (OP_MSG and OP_REPLY).
 */

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_COMPRESSED = 2012;
export const OP_MSG = 2013;

/** OP_MSG flag bits. */
export const MSG_CHECKSUM_PRESENT = 1 << 0;
export const MSG_MORE_TO_COME = 1 << 1;

export const HEADER_SIZE = 16;

/** Deserialization options for everything a client sends (Longs become numbers when they fit). */
export const WIRE_BSON_OPTIONS = { promoteLongs: true, promoteValues: true, promoteBuffers: false } as const;

export interface MessageHeader {
  length: number;
  requestId: number;
  responseTo: number;
  opCode: number;
}

/** A decoded client request, whichever opcode carried it. */
export interface ParsedRequest {
  header: MessageHeader;
  /** The command document, with kind-1 sequences merged in as arrays. */
  command: Document;
  /** Database from `$db` (OP_MSG) or from `<db>.$cmd` (OP_QUERY). */
  db: string;
  /** The client does not want a reply (OP_MSG moreToCome, i.e. w:0). */
  moreToCome: boolean;
  legacy: boolean;
}

export class ProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtocolError';
  }
}

export function readHeader(buf: Buffer): MessageHeader {
  return {
    length: buf.readInt32LE(0),
    requestId: buf.readInt32LE(4),
    responseTo: buf.readInt32LE(8),
    opCode: buf.readInt32LE(12),
  };
}

function readCString(buf: Buffer, offset: number, end: number): [string, number] {
  const zero = buf.indexOf(0, offset);
  if (zero < 0 || zero >= end) throw new ProtocolError('unterminated C string');
  return [buf.toString('utf8', offset, zero), zero + 1];
}

function bsonLength(buf: Buffer, offset: number, end: number): number {
  if (offset + 5 > end) throw new ProtocolError('truncated BSON document');
  const size = buf.readInt32LE(offset);
  if (size < 5 || offset + size > end) throw new ProtocolError('BSON document length out of bounds');
  return size;
}

/** Decodes one complete message (header included). Throws ProtocolError or a BSON error. */
export function parseRequest(msg: Buffer): ParsedRequest {
  const header = readHeader(msg);
  if (header.opCode === OP_MSG) return parseOpMsg(msg, header);
  if (header.opCode === OP_QUERY) return parseOpQuery(msg, header);
  throw new ProtocolError(`unsupported opcode ${header.opCode}`);
}

function parseOpMsg(msg: Buffer, header: MessageHeader): ParsedRequest {
  const flags = msg.readUInt32LE(HEADER_SIZE);
  // The checksum is optional and only protects against corruption on non-TLS links; loopback
  // traffic does not need it, so it is tolerated and skipped rather than verified.
  const end = flags & MSG_CHECKSUM_PRESENT ? msg.length - 4 : msg.length;
  let offset = HEADER_SIZE + 4;
  let body: Document | undefined;
  const sequences: Array<[string, Document[]]> = [];
  while (offset < end) {
    const kind = msg[offset];
    offset += 1;
    if (kind === 0) {
      const size = bsonLength(msg, offset, end);
      if (body) throw new ProtocolError('OP_MSG has more than one body section');
      body = deserialize(msg.subarray(offset, offset + size), WIRE_BSON_OPTIONS);
      offset += size;
    } else if (kind === 1) {
      if (offset + 4 > end) throw new ProtocolError('truncated document sequence');
      const size = msg.readInt32LE(offset);
      const seqEnd = offset + size;
      if (size < 5 || seqEnd > end) throw new ProtocolError('document sequence length out of bounds');
      const [identifier, docsStart] = readCString(msg, offset + 4, seqEnd);
      const docs: Document[] = [];
      let pos = docsStart;
      // The documents of an insert keep their bytes until journaled (../encoded-bytes.ts).
      const keepBytes = identifier === 'documents';
      while (pos < seqEnd) {
        const docSize = bsonLength(msg, pos, seqEnd);
        const bytes = msg.subarray(pos, pos + docSize);
        const doc = deserialize(bytes, WIRE_BSON_OPTIONS);
        if (keepBytes) rememberEncoded(doc, bytes);
        docs.push(doc);
        pos += docSize;
      }
      sequences.push([identifier, docs]);
      offset = seqEnd;
    } else {
      throw new ProtocolError(`unknown OP_MSG section kind ${kind}`);
    }
  }
  if (!body) throw new ProtocolError('OP_MSG without a body section');
  for (const [identifier, docs] of sequences) {
    if (identifier in body) throw new ProtocolError(`duplicate field '${identifier}' in body and sequence`);
    body[identifier] = docs;
  }
  const db = body.$db;
  if (typeof db !== 'string' || db === '') throw new ProtocolError('OP_MSG command without $db');
  return { header, command: body, db, moreToCome: (flags & MSG_MORE_TO_COME) !== 0, legacy: false };
}

function parseOpQuery(msg: Buffer, header: MessageHeader): ParsedRequest {
  let offset = HEADER_SIZE + 4; // flags
  const [fullName, afterName] = readCString(msg, offset, msg.length);
  offset = afterName + 8; // numberToSkip, numberToReturn
  const size = bsonLength(msg, offset, msg.length);
  let command = deserialize(msg.subarray(offset, offset + size), WIRE_BSON_OPTIONS);
  // Drivers wrap commands in `$query` when they add read preferences through OP_QUERY.
  if (command.$query && typeof command.$query === 'object') command = command.$query as Document;
  if (!fullName.endsWith('.$cmd'))
    throw new ProtocolError(`legacy OP_QUERY on '${fullName}' is not supported`);
  const db = fullName.slice(0, -'.$cmd'.length);
  return { header, command, db, moreToCome: false, legacy: true };
}

/** Serializes a reply document, once. */
export function encodeDocument(doc: Document): Buffer {
  const bytes = serialize(doc, { ignoreUndefined: true });
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Frames an encoded reply body as OP_MSG (or OP_REPLY for legacy requests): [header, body]. */
export function frameReply(requestId: number, responseTo: number, body: Buffer, legacy: boolean): Buffer[] {
  if (legacy) {
    const head = Buffer.allocUnsafe(HEADER_SIZE + 20);
    head.writeInt32LE(head.length + body.length, 0);
    head.writeInt32LE(requestId, 4);
    head.writeInt32LE(responseTo, 8);
    head.writeInt32LE(OP_REPLY, 12);
    head.writeInt32LE(0, 16); // responseFlags
    head.writeBigInt64LE(0n, 20); // cursorID
    head.writeInt32LE(0, 28); // startingFrom
    head.writeInt32LE(1, 32); // numberReturned
    return [head, body];
  }
  const head = Buffer.allocUnsafe(HEADER_SIZE + 5);
  head.writeInt32LE(head.length + body.length, 0);
  head.writeInt32LE(requestId, 4);
  head.writeInt32LE(responseTo, 8);
  head.writeInt32LE(OP_MSG, 12);
  head.writeUInt32LE(0, 16); // flagBits
  head[20] = 0; // section kind 0
  return [head, body];
}
