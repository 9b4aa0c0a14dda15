import { z } from 'zod';

/**
 * Inputs and results of the private-database tools `db_create_table`, `db_insert`, `db_update`,
 * `db_delete`, `db_query` and `db_transaction`. The tool router reuses the `*InputSchema`s as the
 * tools' input schemas (`z.toJSONSchema(schema, { io: 'input' })` is `type: "object"`); the service
 * (`actors/tools/db`) validates every call with them. Behaviour, isolation and errors are described in
 * docs/tool-db.md.
 */

/** Limits of the requests (the run-time limits are options of the service). */
export const DB_TOOL_LIMITS = Object.freeze({
  /** Length of a table or column name (PostgreSQL's identifier limit). */
  maxIdentifierLength: 63,
  /** Columns in `db_create_table`, keys in one `db_insert` row, `set` and `where` entries. */
  maxColumns: 100,
  /** Rows in one `db_insert`. */
  maxInsertRows: 1000,
  /** Size of one SQL text, in UTF-8 bytes. */
  maxSqlBytes: 100 * 1024,
  /** Positional parameters of one statement. */
  maxParams: 1000,
  /** Statements in one `db_transaction`. */
  maxTransactionStatements: 50,
  /** Size of a whole input (as JSON), in UTF-8 bytes. */
  maxInputBytes: 4 * 1024 * 1024,
  /** Rows one statement returns at most (COMPATIBILITY.md: "at most 10,000 rows"). */
  maxRows: 10_000,
});

/** Column types of `db_create_table`, as PostgreSQL names them. */
export const DB_COLUMN_TYPES = Object.freeze([
  'text',
  'integer',
  'bigint',
  'boolean',
  'real',
  'jsonb',
  'timestamptz',
  'uuid',
] as const);

export type DbColumnType = (typeof DB_COLUMN_TYPES)[number];

/** Accepted spellings of the column types (case-insensitive): the canonical names and a few aliases. */
export const DB_COLUMN_TYPE_ALIASES: Readonly<Record<string, DbColumnType>> = Object.freeze({
  ...Object.fromEntries(DB_COLUMN_TYPES.map((t) => [t, t])),
  int: 'integer',
  int4: 'integer',
  int8: 'bigint',
  bool: 'boolean',
  float4: 'real',
  json: 'jsonb',
});

const IDENTIFIER = /^[a-zA-Z][a-zA-Z0-9_]*$/;

const utf8Bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/**
 * A table or column name: `^[a-zA-Z][a-zA-Z0-9_]*$`, at most 63 characters, not starting with `pg_`
 * (reserved for the system catalogs, which agent SQL may not name). Folded to lower case, like
 * PostgreSQL folds unquoted names, so that `db_query` can name it without quotes.
 */
export const DbIdentifierSchema = z
  .string()
  .max(DB_TOOL_LIMITS.maxIdentifierLength, `must be at most ${DB_TOOL_LIMITS.maxIdentifierLength} characters`)
  .regex(IDENTIFIER, 'must start with a letter and contain only letters, digits and _')
  .refine((s) => !s.toLowerCase().startsWith('pg_'), { message: 'must not start with pg_ (reserved)' })
  .transform((s) => s.toLowerCase());

/** A JSON value stored in or compared with a column. */
const JsonValueSchema = z.json();

/** `{ column: value }`; keys are column names (folded to lower case by the service). */
const ColumnValuesSchema = z
  .record(
    z
      .string()
      .max(DB_TOOL_LIMITS.maxIdentifierLength)
      .regex(IDENTIFIER, 'column names must start with a letter and contain only letters, digits and _'),
    JsonValueSchema,
  )
  .refine((o) => Object.keys(o).length <= DB_TOOL_LIMITS.maxColumns, {
    message: `at most ${DB_TOOL_LIMITS.maxColumns} columns`,
  });

const ColumnTypeSchema = z
  .preprocess(
    (v) => (typeof v === 'string' ? (DB_COLUMN_TYPE_ALIASES[v.trim().toLowerCase()] ?? v) : v),
    z.enum(DB_COLUMN_TYPES),
  )
  .describe(`One of ${DB_COLUMN_TYPES.join(', ')} (aliases: int, int4, int8, bool, float4, json).`);

