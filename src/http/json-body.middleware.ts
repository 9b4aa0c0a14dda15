import type { IncomingMessage } from 'node:http';
import express, { type RequestHandler } from 'express';
import { MAX_JSON_DEPTH, jsonTextMayBeTooDeep, jsonValueTooDeep } from '../../schemas/json-depth';

/** Options of `jsonBody`, those of `express.json` this app uses. */
export interface JsonBodyOptions {
  limit: number;
  type: string[];
  strict: boolean;
  /** Deepest nesting of objects and arrays accepted (the outermost counts as one). Default `MAX_JSON_DEPTH` (64). */
  maxDepth?: number;
}

/** Content types read on the fast path (lower-cased, as sent by nearly every client). */
const PLAIN_JSON = new Set([
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=utf-8',
]);
const DECIMAL = /^\d{1,15}$/;
const BOM = 0xfeff;

/** An error shaped like body-parser's (the error middleware maps it by `type`, never shows the message). */
function bodyError(
  status: number,
  message: string,
  type: string,
  extra: Record<string, unknown> = {},
): Error {
  return Object.assign(new Error(message), {
    status,
    statusCode: status,
    expose: status < 500,
    type,
    ...extra,
  });
}

/**
 * `express.json(options)` with a fast path for the usual request: `Content-Type: application/json`
 * (optionally `charset=utf-8`), a `Content-Length` within the limit, no `Content-Encoding`, no
 * chunked transfer. Its body is read as one UTF-8 string and `JSON.parse`d, with body-parser's
 * rules (a leading BOM dropped, an empty body is `{}`, strict: only an object or an array) and its
 * error types (`entity.parse.failed`, `request.aborted`, `request.size.invalid`). Every other
 * request (another media type or charset, compressed, chunked, no length) goes to body-parser
 * itself, as do the errors it alone knows (`charset.unsupported`, `encoding.unsupported`,
 * `entity.too.large`). A request without a body (no `Content-Length`, not chunked) only gets
 * `req.body = undefined`, as body-parser would give it. On /mcp this halved the cost of reading a
 * body (media-type and charset parsing, a streaming decoder and listeners per request).
 *
 * On both paths a body nested deeper than `maxDepth` is refused (400 `entity.too.deep`) before any
 * route, schema or tool sees it; a compressed body that does not decompress is `encoding.invalid`
 * (400).
 */
export function jsonBody(options: JsonBodyOptions): RequestHandler {
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  const general = generalPath(
    express.json({ limit: options.limit, type: options.type, strict: options.strict }),
    maxDepth,
  );
  return (req, res, next) => {
    const headers = req.headers;
    const length = headers['content-length'];
    const type = headers['content-type'];
    const encoding = headers['content-encoding'];
    // No body at all (a GET, most DELETEs): body-parser would only set `req.body` to undefined,
    // after looking the request over, on every such request.
    if (length === undefined && headers['transfer-encoding'] === undefined) {
      const target = req as { body?: unknown };
      if (!('body' in target)) target.body = undefined;
      next();
      return;
    }
    if (
      length === undefined ||
      type === undefined ||
      headers['transfer-encoding'] !== undefined ||
      (encoding !== undefined && encoding.toLowerCase() !== 'identity') ||
      !PLAIN_JSON.has(type.toLowerCase()) ||
      !DECIMAL.test(length) ||
      Number(length) > options.limit ||
      Number(length) === 0 ||
      req.readableEnded
    ) {
      general(req, res, next);
      return;
    }
    // Like body-parser: `req.body` exists (undefined) from here on, parsed or not.
    const target = req as { body?: unknown };
    if (!('body' in target)) target.body = undefined;
    readJson(req, Number(length), options.strict, maxDepth, (err, body) => {
      if (err) {
        next(err);
        return;
      }
      req.body = body;
      next();
    });
  };
}

/** The error of a body nested deeper than `maxDepth`. */
function tooDeep(maxDepth: number): Error {
  return bodyError(400, `JSON nested deeper than ${maxDepth} levels`, 'entity.too.deep', { maxDepth });
}

