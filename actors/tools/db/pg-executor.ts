import pg from 'pg';
import type { Logger } from '../../../src/logging/logger';
import { cancelledError, statementTimeout, unavailable } from './sql-errors';
import { errorFields, isBackendError, PgStatement } from './pg-statement';
import {
  SqlStepError,
  type RawResult,
  type SqlExecutor,
  type SqlStep,
  type SqlTransaction,
} from './sql-executor';

/** Tuning of the PostgreSQL backend. */
export interface PgExecutorOptions {
  /** Connections of the pool (default 10). */
  poolSize?: number;
  /** Wait for a connection (new or from the pool) before UNAVAILABLE, in ms (default 5000). */
  connectTimeoutMs?: number;
  /**
   * Extra time past `statementTimeoutMs` before the client gives up on a statement the server did
   * not cancel itself (network partition, stuck server) and drops the connection, in ms (default 2000).
   */
  backstopMs?: number;
  /** After an abort, time to wait for the cancelled statement before dropping the connection (default 1000). */
  abortGraceMs?: number;
}

/**
 * The PostgreSQL backend: a `pg` pool on DATABASE_URL. Each transaction takes a connection, runs
 * `BEGIN; setup; steps; COMMIT` and gives it back.
 *
 * Cancellation: on abort, the running statement is cancelled with `pg_cancel_backend(pid)` sent on
 * a fresh connection (not the pool's: a full pool must not delay a panic), the transaction is rolled
 * back, and the connection is dropped rather than reused (a late cancel must not hit another
 * agent's statement). If the statement has not ended `abortGraceMs` later, the connection is closed.
 * An abort during COMMIT lets the COMMIT finish (its outcome is then reported truthfully).
 */
export class PgExecutor implements SqlExecutor {
  readonly backend = 'postgres' as const;
  private readonly pool: pg.Pool;
  private readonly backstopMs: number;
  private readonly abortGraceMs: number;
  private readonly connectTimeoutMs: number;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly log: Logger,
    options: PgExecutorOptions = {},
  ) {
    this.connectTimeoutMs = options.connectTimeoutMs ?? 5000;
    this.backstopMs = options.backstopMs ?? 2000;
    this.abortGraceMs = options.abortGraceMs ?? 1000;
    this.pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: this.connectTimeoutMs,
      idleTimeoutMillis: 30_000,
      application_name: 'ars-private-db',
      keepAlive: true,
    });
    // An idle connection that dies (server restart) must not crash the process.
    this.pool.on('error', (err) => this.log.warn({ err: err.message }, 'private db: idle connection lost'));
  }

  async transaction(tx: SqlTransaction): Promise<RawResult[]> {
    if (this.closed) throw unavailable('Private databases are closed');
    if (tx.signal?.aborted) throw cancelledError(tx.signal);
    const client = await this.acquire(tx.signal);
    const onClientError = (err: Error) => this.log.warn({ err: err.message }, 'private db: connection error');
    client.on('error', onClientError);

    let aborted = false;
    let committing = false;
    let dropped = false;
    let timedOut = false;
    let graceTimer: NodeJS.Timeout | undefined;
    let budget = tx.maxResultBytes ?? Number.POSITIVE_INFINITY;
    const drop = () => {
      if (dropped) return;
      dropped = true;
      // With a statement in flight, end() destroys the socket: the statement fails at once.
      client.end().catch(() => undefined);
    };
    const onAbort = () => {
      if (aborted || committing) return;
      aborted = true;
      void this.cancelBackend(client);
      graceTimer = setTimeout(drop, this.abortGraceMs);
    };
    tx.signal?.addEventListener('abort', onAbort, { once: true });

    const run = async (step: SqlStep, index: number): Promise<RawResult> => {
      const timer = setTimeout(() => {
        timedOut = true;
        drop();
      }, tx.statementTimeoutMs + this.backstopMs);
      try {
        const result = await this.send(client, step, budget);
        budget -= result.bytes ?? 0;
        return result;
      } catch (err) {
        if (isBackendError(err) && !aborted && !timedOut) throw new SqlStepError(index, errorFields(err));
        throw err;
      } finally {
        clearTimeout(timer);
      }
    };

    try {
      await run({ sql: 'BEGIN' }, -1);
      if (tx.setup) await run({ sql: tx.setup }, -1);
      const results: RawResult[] = [];
      for (let i = 0; i < tx.steps.length; i++) {
        if (aborted) throw cancelledError(tx.signal);
        results.push(await run(tx.steps[i], i));
      }
      if (aborted) throw cancelledError(tx.signal);
      committing = true;
      await run({ sql: 'COMMIT' }, tx.steps.length);
      return results;
    } catch (err) {
      if (!dropped && !committing) {
        try {
          await this.send(client, { sql: 'ROLLBACK' }, 0);
        } catch {
          drop();
        }
      }
      if (aborted) throw cancelledError(tx.signal);
      if (timedOut) throw statementTimeout(tx.statementTimeoutMs);
      if (err instanceof SqlStepError) throw err;
      this.log.warn({ err: (err as Error).message }, 'private db: connection failed during a call');
      throw unavailable();
    } finally {
      clearTimeout(graceTimer);
      tx.signal?.removeEventListener('abort', onAbort);
      client.off('error', onClientError);
      // After an abort the connection may still receive the late cancel: never reuse it.
      client.release(dropped || aborted ? true : undefined);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool
      .end()
      .catch((err: Error) => this.log.warn({ err: err.message }, 'private db: pool end failed'));
  }

  private send(client: pg.PoolClient, step: SqlStep, maxBytes: number): Promise<RawResult> {
    return new Promise((resolve, reject) => {
      const statement = new PgStatement(step, maxBytes, (err, result) =>
        err ? reject(err) : resolve(result!),
      );
      // pg accepts any object with `submit` (pg-cursor uses the same protocol).
      void (client as unknown as { query(q: PgStatement): unknown }).query(statement);
    });
  }

  private async acquire(signal?: AbortSignal): Promise<pg.PoolClient> {
    const pending = this.pool.connect();
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(cancelledError(signal));
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([pending, aborted]);
    } catch (err) {
      // A connection that arrives after the abort goes straight back.
      pending.then(
        (c) => c.release(),
        () => undefined,
      );
      if (signal?.aborted) throw cancelledError(signal);
      this.log.warn({ err: (err as Error).message }, 'private db: cannot get a connection');
      throw unavailable();
    } finally {
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  /** `pg_cancel_backend` on a fresh connection; failures are logged (the grace timer still drops). */
  private async cancelBackend(busy: pg.PoolClient): Promise<void> {
    const pid = (busy as unknown as { processID?: number }).processID;
    if (!pid) return;
    const control = new pg.Client({
      connectionString: this.url,
      connectionTimeoutMillis: this.connectTimeoutMs,
    });
    control.on('error', () => undefined);
    try {
      await control.connect();
      await control.query('SELECT pg_cancel_backend($1)', [pid]);
    } catch (err) {
      this.log.warn({ err: (err as Error).message, pid }, 'private db: cancel failed');
    } finally {
      await control.end().catch(() => undefined);
    }
  }
}
