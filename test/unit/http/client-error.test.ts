import { PassThrough } from 'node:stream';
import type { Socket } from 'node:net';
import { answerClientError, clientErrorAnswer } from '../../../src/http/client-error';

const parserError = (code: string, reason?: string) =>
  Object.assign(new Error(`Parse Error: ${reason}`), { code, reason });

describe('clientErrorAnswer', () => {
  it('keeps the status Node would send, with a code of the registry', () => {
    expect(clientErrorAnswer(parserError('HPE_HEADER_OVERFLOW', 'Header overflow'))).toMatchObject({
      status: 431,
      code: 'HEADERS_TOO_LARGE',
    });
    expect(clientErrorAnswer(parserError('HPE_CHUNK_EXTENSIONS_OVERFLOW'))).toMatchObject({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
    });
    expect(clientErrorAnswer(parserError('ERR_HTTP_REQUEST_TIMEOUT'))).toMatchObject({
      status: 408,
      code: 'REQUEST_TIMEOUT',
    });
    expect(clientErrorAnswer(parserError('HPE_INVALID_METHOD', 'Invalid method encountered'))).toEqual({
      status: 400,
      statusText: 'Bad Request',
      code: 'VALIDATION_ERROR',
      error: 'Malformed HTTP request: Invalid method encountered',
    });
  });

  it('shows the parser reason only when it is plain text', () => {
    expect(clientErrorAnswer(parserError('HPE_X', 'bad\r\nInjected: 1')).error).toBe(
      'Malformed HTTP request: the HTTP parser refused it',
    );
  });
});

describe('answerClientError', () => {
  /** A socket stand-in that records what is written. */
  function fakeSocket(inFlightHeadersSent?: boolean) {
    const written: string[] = [];
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => written.push(chunk.toString()));
    const socket = Object.assign(stream, {
      _httpMessage: inFlightHeadersSent === undefined ? undefined : { headersSent: inFlightHeadersSent },
    }) as unknown as Socket;
    return { socket, written };
  }

  it('writes a complete JSON answer and closes the connection', async () => {
    const { socket, written } = fakeSocket();
    answerClientError(parserError('HPE_INVALID_CHUNK_SIZE', 'Invalid character in chunk size'), socket);
    await new Promise((resolve) => socket.once('close', resolve));
    const raw = written.join('');
    const body =
      '{"error":"Malformed HTTP request: Invalid character in chunk size","code":"VALIDATION_ERROR"}';
    expect(raw).toBe(
      'HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${body.length}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  });

  it('writes nothing once an answer has started on the connection, or when the peer reset it', () => {
    const started = fakeSocket(true);
    answerClientError(parserError('HPE_INVALID_CHUNK_SIZE', 'x'), started.socket);
    expect(started.written).toEqual([]);
    expect(started.socket.destroyed).toBe(true);
    const reset = fakeSocket();
    answerClientError(parserError('ECONNRESET'), reset.socket);
    expect(reset.written).toEqual([]);
    expect(reset.socket.destroyed).toBe(true);
  });
});