/**
 * body-parser for the requests the fast path leaves to it, with what it lacks: a body that is not
 * what its `Content-Encoding` says (plain text sent as gzip, a truncated stream) fails in zlib, and
 * body-parser passes that on as a 400 without a `type`: it becomes `encoding.invalid`. (A coding
 * body-parser cannot decode is its own 415 `encoding.unsupported`.) The parsed body is held to
 * `maxDepth` by a walk of the value, as on the fast path.
 */
function generalPath(parser: RequestHandler, maxDepth: number): RequestHandler {
  return (req, res, next) => {
    parser(req, res, (err?: unknown) => {
      if (err !== undefined && err !== null) {
        const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
        const typed = typeof (err as { type?: unknown }).type === 'string';
        if (!typed && encoding !== 'identity' && (err as { status?: unknown }).status === 400) {
          next(bodyError(400, String((err as Error).message), 'encoding.invalid', { encoding }));
        } else next(err);
        return;
      }
      if (jsonValueTooDeep(req.body, maxDepth)) next(tooDeep(maxDepth));
      else next();
    });
  };
}

function readJson(
  req: IncomingMessage,
  expected: number,
  strict: boolean,
  maxDepth: number,
  done: (err: Error | undefined, body?: unknown) => void,
): void {
  // The whole body already came with the headers (the usual small request, and every request the
  // front door queued while a burst was accepted, accept-first.ts): read it here and now. No
  // listeners to add and remove, no turn of the stream, and the route runs in the same turn, so
  // the front door's time slices count its work.
  // (Bytes only: with an encoding set on the stream, `readableLength` would count characters.)
  if (
    req.complete &&
    req.readableLength === expected &&
    req.readableEncoding === null &&
    req.readableFlowing !== true
  ) {
    parsed((req.read() as Buffer).toString('utf8'), strict, maxDepth, done);
    return;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  const cleanup = () => {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onError);
    req.off('close', onClose);
  };
  function onData(chunk: Buffer) {
    received += chunk.length;
    chunks.push(chunk);
  }
  function onEnd() {
    cleanup();
    if (received !== expected) {
      done(
        bodyError(400, 'request size did not match content length', 'request.size.invalid', {
          expected,
          length: expected,
          received,
        }),
      );
      return;
    }
    parsed(
      (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received)).toString('utf8'),
      strict,
      maxDepth,
      done,
    );
  }
  function onError(err: Error) {
    cleanup();
    done(bodyError(400, err.message, 'request.aborted', { code: 'ECONNABORTED', expected, received }));
  }
  function onClose() {
    if (req.complete) return;
    cleanup();
    done(bodyError(400, 'request aborted', 'request.aborted', { code: 'ECONNABORTED', expected, received }));
  }
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onError);
  req.on('close', onClose);
}

/** The body's text, parsed and held to `maxDepth` (`done` with the value or the error). */
function parsed(
  text: string,
  strict: boolean,
  maxDepth: number,
  done: (err: Error | undefined, body?: unknown) => void,
): void {
  if (text.charCodeAt(0) === BOM) text = text.slice(1);
  let body: unknown;
  try {
    body = parseJson(text, strict);
  } catch (err) {
    done(bodyError(400, (err as Error).message, 'entity.parse.failed', { body: text }));
    return;
  }
  // JSON.parse itself has no depth limit and no recursion (V8); the walk of the value costs a
  // fraction of the parse, and only a body with more than `maxDepth` brackets needs it.
  if (jsonTextMayBeTooDeep(text, maxDepth) && jsonValueTooDeep(body, maxDepth)) {
    done(tooDeep(maxDepth));
    return;
  }
  done(undefined, body);
}

/**
 * body-parser's JSON rules: empty is `{}`; strict accepts only an object or an array at the top
 * (after JSON whitespace; any other leading character makes `JSON.parse` fail anyway).
 */
function parseJson(text: string, strict: boolean): unknown {
  if (text.length === 0) return {};
  if (strict && text[0] !== '{' && text[0] !== '[') {
    const first = text.trimStart()[0];
    if (first !== '{' && first !== '[')
      throw new SyntaxError('Unexpected token: a JSON body must be an object or an array');
  }
  return JSON.parse(text);
}
