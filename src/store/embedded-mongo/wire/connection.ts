import type { Socket } from 'node:net';
import type { Document } from 'bson';
import { runCommand } from '../commands/dispatch';
import type { ServerContext } from '../commands/types';
import { ErrorCodes, MongoCommandError } from '../errors';
import { MAX_MESSAGE_SIZE_BYTES } from '../commands/handshake';
import {
  encodeDocument,
  frameReply,
  HEADER_SIZE,
  OP_MSG,
  OP_QUERY,
  parseRequest,
  readHeader,
  type ParsedRequest,
} from './protocol';

/**
 * One client connection: splits the byte stream into messages, runs them one at a time (like
 * mongod, a connection carries one operation at a time, so replies keep request order), and
 * writes the replies. A message that cannot be framed closes the connection; a message that can be
 * framed but not decoded gets an error reply.
 */
export class WireConnection {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private queue: Buffer[] = [];
  private running = false;
  private closed = false;
  private nextRequestId = 1;

  constructor(
    private readonly socket: Socket,
    readonly id: number,
    private readonly ctx: ServerContext,
  ) {
    // Replies are small and latency-bound; Nagle would hold them back waiting for the next ACK.
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (err) =>
      ctx.logger.debug({ err, connectionId: id }, 'embedded-mongo connection error'),
    );
    socket.on('close', () => {
      this.closed = true;
      this.queue = [];
    });
  }

  private onData(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    while (this.buffered >= 4) {
      const head = this.chunks[0].length >= 4 ? this.chunks[0] : this.concat();
      const length = head.readInt32LE(0);
      if (length < HEADER_SIZE + 1 || length > MAX_MESSAGE_SIZE_BYTES) {
        this.ctx.logger.warn(
          { connectionId: this.id, length },
          'embedded-mongo: bad message length, closing connection',
        );
        this.socket.destroy();
        return;
      }
      if (this.buffered < length) return;
      const all = this.concat();
      this.queue.push(all.subarray(0, length));
      const rest = all.subarray(length);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.buffered = rest.length;
    }
    if (!this.running) void this.drain();
  }

  private concat(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0];
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0 && !this.closed) {
        const msg = this.queue.shift()!;
        let reply: Buffer[] | undefined;
        try {
          const pending = this.handle(msg);
          reply = pending instanceof Promise ? await pending : pending;
        } catch (err) {
          // A bug must cost this connection, never the process.
          this.ctx.logger.error(
            { err, connectionId: this.id },
            'embedded-mongo: unexpected failure, closing connection',
          );
          this.socket.destroy();
          return;
        }
        if (reply && !this.closed) {
          // Header and body in one writev, without concatenating them first.
          this.socket.cork();
          for (const part of reply) this.socket.write(part);
          this.socket.uncork();
        }
      }
    } finally {
      this.running = false;
    }
  }

  private handle(msg: Buffer): Buffer[] | undefined | Promise<Buffer[] | undefined> {
    const header = readHeader(msg);
    if (header.opCode !== OP_MSG && header.opCode !== OP_QUERY) {
      // Legacy CRUD opcodes and OP_COMPRESSED (never offered in hello) have no sensible reply.
      this.ctx.logger.warn(
        { connectionId: this.id, opCode: header.opCode },
        'embedded-mongo: unsupported opcode, closing connection',
      );
      this.socket.destroy();
      return undefined;
    }
    let req: ParsedRequest;
    try {
      req = parseRequest(msg);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const reply = new MongoCommandError(ErrorCodes.InvalidBSON, `invalid message: ${message}`).toReply();
      return this.frame(header.requestId, reply, header.opCode === OP_QUERY);
    }
    const result = runCommand({ db: req.db, cmd: req.command, connectionId: this.id, ctx: this.ctx });
    if (result instanceof Promise) {
      return result.then((reply) =>
        req.moreToCome ? undefined : this.frame(header.requestId, reply, req.legacy),
      );
    }
    // w:0 (moreToCome): the client does not read a reply.
    return req.moreToCome ? undefined : this.frame(header.requestId, result, req.legacy);
  }

  private frame(responseTo: number, reply: Document | Buffer, legacy: boolean): Buffer[] {
    let body: Buffer;
    try {
      body = Buffer.isBuffer(reply) ? reply : encodeDocument(reply);
    } catch (err) {
      // For example a distinct or findAndModify result beyond 16 MiB.
      const message = `reply could not be encoded: ${(err as Error).message}`;
      body = encodeDocument(new MongoCommandError(ErrorCodes.BSONObjectTooLarge, message).toReply());
    }
    return frameReply(this.nextRequestId++, responseTo, body, legacy);
  }

  close(): void {
    this.closed = true;
    this.socket.destroy();
  }
}
