import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler } from 'express';
import { AppError, ERROR_CODES, isAppError, type ErrorBody, type ErrorCode } from '../../schemas/errors';

/** How one failure is answered over HTTP. */
export interface HttpFailure {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
  /**
   * How loudly to log it: `error` (with the stack) for faults of ours, `warn` for a dependency that is
   * unavailable or too slow, `debug` for the caller's mistakes (the completion line already has them).
   */
  logLevel: 'error' | 'warn' | 'debug';
}

/** Errors raised by express's body parser carry a `type`; their messages are not ours to show. */
interface BodyParserError {
  type: string;
  status?: number;
  limit?: number;
  maxDepth?: number;
  encoding?: string;
}

function isBodyParserError(err: unknown): err is BodyParserError {
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as { type?: unknown }).type === 'string' &&
    typeof (err as { status?: unknown }).status === 'number'
  );
}

/** Turns a body parser failure into the AppError a client can act on. */
export function fromBodyParserError(err: BodyParserError): AppError {
  switch (err.type) {
    case 'entity.parse.failed':
      return new AppError('VALIDATION_ERROR', 'Malformed JSON body');
    case 'entity.too.large':
      return new AppError(
        'PAYLOAD_TOO_LARGE',
        'Request body too large',
        typeof err.limit === 'number' ? { limitBytes: err.limit } : {},
      );
    case 'entity.too.deep':
      return new AppError(
        'VALIDATION_ERROR',
        `JSON body nested deeper than ${err.maxDepth} levels`,
        typeof err.maxDepth === 'number' ? { maxDepth: err.maxDepth } : {},
      );
    case 'charset.unsupported':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported charset: send JSON as UTF-8');
    case 'encoding.unsupported':
      return new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        'Unsupported Content-Encoding (supported: identity, gzip, deflate, br)',
      );
    case 'encoding.invalid':
      // `encoding` is one body-parser tried to decode (gzip, deflate, br, zstd): not free text.
      return new AppError(
        'VALIDATION_ERROR',
        `The body is not valid ${err.encoding} data, as its Content-Encoding says`,
      );
    case 'request.aborted':
      return new AppError('VALIDATION_ERROR', 'Request body aborted by the client');
    default:
      return new AppError('VALIDATION_ERROR', 'Invalid request body');
  }
}

/**
 * The code a library's 4xx gets: the first code of the registry with that status, which is the
 * generic one (`VALIDATION_ERROR` for 400, `CONFLICT` for 409); the domain codes listed after it
 * with the same status (`SKILL_REQUIRED`, `IDEMPOTENCY_KEY_REUSED`, …) are never guessed.
 */
const CODE_OF_STATUS: ReadonlyMap<number, ErrorCode> = (() => {
  const map = new Map<number, ErrorCode>();
  for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
    const { status } = ERROR_CODES[code];
    if (status < 500 && !map.has(status)) map.set(status, code);
  }
  return map;
})();

/** The 4xx an error of a library carries (`status` or `statusCode`, http-errors' convention), if any. */
function clientStatusOf(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { status, statusCode } = err as { status?: unknown; statusCode?: unknown };
  const value = typeof status === 'number' ? status : statusCode;
  return typeof value === 'number' && Number.isInteger(value) && value >= 400 && value <= 499
    ? value
    : undefined;
}

/**
 * An error of a library (express, its router, body-parser) that marks itself a client error keeps
 * its status: a malformed percent-encoding in a path parameter (the router's `URIError`, 400) is
 * the caller's mistake, not a fault of ours. The message is ours: theirs may echo the input.
 */
function fromClientStatus(err: unknown, status: number): { appError: AppError; status: number } {
  const code = CODE_OF_STATUS.get(status) ?? 'VALIDATION_ERROR';
  const message =
    err instanceof URIError
      ? 'Malformed percent-encoding in the URL'
      : (STATUS_CODES[status] ?? 'Bad Request');
  return { appError: new AppError(code, message), status };
}

/** Seconds for `Retry-After`: a positive whole number, or undefined when the value is unusable. */
function retryAfterSeconds(value: unknown): string | undefined {
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) return undefined;
  return String(Math.max(1, Math.ceil(n)));
}

/**
 * The single mapping from "anything thrown" to an HTTP answer. AppErrors answer with their code's
 * status and `toBody()`; a library's error that carries a 4xx status keeps it; everything else is
 * a 500 that reveals nothing but the request id.
 */
export function toHttpFailure(err: unknown, requestId: string): HttpFailure {
  let appError = isAppError(err) ? err : isBodyParserError(err) ? fromBodyParserError(err) : undefined;
  let status: number | undefined;
  if (!appError) {
    const clientStatus = clientStatusOf(err);
    if (clientStatus !== undefined) ({ appError, status } = fromClientStatus(err, clientStatus));
  }
  if (!appError) {
    return {
      status: 500,
      body: { error: 'Internal error', code: 'INTERNAL_ERROR', requestId },
      headers: {},
      logLevel: 'error',
    };
  }
  status ??= ERROR_CODES[appError.code].status;
  if (appError.code === 'INTERNAL_ERROR') {
    // A defect's message and details may name internal ids or state: the log has them, the client
    // gets only the request id to quote.
    return {
      status,
      body: { error: 'Internal error', code: 'INTERNAL_ERROR', requestId },
      headers: {},
      logLevel: 'error',
    };
  }
  // Errors rebuilt from the wire may be plain objects that only look like AppError.
  const body: ErrorBody =
    typeof (appError as Partial<AppError>).toBody === 'function'
      ? appError.toBody()
      : { ...(appError.details ?? {}), error: String(appError.message), code: appError.code };
  const headers: Record<string, string> = {};
  if (appError.code === 'RATE_LIMITED' || appError.code === 'UNAVAILABLE') {
    const retryAfter = retryAfterSeconds(appError.details?.retryAfter);
    if (retryAfter) headers['Retry-After'] = retryAfter;
    else if (appError.code === 'UNAVAILABLE') headers['Retry-After'] = '1';
  }
  // A server fault carries the request id so a report can be matched with the log line.
  if (status >= 500) body.requestId = requestId;
  const logLevel = status >= 500 ? 'warn' : 'debug';
  return { status, body, headers, logLevel };
}

/** Requests that may change something: a 503/504 on them says whether the change may have happened. */
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The one error middleware, registered last. Never sends a stack or the message of an unknown
 * error; logs server faults with their stack under the request's logger.
 *
 * A 503/504 answering a mutation always says `mayHaveRun`: the error's own value where the layer
 * that failed knew it (the kernel: `false` when the command was never published, `true` once it
 * was), else `true`, since nothing rules it out (docs/http.md, "Idempotent retries").
 */
export function errorMiddleware(): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const failure = toHttpFailure(err, res.locals.requestId);
    if (
      (failure.status === 503 || failure.status === 504) &&
      typeof failure.body.mayHaveRun !== 'boolean' &&
      MUTATING.has(req.method)
    ) {
      failure.body.mayHaveRun = true;
    }
    if (failure.logLevel === 'debug') res.locals.log.debug({ code: failure.body.code }, 'request rejected');
    else res.locals.log[failure.logLevel]({ err }, 'request failed');

    if (res.headersSent) {
      // Part of an answer is already out: a clean end would pass a truncated body off as complete.
      res.destroy();
      return;
    }
    res.status(failure.status).set(failure.headers).json(failure.body);
  };
}
