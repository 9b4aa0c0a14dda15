import { AppError, errors, isAppError } from '../../../schemas/errors';
import {
  DbCreateTableInputSchema,
  DbDeleteInputSchema,
  DbIdentifierSchema,
  DbInsertInputSchema,
  DbQueryInputSchema,
  DbTransactionInputSchema,
  DbUpdateInputSchema,
  type DbCreateTableRequest,
  type DbCreateTableResult,
  type DbDeleteRequest,
  type DbDeleteResult,
  type DbInsertRequest,
  type DbInsertResult,
  type DbQueryRequest,
  type DbQueryResult,
  type DbRow,
  type DbTransactionRequest,
  type DbTransactionResult,
  type DbUpdateRequest,
  type DbUpdateResult,
} from '../../../schemas/tools/db';
import type { Logger } from '../../../src/logging/logger';
import {
  agentSetupSql,
  createTableSql,
  deleteStep,
  foldKeys,
  insertSteps,
  qualified,
  tableColumnsSql,
  updateStep,
  type ValueEncoder,
} from './sql-builder';
import { parseDbInput as parseInput } from './db-input';
import { dbErrorToAppError } from './sql-errors';
import { SqlStepError, type RawResult, type SqlExecutor, type SqlStep } from './sql-executor';
import { guardAgentSql } from './sql-guard';
import { decodeRows, encodeColumnValue, encodeParam } from './value-codec';

/** Options of every call. */
export interface DbCallOptions {
  /** Aborting cancels the running statement and rolls the call back (see docs/tool-db.md). */
  signal?: AbortSignal;
  /** Time limit of each statement of this call, in ms; at most the configured one (the default). */
  statementTimeoutMs?: number;
}

/** One agent's private database: the six `db_*` tools. Inputs are validated here (the tool schemas). */
export interface AgentDatabase {
  readonly agentId: string;
  /** The agent's schema, also the name of its role. */
  readonly schema: string;
  createTable(input: DbCreateTableRequest, options?: DbCallOptions): Promise<DbCreateTableResult>;
  insert(input: DbInsertRequest, options?: DbCallOptions): Promise<DbInsertResult>;
  update(input: DbUpdateRequest, options?: DbCallOptions): Promise<DbUpdateResult>;
  delete(input: DbDeleteRequest, options?: DbCallOptions): Promise<DbDeleteResult>;
  query(input: DbQueryRequest, options?: DbCallOptions): Promise<DbQueryResult>;
  transaction(input: DbTransactionRequest, options?: DbCallOptions): Promise<DbTransactionResult>;
  /**
   * Deletes the rows with these primary keys (`createdKeys` of a `db_insert`), one parameterised
   * DELETE per key in one transaction, as the agent's role: the rollback of a `db_rows` effect.
   * Resolves the keys that matched no row (already gone). A missing table is VALIDATION_ERROR
   * with `sqlstate: '42P01'`.
   */
  deleteByKeys(
    table: string,
    keys: DbRow[],
    options?: DbCallOptions,
  ): Promise<{ deleted: number; missing: DbRow[] }>;
}

/** What an AgentDatabase shares with the other agents' (given by PrivateDatabases). */
export interface AgentDatabaseContext {
  executor: SqlExecutor;
  log: Logger;
  statementTimeoutMs: number;
  maxRows: number;
  maxResultBytes: number;
  schemaPattern: RegExp;
  /** Creates the agent's schema and role if needed (memoised). */
  provision(schema: string): Promise<void>;
  /** Forgets that the agent was provisioned (its role or schema went missing). */
  forget(schema: string): void;
}

/** Adds details to an AppError (same code and message). */
function withDetails(err: AppError, details: Record<string, unknown>): AppError {
  return new AppError(err.code, err.message, { ...err.details, ...details }, { retryable: err.retryable });
}

export class AgentDatabaseImpl implements AgentDatabase {
  constructor(
    readonly agentId: string,
    readonly schema: string,
    private readonly ctx: AgentDatabaseContext,
  ) {}

