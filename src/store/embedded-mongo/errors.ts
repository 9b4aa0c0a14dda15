/**
 * Errors the embedded server answers with. They travel to the driver as `{ ok: 0, errmsg, code,
 * codeName, ...extra }`, which the official driver turns into a `MongoServerError` with the same
 * `code`, so code above the driver sees exactly what a real MongoDB would send.
 */

/** The MongoDB error codes this server uses (names as MongoDB spells them). */
export const ErrorCodes = {
  InternalError: 1,
  BadValue: 2,
  FailedToParse: 9,
  Unauthorized: 13,
  InvalidLength: 16,
  TypeMismatch: 14,
  AuthenticationFailed: 18,
  IllegalOperation: 20,
  PathNotViable: 28,
  InvalidBSON: 22,
  NamespaceNotFound: 26,
  IndexNotFound: 27,
  CursorNotFound: 43,
  ConflictingUpdateOperators: 40,
  NamespaceExists: 48,
  CommandNotFound: 59,
  ImmutableField: 66,
  CannotCreateIndex: 67,
  InvalidOptions: 72,
  InvalidNamespace: 73,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  CommandNotSupported: 115,
  InvalidPipelineOperator: 168,
  CannotIndexParallelArrays: 171,
  BSONObjectTooLarge: 10334,
  DuplicateKey: 11000,
  Location40324: 40324,
  Location40573: 40573,
} as const;

const CODE_NAMES: Record<number, string> = Object.fromEntries(
  Object.entries(ErrorCodes).map(([name, code]) => [code, name]),
);

/** A command failure with a MongoDB error code; `extra` fields are copied into the reply. */
export class MongoCommandError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'MongoCommandError';
  }

  get codeName(): string {
    return CODE_NAMES[this.code] ?? 'UnknownError';
  }

  /** The `ok: 0` reply document for this error. */
  toReply(): Record<string, unknown> {
    return { ok: 0, errmsg: this.message, code: this.code, codeName: this.codeName, ...this.extra };
  }
}

/** Shorthand for `new MongoCommandError(...)`, so handlers read `throw fail(...)`. */
export function fail(code: number, message: string, extra: Record<string, unknown> = {}): MongoCommandError {
  return new MongoCommandError(code, message, extra);
}

/**
 * Maps anything thrown while running a command to a command error. mingo reports bad operators
 * and bad paths with plain errors; they are the caller's mistake (BadValue), not ours.
 */
export function toCommandError(err: unknown): MongoCommandError {
  if (err instanceof MongoCommandError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (/immutable field '_id'/i.test(message)) return fail(ErrorCodes.ImmutableField, message);
  if (/^Unknown update operator/i.test(message)) return fail(ErrorCodes.FailedToParse, message);
  if (/would create a conflict/i.test(message)) return fail(ErrorCodes.ConflictingUpdateOperators, message);
  if (err instanceof Error && (err.name === 'MingoError' || err.constructor?.name === 'MingoError')) {
    return fail(ErrorCodes.BadValue, message);
  }
  if (err instanceof Error && /^BSON/.test(err.name)) return fail(ErrorCodes.InvalidBSON, message);
  return fail(ErrorCodes.BadValue, message);
}
