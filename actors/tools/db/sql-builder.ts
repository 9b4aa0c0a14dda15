import { createHash } from 'node:crypto';
import { errors } from '../../../schemas/errors';
import type { DbColumnSchema } from '../../../schemas/tools/db';
import type { z } from 'zod';
import { encodeParam } from './value-codec';
import type { SqlStep } from './sql-executor';

/**
 * The SQL the service writes itself (never agent text): names are validated by the input schemas
 * and always double-quoted here; values always travel as bind parameters, except the literal of a
 * column default (DDL takes no parameters), which is quoted by `quoteLiteral`.
 */

type Column = z.output<typeof DbColumnSchema>;
type Json = Parameters<typeof encodeParam>[0];

/** Encodes the value of a column as a parameter (`where` names it in errors). */
export type ValueEncoder = (column: string, value: Json, where: string) => string | null;

/** PostgreSQL's largest number of bind parameters in one statement. */
const MAX_BIND_PARAMS = 65_535;

/** `"name"`, with `"` doubled. */
export function quoteIdent(name: string): string {
  if (name.includes('\0')) throw new Error('identifier contains NUL');
  return `"${name.replace(/"/g, '""')}"`;
}

/** `'text'` with `'` doubled (standard_conforming_strings is on in every supported version). */
export function quoteLiteral(text: string): string {
  if (text.includes('\0')) throw new Error('literal contains NUL');
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * Schema and role name of an agent: `<prefix>` + 32 hex characters of SHA-256(agentId). Stable,
 * valid whatever the id contains, and unguessable from nothing but not secret.
 */
export function agentSchemaName(agentId: string, prefix: string): string {
  return `${prefix}${createHash('sha256').update(agentId, 'utf8').digest('hex').slice(0, 32)}`;
}

/** Matches the schema name of any agent with this prefix. */
export function agentSchemaPattern(prefix: string): RegExp {
  return new RegExp(`^${prefix.replace(/[^a-z0-9_]/g, '')}[0-9a-f]{32}$`);
}

/** `"schema"."table"`. */
export function qualified(schema: string, table: string): string {
  return `${quoteIdent(schema)}.${quoteIdent(table)}`;
}

function defaultClause(column: Column): string {
  const value = column.default;
  if (value === undefined) return '';
  if (value === null) return ' DEFAULT NULL';
  if (column.type === 'timestamptz' && (value === 'now()' || value === 'now')) return ' DEFAULT now()';
  if (column.type === 'uuid' && value === 'gen_random_uuid()') return ' DEFAULT gen_random_uuid()';
  const text =
    column.type === 'jsonb'
      ? JSON.stringify(value)
      : (encodeParam(value, `default of ${column.column}`) as string);
  return ` DEFAULT ${quoteLiteral(text)}::${column.type}`;
}

/** CREATE TABLE for `db_create_table`. */
export function createTableSql(
  schema: string,
  table: string,
  columns: Column[],
  ifNotExists: boolean,
): string {
  const keys = columns.filter((c) => c.primaryKey).map((c) => quoteIdent(c.column));
  const defs = columns.map((c) => {
    const notNull = c.primaryKey || c.nullable === false ? ' NOT NULL' : '';
    const unique = c.unique ? ' UNIQUE' : '';
    return `${quoteIdent(c.column)} ${c.type}${notNull}${unique}${defaultClause(c)}`;
  });
  if (keys.length > 0) defs.push(`PRIMARY KEY (${keys.join(', ')})`);
  return `CREATE TABLE ${ifNotExists ? 'IF NOT EXISTS ' : ''}${qualified(schema, table)} (${defs.join(', ')})`;
}

/**
 * The columns of a table (`to_regclass($1)`), in order: name, type OID, and position in the primary
 * key (null when not part of it). No rows when the table does not exist.
 */
export function tableColumnsSql(): string {
  return (
    'SELECT a.attname, a.atttypid, array_position(i.indkey::int2[], a.attnum) ' +
    'FROM pg_catalog.pg_attribute a ' +
    'LEFT JOIN pg_catalog.pg_index i ON i.indrelid = a.attrelid AND i.indisprimary ' +
    'WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped ' +
    'ORDER BY a.attnum'
  );
}

/** Lower-cases the keys of a row; two keys that fold to the same column are refused. */
export function foldKeys(row: Record<string, Json>, where: string): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const [key, value] of Object.entries(row)) {
    const column = key.toLowerCase();
    if (out.has(column)) {
      throw errors.validation(
        `Invalid input: ${where}: column "${column}" is given twice (names are case-insensitive)`,
        {
          issues: [{ path: where, message: `column "${column}" is given twice` }],
        },
      );
    }
    out.set(column, value);
  }
  return out;
}

/**
 * INSERT … RETURNING * statements for `db_insert`: the columns are the union of the rows' keys (a
 * row without one gets DEFAULT); rows are split so that no statement binds more than 65,535
 * parameters. Rows with no key at all become `DEFAULT VALUES` statements.
 */
