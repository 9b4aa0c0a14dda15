/**
 * The port between the private-database service and its two backends (PostgreSQL through `pg`,
 * PGlite in a worker thread). An executor runs a list of statements in one transaction and answers
 * raw results in PostgreSQL's text format; building SQL, guarding agent SQL and decoding values are
 * the service's job, the same for both.
 */

/** One statement of a transaction. */
export interface SqlStep {
  sql: string;
  /**
   * Parameters in text format (null = SQL NULL). Present = extended protocol (exactly one
   * statement, parameters bound, rows capped by `maxRows`); absent = simple protocol (trusted
   * service SQL only: it may hold several statements and returns no rows).
   */
  params?: (string | null)[];
  /** Stop after this many rows (extended protocol; the portal is then left suspended). */
  maxRows?: number;
}

export interface RawField {
  name: string;
  typeOid: number;
}

/** The outcome of one step. */
export interface RawResult {
  fields: RawField[];
  /** Values in text format, in field order. */
  rows: (string | null)[][];
  /** First word(s) of the command tag (`SELECT`, `INSERT`, `CREATE TABLE`); absent when suspended. */
  command?: string;
  /** Count of the command tag (rows returned or affected); absent when suspended or not counted. */
  rowCount?: number;
  /** More rows were available than `maxRows`. */
  suspended: boolean;
  /** Rows were dropped because the call's `maxResultBytes` was used up (see `rowBytes`). */
  cut?: boolean;
  /** Size of the rows kept, as counted by `rowBytes`. */
  bytes?: number;
}

/**
 * Size of a row for the result cap: characters of its values plus one per value. pglite.worker.js
 * counts the same way (keep them in step).
 */
export function rowBytes(row: readonly (string | null)[]): number {
  let size = 0;
  for (const v of row) size += (v === null ? 0 : v.length) + 1;
  return size;
}

/** An error answered by the database (an ErrorResponse), in PostgreSQL's field names. */
export interface DbErrorFields {
  /** SQLSTATE, e.g. `23505`. */
  sqlstate: string;
  message: string;
  detail?: string;
  hint?: string;
  /** 1-based character offset in the statement, as text. */
  position?: string;
  schema?: string;
  table?: string;
  column?: string;
  constraint?: string;
}

/**
 * A step failed with a database error; the transaction was rolled back. `stepIndex` is the index in
 * `steps`, -1 for `setup`.
 */
export class SqlStepError extends Error {
  constructor(
    readonly stepIndex: number,
    readonly db: DbErrorFields,
  ) {
    super(db.message);
    this.name = 'SqlStepError';
  }
}

export interface SqlTransaction {
  /** Trusted SQL run first, in the transaction (`SET LOCAL ROLE …`); simple protocol. */
  setup?: string;
  steps: SqlStep[];
  /**
   * Time limit of each statement, in milliseconds. PostgreSQL enforces it itself (the setup sets
   * `statement_timeout`; the executor only keeps a backstop); for PGlite the executor does.
   */
  statementTimeoutMs: number;
  /** Aborting cancels the running statement and rolls back (see the executors for how). */
  signal?: AbortSignal;
  /**
   * Size of the rows the whole call keeps, across its steps (see `rowBytes`); rows past it are
   * dropped as they arrive and the step is marked `cut`. Default: no limit.
   */
  maxResultBytes?: number;
}

export interface SqlExecutor {
  readonly backend: 'postgres' | 'pglite';
  /**
   * Runs `BEGIN; setup; steps…; COMMIT` and answers one result per step. Rejects with
   * `SqlStepError` for a database error (rolled back), or an AppError: DEADLINE_EXCEEDED (statement
   * timeout), UNAVAILABLE (database unreachable, closed, overloaded), or the cancellation error of
   * `cancelledError` when the signal aborted.
   */
  transaction(tx: SqlTransaction): Promise<RawResult[]>;
  /** Releases connections (or stops PGlite). Calls after `close` reject with UNAVAILABLE. */
  close(): Promise<void>;
}

/** Splits a command tag (`INSERT 0 3`, `SELECT 2`, `CREATE TABLE`) into command and count. */
export function parseCommandTag(tag: string): { command: string; rowCount?: number } {
  const parts = tag.trim().split(' ');
  const last = parts[parts.length - 1];
  if (parts.length > 1 && /^\d+$/.test(last)) {
    const words = parts[0] === 'INSERT' ? parts.slice(0, 1) : parts.slice(0, -1);
    return { command: words.join(' '), rowCount: Number(last) };
  }
  return { command: parts.join(' ') };
}
