import { errors } from '../../../schemas/errors';
import {
  DbCreateTableInputSchema,
  DbDeleteInputSchema,
  DbInsertInputSchema,
  DbQueryInputSchema,
  DbTransactionInputSchema,
  DbUpdateInputSchema,
} from '../../../schemas/tools/db';
import { defineTool, type ToolContext } from '../router/tool-declaration';
import type { AgentDatabase, DbCallOptions } from './agent-database';

/**
 * The private database primitives (docs/tool-db.md): the calling agent's own schema and role in
 * the process's private databases (`services.privateDatabases`: PostgreSQL on DATABASE_URL, else
 * the embedded PGlite), with the call's AbortSignal. Every `db_*` tool may change data or tables
 * (`db_query` runs INSERT, UPDATE, DDL… too), so all are marked mutating.
 */

/**
 * Each statement has 5 s (the databases' limit); the first call of an agent also provisions its
 * schema and role, and the embedded PGlite may still be opening its data directory.
 */
const DB_MAX_DURATION_MS = 30_000;

function databaseOf(ctx: ToolContext): AgentDatabase {
  const dbs = ctx.services.privateDatabases;
  if (!dbs) throw errors.unavailable('Private databases are not available in this process');
  return dbs.forAgent(ctx.agent.id);
}

const callOptions = (ctx: ToolContext): DbCallOptions => ({ signal: ctx.signal });

export const dbCreateTableTool = defineTool({
  name: 'db_create_table',
  description:
    "Creates a table in the agent's private SQL database: columns of type text, integer, bigint, boolean, real, jsonb, timestamptz or uuid, with primaryKey, nullable, unique and default. Returns {table, created}.",
  input: DbCreateTableInputSchema,
  mutating: true,
  maxDurationMs: DB_MAX_DURATION_MS,
  run: (input, ctx) => databaseOf(ctx).createTable(input, callOptions(ctx)),
});

export const dbInsertTool = defineTool({
  name: 'db_insert',
  description:
    "Inserts one row ({column: value}) or up to 1000 rows into a table of the agent's private database, in one transaction. Returns {inserted, rows, primaryKey, createdKeys}.",
  input: DbInsertInputSchema,
  mutating: true,
  maxDurationMs: DB_MAX_DURATION_MS,
  run: (input, ctx) => databaseOf(ctx).insert(input, callOptions(ctx)),
});

export const dbUpdateTool = defineTool({
  name: 'db_update',
  description:
    "Updates the rows of a table of the agent's private database whose columns equal `where` (required) with `set`. Returns {updated}.",
  input: DbUpdateInputSchema,
  mutating: true,
  maxDurationMs: DB_MAX_DURATION_MS,
  run: (input, ctx) => databaseOf(ctx).update(input, callOptions(ctx)),
});

export const dbDeleteTool = defineTool({
  name: 'db_delete',
  description:
    "Deletes the rows of a table of the agent's private database whose columns equal `where` (required). Returns {deleted}.",
  input: DbDeleteInputSchema,
  mutating: true,
  maxDurationMs: DB_MAX_DURATION_MS,
  run: (input, ctx) => databaseOf(ctx).delete(input, callOptions(ctx)),
});

export const dbQueryTool = defineTool({
  name: 'db_query',
  description:
    "Runs one SQL statement ($1, $2… parameters) on the agent's private database (PostgreSQL dialect; SELECT, INSERT, UPDATE, DELETE, and DDL on its own tables). Returns {rows, rowCount, fields, truncated, command}.",
  input: DbQueryInputSchema,
  mutating: true,
  maxDurationMs: DB_MAX_DURATION_MS,
  run: (input, ctx) => databaseOf(ctx).query(input, callOptions(ctx)),
});

export const dbTransactionTool = defineTool({
  name: 'db_transaction',
  description:
    "Runs up to 50 SQL statements in order in one transaction on the agent's private database: all or nothing. Returns {results: [{rows, rowCount, fields, truncated, command}]}.",
  input: DbTransactionInputSchema,
  mutating: true,
  maxDurationMs: DB_MAX_DURATION_MS,
  run: (input, ctx) => databaseOf(ctx).transaction(input, callOptions(ctx)),
});

export const dbTools = [
  dbCreateTableTool,
  dbInsertTool,
  dbUpdateTool,
  dbDeleteTool,
  dbQueryTool,
  dbTransactionTool,
] as const;