  async createTable(raw: DbCreateTableRequest, options: DbCallOptions = {}): Promise<DbCreateTableResult> {
    const input = parseInput(DbCreateTableInputSchema, raw, 'db_create_table');
    const [existed] = await this.run(
      [
        { sql: 'SELECT to_regclass($1) IS NOT NULL', params: [qualified(this.schema, input.table)] },
        {
          sql: createTableSql(this.schema, input.table, input.schema, input.ifNotExists ?? false),
          params: [],
        },
      ],
      options,
    );
    return { table: input.table, created: existed.rows[0]?.[0] !== 't' };
  }

  async insert(raw: DbInsertRequest, options: DbCallOptions = {}): Promise<DbInsertResult> {
    const input = parseInput(DbInsertInputSchema, raw, 'db_insert');
    const many = Array.isArray(input.data);
    const rows = (many ? (input.data as DbRow[]) : [input.data as DbRow]).map((row, i) =>
      foldKeys(row, many ? `data[${i}]` : 'data'),
    );
    const table = await this.describeTable(input.table, options);
    const steps = insertSteps(this.schema, input.table, rows, rows.length + 1, table.encode);
    const inserts = await this.run(steps, options);
    const stored: DbRow[] = [];
    let inserted = 0;
    for (const result of inserts) {
      stored.push(...decodeRows(result.fields, result.rows).rows);
      inserted += result.rowCount ?? result.rows.length;
    }
    const { primaryKey } = table;
    const createdKeys =
      primaryKey.length === 0
        ? null
        : stored.map((row) => Object.fromEntries(primaryKey.map((k) => [k, row[k]])));
    return { inserted, rows: stored, primaryKey, createdKeys };
  }

  async update(raw: DbUpdateRequest, options: DbCallOptions = {}): Promise<DbUpdateResult> {
    const input = parseInput(DbUpdateInputSchema, raw, 'db_update');
    const set = foldKeys(input.set, 'set');
    const where = foldKeys(input.where, 'where');
    const table = await this.describeTable(input.table, options);
    const [result] = await this.run(
      [updateStep(this.schema, input.table, set, where, table.encode)],
      options,
    );
    return { updated: result.rowCount ?? 0 };
  }

  async delete(raw: DbDeleteRequest, options: DbCallOptions = {}): Promise<DbDeleteResult> {
    const input = parseInput(DbDeleteInputSchema, raw, 'db_delete');
    const where = foldKeys(input.where, 'where');
    const table = await this.describeTable(input.table, options);
    const [result] = await this.run([deleteStep(this.schema, input.table, where, table.encode)], options);
    return { deleted: result.rowCount ?? 0 };
  }

  async deleteByKeys(
    rawTable: string,
    keys: DbRow[],
    options: DbCallOptions = {},
  ): Promise<{ deleted: number; missing: DbRow[] }> {
    const table = parseInput(DbIdentifierSchema, rawTable, 'db_rows undo');
    if (keys.length === 0) return { deleted: 0, missing: [] };
    const described = await this.describeTable(table, options);
    const steps = keys.map((key, i) => {
      const where = foldKeys(key, `keys[${i}]`);
      if (where.size === 0) throw errors.validation(`keys[${i}] names no column`);
      return deleteStep(this.schema, table, where, described.encode);
    });
    const results = await this.run(steps, options);
    let deleted = 0;
    const missing: DbRow[] = [];
    results.forEach((result, i) => {
      const n = result.rowCount ?? 0;
      deleted += n;
      if (n === 0) missing.push(keys[i]!);
    });
    return { deleted, missing };
  }

  /**
   * The table's primary key and a value encoder that knows its column types (json and jsonb take
   * every value as JSON). A missing table is the database's 42P01, as the write would have said.
   */
  private async describeTable(
    table: string,
    options: DbCallOptions,
  ): Promise<{ primaryKey: string[]; encode: ValueEncoder }> {
    const name = qualified(this.schema, table);
    const [exists, columns] = await this.run(
      [
        { sql: 'SELECT to_regclass($1) IS NOT NULL', params: [name] },
        { sql: tableColumnsSql(), params: [name] },
      ],
      options,
    );
    if (exists.rows[0]?.[0] !== 't') {
      throw dbErrorToAppError({ sqlstate: '42P01', message: `relation "${table}" does not exist` });
    }
    const types = new Map<string, number>();
    const keys: Array<[number, string]> = [];
    for (const [column, typeOid, keyPosition] of columns.rows) {
      if (column === null) continue;
      types.set(column, Number(typeOid));
      if (keyPosition !== null) keys.push([Number(keyPosition), column]);
    }
    return {
      primaryKey: keys.sort((x, y) => x[0] - y[0]).map(([, column]) => column),
      encode: (column, value, where) => encodeColumnValue(value, types.get(column), where),
    };
  }