export function insertSteps(
  schema: string,
  table: string,
  rows: Map<string, Json>[],
  maxRows: number,
  encode: ValueEncoder,
): SqlStep[] {
  const target = qualified(schema, table);
  const columns: string[] = [];
  for (const row of rows) for (const key of row.keys()) if (!columns.includes(key)) columns.push(key);
  if (columns.length === 0) {
    return rows.map(() => ({ sql: `INSERT INTO ${target} DEFAULT VALUES RETURNING *`, params: [], maxRows }));
  }
  const perStatement = Math.max(1, Math.floor(MAX_BIND_PARAMS / columns.length));
  const steps: SqlStep[] = [];
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    const params: (string | null)[] = [];
    const tuples = chunk.map((row, r) => {
      const cells = columns.map((column) => {
        if (!row.has(column)) return 'DEFAULT';
        params.push(encode(column, row.get(column) ?? null, `data[${start + r}].${column}`));
        return `$${params.length}`;
      });
      return `(${cells.join(', ')})`;
    });
    steps.push({
      sql: `INSERT INTO ${target} (${columns.map(quoteIdent).join(', ')}) VALUES ${tuples.join(', ')} RETURNING *`,
      params,
      maxRows,
    });
  }
  return steps;
}

/** `"a" = $n AND "b" IS NULL`, appending the values to `params`. */
function whereClause(where: Map<string, Json>, params: (string | null)[], encode: ValueEncoder): string {
  return [...where.entries()]
    .map(([column, value]) => {
      if (value === null) return `${quoteIdent(column)} IS NULL`;
      params.push(encode(column, value, `where.${column}`));
      return `${quoteIdent(column)} = $${params.length}`;
    })
    .join(' AND ');
}

export function updateStep(
  schema: string,
  table: string,
  set: Map<string, Json>,
  where: Map<string, Json>,
  encode: ValueEncoder,
): SqlStep {
  const params: (string | null)[] = [];
  const assignments = [...set.entries()].map(([column, value]) => {
    params.push(encode(column, value, `set.${column}`));
    return `${quoteIdent(column)} = $${params.length}`;
  });
  const filter = whereClause(where, params, encode);
  return { sql: `UPDATE ${qualified(schema, table)} SET ${assignments.join(', ')} WHERE ${filter}`, params };
}

export function deleteStep(
  schema: string,
  table: string,
  where: Map<string, Json>,
  encode: ValueEncoder,
): SqlStep {
  const params: (string | null)[] = [];
  const filter = whereClause(where, params, encode);
  return { sql: `DELETE FROM ${qualified(schema, table)} WHERE ${filter}`, params };
}

/**
 * Creates the agent's role and schema if missing: idempotent, and safe when several workers (or
 * deployments sharing the cluster) provision the same agent at once — an advisory lock serialises
 * workers of one database, and a duplicate role created by another database is ignored.
 */
export function provisionSql(name: string): string {
  const ident = quoteIdent(name);
  const literal = quoteLiteral(name);
  // The lock key: two int4 from the name (the name is already a hash). The lock is held until the
  // transaction ends, so the statements after the DO block are serialised too.
  const k1 = parseInt(name.slice(-16, -8), 16) | 0;
  const k2 = parseInt(name.slice(-8), 16) | 0;
  const revokePublic = quoteLiteral(`REVOKE ALL ON SCHEMA public FROM ${ident}`);
  return `
DO $provision$
BEGIN
  PERFORM pg_catalog.pg_advisory_xact_lock(${k1}, ${k2});
  IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = ${literal}) THEN
    BEGIN
      CREATE ROLE ${ident} NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL;
    END;
  END IF;
  IF EXISTS (SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = 'public') THEN
    EXECUTE ${revokePublic};
  END IF;
END
$provision$;
CREATE SCHEMA IF NOT EXISTS ${ident};
REVOKE ALL ON SCHEMA ${ident} FROM PUBLIC;
GRANT USAGE, CREATE ON SCHEMA ${ident} TO ${ident};
GRANT ${ident} TO CURRENT_USER;`;
}

/** Drops what the agent owns in this database, then its schema (the role goes in `dropRoleSql`). */
export function dropSchemaSql(name: string): string {
  const ident = quoteIdent(name);
  return `
DO $drop$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = ${quoteLiteral(name)}) THEN
    EXECUTE 'DROP OWNED BY ${ident.replace(/'/g, "''")}';
  END IF;
END
$drop$;
DROP SCHEMA IF EXISTS ${ident} CASCADE;`;
}

export function dropRoleSql(name: string): string {
  return `DROP ROLE IF EXISTS ${quoteIdent(name)}`;
}

/**
 * SET LOCALs that put the transaction in the agent's shoes: its role (privileges), its schema
 * (unqualified names), the statement time limit, and output formats the value codec expects.
 */
export function agentSetupSql(name: string, statementTimeoutMs: number): string {
  const ident = quoteIdent(name);
  return [
    `SET LOCAL ROLE ${ident}`,
    `SET LOCAL search_path = ${ident}`,
    `SET LOCAL statement_timeout = ${Math.max(1, Math.floor(statementTimeoutMs))}`,
    `SET LOCAL TimeZone = 'UTC'`,
    `SET LOCAL DateStyle = 'ISO, YMD'`,
    `SET LOCAL IntervalStyle = 'iso_8601'`,
  ].join('; ');
}