/** One column of `db_create_table`. */
export const DbColumnSchema = z.object({
  column: DbIdentifierSchema.describe('Column name (folded to lower case).'),
  type: ColumnTypeSchema,
  primaryKey: z
    .boolean()
    .optional()
    .describe('Part of the primary key (several columns make a composite key). Implies not null.'),
  nullable: z.boolean().optional().describe('Accepts NULL (default true; false for primary key columns).'),
  unique: z.boolean().optional().describe('Adds a UNIQUE constraint on this column.'),
  default: JsonValueSchema.optional().describe(
    'Default value: a JSON literal (objects and arrays for jsonb), or "now()" for timestamptz, "gen_random_uuid()" for uuid.',
  ),
});

function withinInputSize(value: unknown): boolean {
  return utf8Bytes(JSON.stringify(value) ?? '') <= DB_TOOL_LIMITS.maxInputBytes;
}
const INPUT_TOO_LARGE = { message: `input must be at most ${DB_TOOL_LIMITS.maxInputBytes} bytes as JSON` };

export const DbCreateTableInputSchema = z
  .object({
    table: DbIdentifierSchema.describe('Table name (folded to lower case).'),
    schema: z
      .array(DbColumnSchema)
      .min(1, 'at least one column')
      .max(DB_TOOL_LIMITS.maxColumns, `at most ${DB_TOOL_LIMITS.maxColumns} columns`)
      .superRefine((columns, ctx) => {
        const seen = new Set<string>();
        columns.forEach((c, i) => {
          if (seen.has(c.column)) {
            ctx.addIssue({ code: 'custom', path: [i, 'column'], message: `duplicate column "${c.column}"` });
          }
          seen.add(c.column);
          if (c.primaryKey && c.nullable === true) {
            ctx.addIssue({
              code: 'custom',
              path: [i, 'nullable'],
              message: 'a primary key column cannot be nullable',
            });
          }
        });
      })
      .describe('The columns, in order.'),
    ifNotExists: z
      .boolean()
      .optional()
      .describe('Succeed without change when the table already exists (default false: 409).'),
  })
  .refine(withinInputSize, INPUT_TOO_LARGE);

export const DbInsertInputSchema = z
  .object({
    table: DbIdentifierSchema,
    data: z
      .union([
        ColumnValuesSchema,
        z
          .array(ColumnValuesSchema)
          .min(1, 'at least one row')
          .max(DB_TOOL_LIMITS.maxInsertRows, `at most ${DB_TOOL_LIMITS.maxInsertRows} rows`),
      ])
      .describe(
        `One row ({column: value}) or up to ${DB_TOOL_LIMITS.maxInsertRows} rows. Missing columns take their default.`,
      ),
  })
  .refine(withinInputSize, INPUT_TOO_LARGE);

const nonEmpty = (o: Record<string, unknown>) => Object.keys(o).length > 0;

export const DbUpdateInputSchema = z
  .object({
    table: DbIdentifierSchema,
    set: ColumnValuesSchema.refine(nonEmpty, { message: 'must name at least one column' }).describe(
      'New values: {column: value}.',
    ),
    where: ColumnValuesSchema.refine(nonEmpty, {
      message: 'must name at least one column (unfiltered updates are refused)',
    }).describe('Rows to change: every column equals its value (null matches IS NULL). Required.'),
  })
  .refine(withinInputSize, INPUT_TOO_LARGE);

export const DbDeleteInputSchema = z
  .object({
    table: DbIdentifierSchema,
    where: ColumnValuesSchema.refine(nonEmpty, {
      message: 'must name at least one column (unfiltered deletes are refused)',
    }).describe('Rows to delete: every column equals its value (null matches IS NULL). Required.'),
  })
  .refine(withinInputSize, INPUT_TOO_LARGE);

const SqlSchema = z
  .string()
  .min(1, 'must not be empty')
  .refine((s) => utf8Bytes(s) <= DB_TOOL_LIMITS.maxSqlBytes, {
    message: `must be at most ${DB_TOOL_LIMITS.maxSqlBytes} bytes`,
  })
  .describe(
    'One SQL statement with positional parameters $1, $2… (SELECT, WITH, VALUES, TABLE, INSERT, UPDATE, DELETE, MERGE, and CREATE TABLE/INDEX, ALTER TABLE, DROP TABLE/INDEX, TRUNCATE on your own tables).',
  );

const ParamsSchema = z
  .array(JsonValueSchema)
  .max(DB_TOOL_LIMITS.maxParams, `at most ${DB_TOOL_LIMITS.maxParams} parameters`)
  .describe('Values of $1, $2…; objects and arrays are sent as JSON text.');

export const DbStatementSchema = z.object({ sql: SqlSchema, params: ParamsSchema.optional() });

