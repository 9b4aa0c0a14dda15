import { MongoError, MongoNetworkError, MongoServerError } from 'mongodb';
import { AppError, isAppError } from '../../../schemas/errors';

/** What the failing call was doing; names end up in error details (never values or URLs). */
export interface MongoErrorContext {
  collection?: string;
  op?: string;
}

/** Driver errors meaning "no usable connection to the store right now". */
const UNREACHABLE_NAMES = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoPoolClearedError',
  'PoolClearedOnNetworkError',
  'MongoPoolClosedError',
  'MongoWaitQueueTimeoutError',
  'MongoTopologyClosedError',
  'MongoNotConnectedError',
  'MongoClientClosedError',
  'MongoServerClosedError',
  'MongoOperationTimeoutError',
  'MongoStalePrimaryError',
]);

/**
 * Server error codes that are about the server's state (failover, shutdown, overload), not the
 * request: a retry later can succeed.
 */
const TRANSIENT_CODES = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  89, // NetworkTimeout
  91, // ShutdownInProgress
  189, // PrimarySteppedDown
  262, // ExceededTimeLimit
  9001, // SocketException
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

const TRANSIENT_LABELS = ['RetryableWriteError', 'TransientTransactionError', 'SystemOverloadedError'];

const INDEX_DIRECTIONS = new Set(['1', '-1', 'text', 'hashed', '2d', '2dsphere']);
export const DUPLICATE_KEY_CODES = new Set([11000, 11001]);
const MAX_TIME_EXPIRED = 50;
const INDEX_CONFLICT_CODES = new Set([85, 86]); // IndexOptionsConflict, IndexKeySpecsConflict

/** True when the error means the store cannot be reached or cannot serve now (UNAVAILABLE). */
export function isUnreachableError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err instanceof MongoNetworkError || UNREACHABLE_NAMES.has(err.name)) return true;
  if (err instanceof MongoError) {
    if (typeof err.code === 'number' && TRANSIENT_CODES.has(err.code)) return true;
    if (TRANSIENT_LABELS.some((label) => err.hasErrorLabel(label))) return true;
  }
  return false;
}

export function isDuplicateKeyError(err: unknown): err is MongoServerError {
  return err instanceof MongoError && typeof err.code === 'number' && DUPLICATE_KEY_CODES.has(err.code);
}

/**
 * The field names a duplicate-key error is about: from `keyPattern` when the server sends it
 * (MongoDB >= 4.2, the embedded server), else parsed from the index name in the message
 * (`index: email_1 dup key`). Values (`keyValue`) are deliberately left out: they may be personal.
 */
export function duplicateKeyFields(err: MongoServerError): { fields: string[]; index?: string } {
  const index = /index: (\S+)/.exec(err.message)?.[1];
  const pattern = (err as { keyPattern?: Record<string, unknown> }).keyPattern;
  if (pattern && typeof pattern === 'object' && Object.keys(pattern).length > 0) {
    return { fields: Object.keys(pattern), index };
  }
  if (index) {
    // Default index names are `field_dir[_field_dir...]`; a field may itself contain '_'.
    const fields: string[] = [];
    let pending: string[] = [];
    for (const part of index.split('_')) {
      if (INDEX_DIRECTIONS.has(part) && pending.length > 0) {
        fields.push(pending.join('_'));
        pending = [];
      } else {
        pending.push(part);
      }
    }
    return { fields: fields.length > 0 && pending.length === 0 ? fields : [index], index };
  }
  return { fields: [] };
}

/**
 * Maps a driver error onto the error registry:
 * - unreachable / failover / pool errors → UNAVAILABLE "document store unreachable" (retryable);
 * - duplicate key (E11000) → CONFLICT naming the collection and the duplicate field(s);
 * - MaxTimeMSExpired → DEADLINE_EXCEEDED;
 * - anything else → INTERNAL_ERROR (the original error is kept as `cause` for the logs).
 * Messages and details never include the connection URL.
 */
export function mapMongoError(err: unknown, context: MongoErrorContext = {}): AppError {
  if (isAppError(err)) return err;
  const where = context.collection ? { collection: context.collection } : {};
  const name = err instanceof Error ? err.name : typeof err;
  if (isUnreachableError(err)) {
    return new AppError(
      'UNAVAILABLE',
      'document store unreachable',
      { ...where, reason: name },
      { cause: err },
    );
  }
  if (isDuplicateKeyError(err)) {
    const { fields, index } = duplicateKeyFields(err);
    const what = fields.length > 0 ? fields.join(', ') : 'key';
    return new AppError(
      'CONFLICT',
      `duplicate ${what}${context.collection ? ` in ${context.collection}` : ''}`,
      { ...where, fields, ...(index ? { index } : {}) },
      { cause: err },
    );
  }
  if (err instanceof MongoServerError && err.code === MAX_TIME_EXPIRED) {
    return new AppError('DEADLINE_EXCEEDED', 'document store operation timed out', where, { cause: err });
  }
  const code = err instanceof MongoError ? err.code : undefined;
  return new AppError(
    'INTERNAL_ERROR',
    `document store error${context.op ? ` in ${context.op}` : ''}`,
    { ...where, ...(code !== undefined ? { mongoCode: code } : {}) },
    { cause: err },
  );
}

export function isIndexConflictError(err: unknown): boolean {
  return err instanceof MongoError && typeof err.code === 'number' && INDEX_CONFLICT_CODES.has(err.code);
}
