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
  CONFLICT: { status: 409, retryable: false },
  PAYLOAD_TOO_LARGE: { status: 413, retryable: false },
  RATE_LIMITED: { status: 429, retryable: true },
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
