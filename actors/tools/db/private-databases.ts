import path from 'node:path';
import { errors, isAppError } from '../../../schemas/errors';
import { DB_TOOL_LIMITS } from '../../../schemas/tools/db';
import type { Config } from '../../../src/config/load-config';
import type { Logger } from '../../../src/logging/logger';
import {
  AgentDatabaseImpl,
  type AgentDatabase,
  type AgentDatabaseContext,
  type DbCallOptions,
} from './agent-database';
import { PgExecutor, type PgExecutorOptions } from './pg-executor';
import { PgliteExecutor, type PgliteExecutorOptions } from './pglite-executor';
import { agentSchemaName, agentSchemaPattern, dropRoleSql, dropSchemaSql, provisionSql } from './sql-builder';
import { dbErrorToAppError } from './sql-errors';
import { SqlStepError, type SqlExecutor } from './sql-executor';

/** Tuning of `openPrivateDatabases` beyond the configuration (tests, deployments). */
export interface PrivateDatabasesOptions {
  /** Time limit of one statement, in ms (default 5000). */
  statementTimeoutMs?: number;
  /** Rows one statement returns at most (default 10000); more sets `truncated`. */
  maxRows?: number;
  /** Text size of the values one call returns at most, in bytes (default 10 MiB); more sets `truncated`. */
  maxResultBytes?: number;
  /** First part of agents' schema and role names: `[a-z][a-z0-9_]{0,20}` (default `agent_`). */
  namePrefix?: string;
  /** Agents remembered as provisioned, most recent first (default 10000). */
  provisionedCacheSize?: number;
  /** Where PGlite keeps its data (default `DATA_DIR/sql`). */
  pgliteDir?: string;
  postgres?: PgExecutorOptions;
  pglite?: PgliteExecutorOptions;
}

/** The agents' private databases (tools `db_*`). See docs/tool-db.md. */
export interface PrivateDatabases {
  /** `postgres` when DATABASE_URL is set, `pglite` (embedded) otherwise. */
  readonly backend: 'postgres' | 'pglite';
  /**
   * The database of one agent. Cheap and synchronous: the agent's schema and role are created on
   * its first call (idempotent, safe between workers).
   */
  forAgent(agentId: string): AgentDatabase;
  /** Drops the agent's schema (all its tables) and role. Does nothing if there is none. */
  dropAgent(agentId: string, options?: DbCallOptions): Promise<void>;
  /** Stops the backend; calls after this reject with UNAVAILABLE. */
  close(): Promise<void>;
}

const DEFAULTS = {
  statementTimeoutMs: 5000,
  maxResultBytes: 10 * 1024 * 1024,
  namePrefix: 'agent_',
  provisionedCacheSize: 10_000,
};

/** Provisioning and dropping are the service's own statements: a longer limit than agents'. */
const ADMIN_TIMEOUT_MS = 60_000;

class PrivateDatabasesImpl implements PrivateDatabases {
  readonly backend: 'postgres' | 'pglite';
  private readonly ctx: AgentDatabaseContext;
  private readonly prefix: string;
  /** Provisioned (or being provisioned) agents, in use order (a Map keeps insertion order). */
  private readonly provisioned = new Map<string, Promise<void>>();
  private readonly cacheSize: number;

  constructor(
    private readonly executor: SqlExecutor,
    private readonly log: Logger,
    options: PrivateDatabasesOptions,
  ) {
    this.backend = executor.backend;
    this.prefix = options.namePrefix ?? DEFAULTS.namePrefix;
    this.cacheSize = options.provisionedCacheSize ?? DEFAULTS.provisionedCacheSize;
    this.ctx = {
      executor,
      log,
      statementTimeoutMs: options.statementTimeoutMs ?? DEFAULTS.statementTimeoutMs,
      maxRows: options.maxRows ?? DB_TOOL_LIMITS.maxRows,
      maxResultBytes: options.maxResultBytes ?? DEFAULTS.maxResultBytes,
      schemaPattern: agentSchemaPattern(this.prefix),
      provision: (schema) => this.provision(schema),
      forget: (schema) => this.provisioned.delete(schema),
    };
  }

