import { AppError, isAppError } from '../../../schemas/errors';
import { cacheUnavailable, notAnInteger } from './cache.port';

/** Replies meaning "the server is there but cannot serve now": worth a retry, like an outage. */
const TRANSIENT_REPLY = /^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN|OOM|NOREPLICAS)\b/;

/**
 * Maps whatever ioredis rejected with onto the error registry. A reply error is Redis refusing the
 * command (a defect in the caller, except the transient replies above); anything else is the
 * connection failing (closed, refused, timed out, offline) and becomes UNAVAILABLE.
 */
export function mapRedisError(error: unknown, op: string, key?: string): AppError {
  if (isAppError(error)) return error;
  const err = error instanceof Error ? error : new Error(String(error));
  if (err.name === 'ReplyError') {
    if (TRANSIENT_REPLY.test(err.message)) return cacheUnavailable(err.message.split(' ')[0], err);
    if (/not an integer|out of range/.test(err.message)) return notAnInteger(key ?? '');
    return new AppError('INTERNAL_ERROR', `cache.${op} refused by Redis`, { op }, { cause: err });
  }
  // ioredis messages name the host and port at most, never the password.
  return cacheUnavailable(err.message, err);
}
