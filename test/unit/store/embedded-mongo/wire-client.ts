import { connect, type Socket } from 'node:net';
import { deserialize, serialize, type Document } from 'bson';

/** A raw wire-protocol client for tests: builds messages by hand and reads replies. */
export class RawClient {
  private buffered = Buffer.alloc(0);
  private waiters: Array<(msg: Buffer) => void> = [];
  private inbox: Buffer[] = [];
  private closedFlag = false;
  private nextId = 1;

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      while (this.buffered.length >= 4 && this.buffered.length >= this.buffered.readInt32LE(0)) {
        const len = this.buffered.readInt32LE(0);
        const msg = this.buffered.subarray(0, len);
        this.buffered = this.buffered.subarray(len);
        const waiter = this.waiters.shift();
        if (waiter) waiter(msg);
        else this.inbox.push(msg);
      }
    });
    socket.on('close', () => (this.closedFlag = true));
    socket.on('error', () => undefined);
  }

  static async open(port: number): Promise<RawClient> {
    const socket = connect({ host: '127.0.0.1', port });
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    return new RawClient(socket);
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  /** Next reply (header included), or rejects after `ms`. */
  reply(ms = 2000): Promise<Buffer> {
    const ready = this.inbox.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no reply')), ms);
      this.waiters.push((m) => {
        clearTimeout(timer);
        resolve(m);
      });
    });
  }

  waitClosed(ms = 2000): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.closedFlag) return resolve();
      const timer = setTimeout(() => reject(new Error('still open')), ms);
      this.socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  send(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  /** An OP_MSG: body plus optional kind-1 sequences, flags, checksum. */
  opMsg(
    body: Document,
    opts: { sequences?: Array<[string, Document[]]>; flags?: number; checksum?: boolean } = {},
  ): Buffer {
    const parts: Buffer[] = [Buffer.from([0]), Buffer.from(serialize(body))];
    for (const [id, docs] of opts.sequences ?? []) {
      const payload = Buffer.concat([Buffer.from(`${id}\0`), ...docs.map((d) => Buffer.from(serialize(d)))]);
      const size = Buffer.alloc(4);
      size.writeInt32LE(payload.length + 4);
      parts.push(Buffer.from([1]), size, payload);
    }
    const flags = (opts.flags ?? 0) | (opts.checksum ? 1 : 0);
    const bodyBytes = Buffer.concat(parts);
    const total = 16 + 4 + bodyBytes.length + (opts.checksum ? 4 : 0);
    const head = Buffer.alloc(20);
    head.writeInt32LE(total, 0);
    head.writeInt32LE(this.nextId++, 4);
    head.writeInt32LE(0, 8);
    head.writeInt32LE(2013, 12);
    head.writeUInt32LE(flags, 16);
    return Buffer.concat([head, bodyBytes, opts.checksum ? Buffer.from([1, 2, 3, 4]) : Buffer.alloc(0)]);
  }

  /** A legacy OP_QUERY command on `<db>.$cmd`. */
  opQuery(db: string, command: Document): Buffer {
    const name = Buffer.from(`${db}.$cmd\0`);
    const doc = Buffer.from(serialize(command));
    const head = Buffer.alloc(20);
    const tail = Buffer.alloc(8);
    tail.writeInt32LE(0, 0);
    tail.writeInt32LE(-1, 4);
    head.writeInt32LE(20 + name.length + 8 + doc.length, 0);
    head.writeInt32LE(this.nextId++, 4);
    head.writeInt32LE(0, 8);
    head.writeInt32LE(2004, 12);
    head.writeInt32LE(0, 16);
    return Buffer.concat([head, name, tail, doc]);
  }

  close(): void {
    this.socket.destroy();
  }
}

/** The document of an OP_MSG reply. */
export function msgBody(reply: Buffer): Document {
  expect(reply.readInt32LE(12)).toBe(2013);
  expect(reply[20]).toBe(0);
  return deserialize(reply.subarray(21));
}

/** The first document of an OP_REPLY. */
export function replyBody(reply: Buffer): Document {
  expect(reply.readInt32LE(12)).toBe(1);
  expect(reply.readInt32LE(32)).toBe(1);
  return deserialize(reply.subarray(36));
}