export const DbQueryInputSchema = z
  .object({ sql: SqlSchema, params: ParamsSchema.optional() })
  .refine(withinInputSize, INPUT_TOO_LARGE);

export const DbTransactionInputSchema = z
  .object({
    statements: z
      .array(DbStatementSchema)
      .min(1, 'at least one statement')
      .max(
        DB_TOOL_LIMITS.maxTransactionStatements,
        `at most ${DB_TOOL_LIMITS.maxTransactionStatements} statements`,
      )
      .describe('Run in order in one transaction: all succeed or none has any effect.'),
  })
  .refine(withinInputSize, INPUT_TOO_LARGE);

/** What callers send (before defaults and normalisation). */
export type DbCreateTableRequest = z.input<typeof DbCreateTableInputSchema>;
export type DbInsertRequest = z.input<typeof DbInsertInputSchema>;
export type DbUpdateRequest = z.input<typeof DbUpdateInputSchema>;
export type DbDeleteRequest = z.input<typeof DbDeleteInputSchema>;
export type DbQueryRequest = z.input<typeof DbQueryInputSchema>;
export type DbTransactionRequest = z.input<typeof DbTransactionInputSchema>;

/** Validated inputs. */
export type DbCreateTableInput = z.output<typeof DbCreateTableInputSchema>;
export type DbInsertInput = z.output<typeof DbInsertInputSchema>;
export type DbUpdateInput = z.output<typeof DbUpdateInputSchema>;
export type DbDeleteInput = z.output<typeof DbDeleteInputSchema>;
export type DbQueryInput = z.output<typeof DbQueryInputSchema>;
export type DbTransactionInput = z.output<typeof DbTransactionInputSchema>;

/** The tools and their input schemas, by bare tool name. */
export const DB_TOOL_INPUT_SCHEMAS = Object.freeze({
  db_create_table: DbCreateTableInputSchema,
  db_insert: DbInsertInputSchema,
  db_update: DbUpdateInputSchema,
  db_delete: DbDeleteInputSchema,
  db_query: DbQueryInputSchema,
  db_transaction: DbTransactionInputSchema,
});

// ---- results ----

type JsonValue = z.infer<typeof JsonValueSchema>;
/** A row as JSON: column name → value (see docs/tool-db.md for how each type is represented). */
export type DbRow = Record<string, JsonValue>;

export const DbFieldSchema = z.object({
  name: z.string(),
  /** SQL type name (`integer`, `text`, `jsonb`, `timestamptz`, `integer[]`…; `unknown` for others). */
  type: z.string(),
});

export const DbCreateTableResultSchema = z.object({
  table: z.string(),
  /** False when `ifNotExists` found the table already there. */
  created: z.boolean(),
});

export const DbInsertResultSchema = z.object({
  inserted: z.number().int().nonnegative(),
  /** The inserted rows as stored (RETURNING *), defaults included. */
  rows: z.array(z.record(z.string(), z.json())),
  /** Primary key columns of the table, in key order; empty when it has none. */
  primaryKey: z.array(z.string()),
  /** Per inserted row, its primary key `{column: value}`; null when the table has no primary key. */
  createdKeys: z.array(z.record(z.string(), z.json())).nullable(),
});

export const DbUpdateResultSchema = z.object({ updated: z.number().int().nonnegative() });
export const DbDeleteResultSchema = z.object({ deleted: z.number().int().nonnegative() });

export const DbQueryResultSchema = z.object({
  rows: z.array(z.record(z.string(), z.json())),
  /** Rows returned; for INSERT/UPDATE/DELETE/MERGE, rows affected (when not truncated). */
  rowCount: z.number().int().nonnegative(),
  fields: z.array(DbFieldSchema),
  /** True when rows were left out (row cap, or result size cap). */
  truncated: z.boolean(),
  /** The command that ran: SELECT, INSERT, UPDATE, DELETE, MERGE, CREATE TABLE… */
  command: z.string(),
});

export const DbTransactionResultSchema = z.object({
  /** One result per statement, in order. */
  results: z.array(DbQueryResultSchema),
});

export type DbField = z.infer<typeof DbFieldSchema>;
export type DbCreateTableResult = z.infer<typeof DbCreateTableResultSchema>;
export type DbInsertResult = z.infer<typeof DbInsertResultSchema>;
export type DbUpdateResult = z.infer<typeof DbUpdateResultSchema>;
export type DbDeleteResult = z.infer<typeof DbDeleteResultSchema>;
export type DbQueryResult = z.infer<typeof DbQueryResultSchema>;
export type DbTransactionResult = z.infer<typeof DbTransactionResultSchema>;
