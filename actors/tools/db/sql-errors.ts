import { AppError, errors, isAppError, type ErrorCode } from '../../../schemas/errors';
import type { DbErrorFields } from './sql-executor';

/**
 * From database errors to the service's AppErrors. A mistake in the caller's SQL or data is theirs
 * (4xx with the database's message and SQLSTATE), never a 500. See docs/tool-db.md ("Errors").
 */

/** SQLSTATEs that mean "this already exists / collides" (409). */
const CONFLICTS = new Set(['23505', '42P07', '42710', '42P06', '42723']);

/** The error code for a SQLSTATE (by its class, the first two characters, unless listed). */
export function codeForSqlState(sqlstate: string): { code: ErrorCode; retryable?: boolean } {
  if (CONFLICTS.has(sqlstate)) return { code: 'CONFLICT' };
  if (sqlstate === '57014') return { code: 'DEADLINE_EXCEEDED' };
  if (sqlstate === '42501') return { code: 'PERMISSION_DENIED' };
  // Protocol violation: in practice a Bind with the wrong number of parameters (the caller's).
  if (sqlstate === '08P01') return { code: 'VALIDATION_ERROR' };
  // Serialization failure, deadlock, lock not available: another transaction won; try again.
  if (sqlstate === '40001' || sqlstate === '40P01' || sqlstate === '55P03') {
    return { code: 'CONFLICT', retryable: true };
  }
  switch (sqlstate.slice(0, 2)) {
    case '08': // connection exception
    case '53': // insufficient resources
    case '57': // operator intervention (shutdown)
    case '58': // system error (I/O)
      return { code: 'UNAVAILABLE' };
    case 'XX': // internal error
      return { code: 'INTERNAL_ERROR' };
    default: // syntax, undefined objects, data exceptions, constraints, invalid transaction state…
      return { code: 'VALIDATION_ERROR' };
  }
}

/**
 * The AppError of a database error. The message is the database's, prefixed; details carry
 * `sqlstate` and the fields that help fix the statement. Server-side failures (UNAVAILABLE,
 * INTERNAL_ERROR) keep only the SQLSTATE.
 */
export function dbErrorToAppError(db: DbErrorFields, extra: Record<string, unknown> = {}): AppError {
  const { code, retryable } = codeForSqlState(db.sqlstate);
  if (code === 'UNAVAILABLE' || code === 'INTERNAL_ERROR') {
    return new AppError(code, 'Private database error', { sqlstate: db.sqlstate, ...extra });
  }
  if (code === 'DEADLINE_EXCEEDED') {
    return new AppError(code, 'Statement timeout: the statement ran too long and was cancelled', {
      sqlstate: db.sqlstate,
      ...extra,
    });
  }
  const details: Record<string, unknown> = { sqlstate: db.sqlstate };
  for (const key of ['detail', 'hint', 'table', 'column', 'constraint'] as const) {
    if (db[key]) details[key] = db[key];
  }
  if (db.position && /^\d+$/.test(db.position)) details.position = Number(db.position);
  return new AppError(code, `Database error: ${db.message}`, { ...details, ...extra }, { retryable });
}

/** The error a call rejects with when its signal aborted: the signal's reason if an AppError. */
export function cancelledError(signal?: AbortSignal): AppError {
  const reason: unknown = signal?.reason;
  if (isAppError(reason)) return reason;
  return new AppError('UNAVAILABLE', 'Database call cancelled', { cancelled: true }, { retryable: false });
}

/** The database cannot be reached, or the service is closed or overloaded. */
export function unavailable(message = 'Private database unavailable'): AppError {
  return errors.unavailable(message);
}

/** A statement ran past its time limit (the PGlite watchdog, the PostgreSQL backstop). */
export function statementTimeout(ms: number): AppError {
  return new AppError('DEADLINE_EXCEEDED', `Statement timeout: the statement ran longer than ${ms} ms`, {
    timeoutMs: ms,
  });
}