  forAgent(agentId: string): AgentDatabase {
    return new AgentDatabaseImpl(agentId, this.schemaOf(agentId), this.ctx);
  }

  async dropAgent(agentId: string, options: DbCallOptions = {}): Promise<void> {
    const name = this.schemaOf(agentId);
    this.provisioned.delete(name);
    await this.admin(dropSchemaSql(name), options.signal);
    try {
      await this.admin(dropRoleSql(name), options.signal);
    } catch (err) {
      // Still granted something in another database of the cluster: that deployment keeps it.
      if (!(isAppError(err) && err.details.sqlstate === '2BP01')) throw err;
      this.log.warn({ role: name }, 'private db: role kept, still used in another database');
    }
    this.provisioned.delete(name);
  }

  close(): Promise<void> {
    return this.executor.close();
  }

  private schemaOf(agentId: string): string {
    if (typeof agentId !== 'string' || agentId.length === 0 || agentId.length > 512) {
      throw errors.validation('agentId must be a non-empty string of at most 512 characters');
    }
    return agentSchemaName(agentId, this.prefix);
  }

  private provision(schema: string): Promise<void> {
    const known = this.provisioned.get(schema);
    if (known) {
      this.provisioned.delete(schema);
      this.provisioned.set(schema, known);
      return known;
    }
    const pending = this.admin(provisionSql(schema)).catch((err: unknown) => {
      this.provisioned.delete(schema);
      if (isAppError(err) && (err.code === 'UNAVAILABLE' || err.code === 'DEADLINE_EXCEEDED')) throw err;
      this.log.error({ err, schema }, 'private db: provisioning failed');
      throw errors.internal('Private database could not be prepared');
    });
    this.provisioned.set(schema, pending);
    while (this.provisioned.size > this.cacheSize) {
      this.provisioned.delete(this.provisioned.keys().next().value as string);
    }
    return pending;
  }

  /** Runs the service's own SQL (simple protocol) in one transaction, as the service's user. */
  private async admin(sql: string, signal?: AbortSignal): Promise<void> {
    try {
      await this.executor.transaction({
        setup: `SET LOCAL statement_timeout = ${ADMIN_TIMEOUT_MS}`,
        steps: [{ sql }],
        statementTimeoutMs: ADMIN_TIMEOUT_MS,
        signal,
      });
    } catch (err) {
      throw err instanceof SqlStepError ? dbErrorToAppError(err.db) : err;
    }
  }
}

/**
 * The agents' private databases: PostgreSQL on `DATABASE_URL` when set, else the embedded PGlite
 * under `DATA_DIR/sql` (one instance in a worker thread, shared by all agents). Nothing is
 * connected until the first call (PGlite starts opening at once, in the background).
 */
export function openPrivateDatabases(
  config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'>,
  logger: Logger,
  options: PrivateDatabasesOptions = {},
): PrivateDatabases {
  const prefix = options.namePrefix ?? DEFAULTS.namePrefix;
  if (!/^[a-z][a-z0-9_]{0,20}$/.test(prefix)) throw new Error(`invalid namePrefix "${prefix}"`);
  const log = logger.child({ component: 'private-db' });
  let executor: SqlExecutor;
  if (config.DATABASE_URL) {
    executor = new PgExecutor(config.DATABASE_URL, log, options.postgres);
    log.info('private databases: PostgreSQL (DATABASE_URL)');
  } else {
    const dir = options.pgliteDir ?? path.join(config.DATA_DIR, 'sql');
    executor = new PgliteExecutor(dir, log, options.pglite);
    log.info({ dir }, 'private databases: embedded PGlite (DATABASE_URL unset)');
  }
  return new PrivateDatabasesImpl(executor, log, options);
}
