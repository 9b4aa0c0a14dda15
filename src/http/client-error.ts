import { maxHeaderSize } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorCode } from '../../schemas/errors';

/** An error of Node's HTTP parser (llhttp): `code` like `HPE_INVALID_CHUNK_SIZE`, `reason` its text. */
interface ParserError extends Error {
  code?: string;
  reason?: string;
}

interface ClientErrorAnswer {
  status: number;
  statusText: string;
  code: ErrorCode;
  error: string;
  details?: Record<string, unknown>;
}

/** llhttp's reasons are fixed texts ("Invalid character in chunk size"): shown when they look like one. */
const PRINTABLE_REASON = /^[\x20-\x7e]{1,200}$/;

/** The answer to a request Node's parser refused, as Node would choose its status. */
export function clientErrorAnswer(err: ParserError): ClientErrorAnswer {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        statusText: 'Request Header Fields Too Large',
        code: 'HEADERS_TOO_LARGE',
        error: `Request line and headers over ${maxHeaderSize} bytes (a long query string counts)`,
        details: { limitBytes: maxHeaderSize },
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return {
        status: 413,
        statusText: 'Payload Too Large',
        code: 'PAYLOAD_TOO_LARGE',
        error: 'Chunk extensions too large',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        statusText: 'Request Timeout',
        code: 'REQUEST_TIMEOUT',
        error: 'The request was not received in time',
      };
    default: {
      const reason =
        typeof err.reason === 'string' && PRINTABLE_REASON.test(err.reason)
          ? err.reason
          : 'the HTTP parser refused it';
      return {
        status: 400,
        statusText: 'Bad Request',
        code: 'VALIDATION_ERROR',
        error: `Malformed HTTP request: ${reason}`,
      };
    }
  }
}

/**
 * The server's `clientError` hook: a request Node's HTTP parser refuses (a bad chunk size,
 * `Content-Length` with `Transfer-Encoding`, headers over the size limit, a request too slow to
 * arrive) gets the same JSON error body as every other error, where Node would send an empty 400,
 * 408, 413 or 431. Like Node, it answers only when nothing of a response is on the wire yet, and
 * then closes the connection (the parser cannot find the next request on it).
 */
export function answerClientError(err: ParserError, socket: Socket): void {
  // The peer is gone, or an answer has started on this connection: nothing can be written cleanly.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const answer = clientErrorAnswer(err);
  const body = JSON.stringify({ ...answer.details, error: answer.error, code: answer.code });
  socket.end(
    `HTTP/1.1 ${answer.status} ${answer.statusText}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Cache-Control: no-store\r\n' +
      'X-Content-Type-Options: nosniff\r\n' +
      'Connection: close\r\n' +
      '\r\n' +
      body,
    // Once the answer is handed to the system, the connection is done (a route still reading the
    // refused request's body gets an aborted request, never a second answer).
    () => socket.destroy(),
  );
}