  async query(raw: DbQueryRequest, options: DbCallOptions = {}): Promise<DbQueryResult> {
    const input = parseInput(DbQueryInputSchema, raw, 'db_query');
    const step = this.agentStep(input.sql, input.params ?? [], 'params');
    const [result] = await this.run([step.step], options, { maxResultBytes: this.ctx.maxResultBytes });
    return this.toQueryResult(result, step.kind);
  }

  async transaction(raw: DbTransactionRequest, options: DbCallOptions = {}): Promise<DbTransactionResult> {
    const input = parseInput(DbTransactionInputSchema, raw, 'db_transaction');
    const steps = input.statements.map((s, i) => {
      try {
        return this.agentStep(s.sql, s.params ?? [], `statements[${i}].params`);
      } catch (err) {
        throw isAppError(err) ? withDetails(err, { statementIndex: i }) : err;
      }
    });
    const results = await this.run(
      steps.map((s) => s.step),
      options,
      {
        maxResultBytes: this.ctx.maxResultBytes,
        detailsFor: (index) => (index >= 0 && index < steps.length ? { statementIndex: index } : {}),
      },
    );
    return { results: results.map((r, i) => this.toQueryResult(r, steps[i].kind)) };
  }

  /** Guards an agent statement and binds its parameters. */
  private agentStep(sql: string, params: DbRow[string][], where: string): { step: SqlStep; kind: string } {
    const { kind } = guardAgentSql(sql, {
      ownSchema: this.schema,
      agentSchemaPattern: this.ctx.schemaPattern,
    });
    const encoded = params.map((v, i) => encodeParam(v, `${where}[${i}]`));
    return { step: { sql, params: encoded, maxRows: this.ctx.maxRows + 1 }, kind };
  }

  private toQueryResult(raw: RawResult, kind: string): DbQueryResult {
    const over = raw.rows.length > this.ctx.maxRows;
    const decoded = decodeRows(raw.fields, over ? raw.rows.slice(0, this.ctx.maxRows) : raw.rows);
    const truncated = raw.suspended || over || raw.cut === true;
    return {
      rows: decoded.rows,
      rowCount: truncated ? decoded.rows.length : (raw.rowCount ?? decoded.rows.length),
      fields: decoded.fields,
      truncated,
      command: raw.command ?? kind.toUpperCase(),
    };
  }

  /**
   * Runs steps as the agent (its role, schema and time limit) in one transaction. Database errors
   * become AppErrors; when the agent's role or schema went missing (dropped by another worker), it
   * is provisioned again and the call retried once.
   */
  private async run(
    steps: SqlStep[],
    options: DbCallOptions,
    extra: { maxResultBytes?: number; detailsFor?: (stepIndex: number) => Record<string, unknown> } = {},
  ): Promise<RawResult[]> {
    const requested = options.statementTimeoutMs;
    const timeoutMs =
      requested !== undefined && Number.isFinite(requested) && requested >= 1
        ? Math.min(Math.floor(requested), this.ctx.statementTimeoutMs)
        : this.ctx.statementTimeoutMs;
    const tx = {
      setup: agentSetupSql(this.schema, timeoutMs),
      steps,
      statementTimeoutMs: timeoutMs,
      signal: options.signal,
      maxResultBytes: extra.maxResultBytes,
    };
    try {
      await this.ctx.provision(this.schema);
      try {
        return await this.ctx.executor.transaction(tx);
      } catch (err) {
        if (!(err instanceof SqlStepError && (err.stepIndex === -1 || err.db.sqlstate === '3F000')))
          throw err;
        this.ctx.forget(this.schema);
        await this.ctx.provision(this.schema);
        return await this.ctx.executor.transaction(tx);
      }
    } catch (err) {
      if (err instanceof SqlStepError) throw dbErrorToAppError(err.db, extra.detailsFor?.(err.stepIndex));
      if (isAppError(err)) throw err;
      this.ctx.log.error({ err }, 'private db: unexpected failure');
      throw errors.internal();
    }
  }
}
