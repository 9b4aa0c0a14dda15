import net from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { parseSseBlock, type SseEvent } from './http-client';

/** Where the requests go: a loopback host and port. */
export interface Target {
  host: string;
  port: number;
}

/** What one streamed request gave. */
export interface RawStreamResult {
  status: number;
  /** The events in order (a non-200 answer has none). */
  events: SseEvent[];
  /** The body as text when the answer was not 200 (a few hundred characters, to explain it). */
  errorBody?: string;
}

export function targetOf(url: string): Target {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port) };
}

/**
 * One `POST` whose answer is an event stream, on a connection of its own, over a plain socket.
 *
 * Why not undici: at 1,000 new connections at once, the client's own CPU decides the figure. With
 * undici's pool the benchmark process spent about 0.6 ms of CPU per stream, so that even a bare
 * `node:http` server answering three fixed events showed a first-event p99 of about 400 ms on two
 * cores. This client writes one prepared request and parses the answer (`Content-Length` or
 * chunked, then the events) with a fraction of that, so the figure measures the service. The bare
 * server is measured with this same client in the same run (`bare-sse.child.ts`), as the floor.
 */
export function postStream(
  target: Target,
  path: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<RawStreamResult> {
  return requestStream(target, 'POST', path, headers, body, timeoutMs);
}

/**
 * One request whose answer is an event stream (`POST` with a body, or `GET` without), on a
 * connection of its own, over a plain socket; `onEvent` sees each event as it arrives. Resolves
 * once the answer is complete; rejects on a transport error, an early close or `timeoutMs`.
 */
export function requestStream(
  target: Target,
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs: number,
  onEvent?: (event: SseEvent) => void,
): Promise<RawStreamResult> {
  let head = `${method} ${path} HTTP/1.1\r\nhost: ${target.host}:${target.port}\r\nconnection: close\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  const request =
    body === undefined ? `${head}\r\n` : `${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  return new Promise<RawStreamResult>((resolve, reject) => {
    const socket = net.connect(target.port, target.host, () => socket.write(request));
    socket.setNoDelay(true);
    const parser = new ResponseParser(onEvent);
    let settled = false;
    const settle = (err?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err);
      else resolve(parser.result());
    };
    const timer = setTimeout(() => settle(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      try {
        if (parser.push(chunk, Date.now())) settle();
      } catch (err) {
        settle(err as Error);
      }
    });
    socket.on('error', (err) => settle(err));
    socket.on('close', () => (parser.complete ? settle() : settle(new Error('the connection closed early'))));
  });
}

/** An HTTP/1.1 answer read incrementally: status line, headers, a sized or chunked body of events. */
class ResponseParser {
  status = 0;
  complete = false;
  private buffer: Buffer = Buffer.alloc(0);
  private headersDone = false;
  private chunked = false;
  private remaining = -1; // Content-Length left, or -1 when the body is chunked / read to close
  private text = '';
  private readonly decoder = new StringDecoder('utf8');
  private readonly events: SseEvent[] = [];

  constructor(private readonly onEvent?: (event: SseEvent) => void) {}

  /** Takes bytes that arrived at `at`; true once the body is complete. */
  push(chunk: Buffer, at: number): boolean {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    if (!this.headersDone) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) return false;
      const lines = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
      this.status = Number(lines[0]?.split(' ')[1] ?? 0);
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        if (name === 'transfer-encoding' && value.toLowerCase().includes('chunked')) this.chunked = true;
        if (name === 'content-length') this.remaining = Number(value);
      }
      this.headersDone = true;
      this.buffer = this.buffer.subarray(end + 4);
    }
    if (this.chunked) return this.readChunks(at);
    const take = this.remaining >= 0 ? Math.min(this.remaining, this.buffer.length) : this.buffer.length;
    this.body(this.decoder.write(this.buffer.subarray(0, take)), at);
    if (this.remaining >= 0) this.remaining -= take;
    this.buffer = Buffer.alloc(0);
    this.complete = this.remaining === 0;
    return this.complete;
  }

  result(): RawStreamResult {
    return this.status === 200
      ? { status: this.status, events: this.events }
      : { status: this.status, events: [], errorBody: this.text.slice(0, 300) };
  }

  private readChunks(at: number): boolean {
    for (;;) {
      const lineEnd = this.buffer.indexOf('\r\n');
      if (lineEnd < 0) return false;
      const size = Number.parseInt(this.buffer.subarray(0, lineEnd).toString('latin1'), 16);
      if (size === 0) {
        this.complete = true;
        return true;
      }
      if (this.buffer.length < lineEnd + 2 + size + 2) return false;
      this.body(this.buffer.subarray(lineEnd + 2, lineEnd + 2 + size).toString('utf8'), at);
      this.buffer = this.buffer.subarray(lineEnd + 2 + size + 2);
    }
  }

  /** Body text: kept as is for an error, split into events for a 200. */
  private body(text: string, at: number): void {
    this.text += text;
    if (this.status !== 200) return;
    for (let end = this.text.indexOf('\n\n'); end >= 0; end = this.text.indexOf('\n\n')) {
      const event = parseSseBlock(this.text.slice(0, end), at);
      this.text = this.text.slice(end + 2);
      if (event) {
        this.events.push(event);
        this.onEvent?.(event);
      }
    }
  }
}
