/**
 * The one registry of error codes. Every failure that crosses a boundary (HTTP, envelope, process)
 * carries one of these codes; callers switch on `code`, never on `instanceof`.
 */
export const ERROR_CODES = {
  VALIDATION_ERROR: { status: 400, retryable: false },
  UNAUTHORIZED: { status: 401, retryable: false },
  PERMISSION_DENIED: { status: 403, retryable: false },
  NOT_FOUND: { status: 404, retryable: false },
  METHOD_NOT_ALLOWED: { status: 405, retryable: false },
  /** The request did not arrive in time (Node's `headersTimeout` / `requestTimeout`). */
  REQUEST_TIMEOUT: { status: 408, retryable: true },
  CONFLICT: { status: 409, retryable: false },
  /** An app's installation needs a secret assigned to the app in the vault (docs/apps.md). */
  SECRET_REQUIRED: { status: 400, retryable: false },
  /** An app's installation needs a skill installed and active (docs/apps.md). */
  SKILL_REQUIRED: { status: 400, retryable: false },
  /** An app's installation needs permissions approved (docs/apps.md). */
  PERMISSION_REQUIRED: { status: 400, retryable: false },
  /** An installed app cannot open: a requirement went missing since install (docs/apps.md). */
  APP_NOT_READY: { status: 409, retryable: false },
  /** The Idempotency-Key was first used for another request (method, path or body differ). */
  IDEMPOTENCY_KEY_REUSED: { status: 409, retryable: false },
  /** The first request with this Idempotency-Key is still running: retry after a moment. */
  IDEMPOTENCY_KEY_IN_USE: { status: 409, retryable: true },
  /** The request with this Idempotency-Key already ran, and its answer is not kept (`reason`). */
  IDEMPOTENCY_OUTCOME_NOT_KEPT: { status: 409, retryable: false },
  PAYLOAD_TOO_LARGE: { status: 413, retryable: false },
  /** A body in a content coding (or charset) the service does not read. */
  UNSUPPORTED_MEDIA_TYPE: { status: 415, retryable: false },
  RATE_LIMITED: { status: 429, retryable: true },
  /** Request line and headers over Node's limit (`--max-http-header-size`, 16 KiB by default). */
  HEADERS_TOO_LARGE: { status: 431, retryable: false },
  INTERNAL_ERROR: { status: 500, retryable: false },
  /** A skill capability's own code failed (threw, returned nothing, ran out of memory): docs/skills.md. */
  SKILL_FAILED: { status: 502, retryable: false },
  UNAVAILABLE: { status: 503, retryable: true },
  DEADLINE_EXCEEDED: { status: 504, retryable: true },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_CODES, value);
}

/** Wire form of an error: `{ error, code, ...details }`. */
export interface ErrorBody {
  error: string;
  code: ErrorCode;
  [detail: string]: unknown;
}

/**
 * The one error base of the service. `retryable` defaults from the registry; `details` are safe to
 * show to the caller (never put a secret or a stack in them).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly retryable: boolean;
  readonly details: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    options: { retryable?: boolean; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.retryable = options.retryable ?? ERROR_CODES[code].retryable;
    this.details = details;
  }

  toBody(): ErrorBody {
    return { ...this.details, error: this.message, code: this.code };
  }

  /** Rebuilds an error received over the wire (another process, a reply envelope). */
  static fromBody(body: unknown): AppError {
    if (body && typeof body === 'object') {
      const { error, code, ...details } = body as Record<string, unknown>;
      if (isErrorCode(code)) {
        return new AppError(code, typeof error === 'string' ? error : code, details);
      }
    }
    return new AppError('INTERNAL_ERROR', 'Internal error');
  }
}

export function isAppError(value: unknown): value is AppError {
  return (
    value instanceof AppError ||
    (typeof value === 'object' &&
      value !== null &&
      (value as { name?: unknown }).name === 'AppError' &&
      isErrorCode((value as { code?: unknown }).code))
  );
}

/** Short constructors for the common cases. */
export const errors = {
  validation: (message: string, details: Record<string, unknown> = {}) =>
    new AppError('VALIDATION_ERROR', message, details),
  unauthorized: (message = 'Authentication required') => new AppError('UNAUTHORIZED', message),
  forbidden: (message: string, details: Record<string, unknown> = {}) =>
    new AppError('PERMISSION_DENIED', message, details),
  notFound: (message: string, details: Record<string, unknown> = {}) =>
    new AppError('NOT_FOUND', message, details),
  conflict: (message: string, details: Record<string, unknown> = {}) =>
    new AppError('CONFLICT', message, details),
  rateLimited: (message: string, retryAfterSeconds: number) =>
    new AppError('RATE_LIMITED', message, { retryAfter: retryAfterSeconds }),
  unavailable: (message: string, details: Record<string, unknown> = {}) =>
    new AppError('UNAVAILABLE', message, details),
  deadline: (message = 'Deadline exceeded') => new AppError('DEADLINE_EXCEEDED', message),
  internal: (message = 'Internal error') => new AppError('INTERNAL_ERROR', message),
};

/** The codes whose answer leaves open whether the work ran (503, 504). */
export function isUncertainOutcome(code: ErrorCode): boolean {
  return code === 'UNAVAILABLE' || code === 'DEADLINE_EXCEEDED';
}

/**
 * Says on a 503/504 whether the work may have run (`details.mayHaveRun`), so a client knows when a
 * retry needs an idempotency key. An error that already says so, and any other code, is returned
 * as it is: the first party that knows (the transport that refused a command before publishing
 * it, a remote handler) decides.
 */
export function withMayHaveRun(error: AppError, mayHaveRun: boolean): AppError {
  if (!isUncertainOutcome(error.code) || typeof error.details?.mayHaveRun === 'boolean') return error;
  return new AppError(
    error.code,
    error.message,
    { ...error.details, mayHaveRun },
    { retryable: error.retryable, cause: error },
  );
}
