import { errors } from '../../../schemas/errors';

/**
 * The SQL guard of `db_query` and `db_transaction`: a PostgreSQL lexer and a few rules checked on
 * its tokens before an agent's statement reaches the database.
 *
 * It is defence in depth, not the boundary. The boundary is the agent's role (see docs/tool-db.md):
 * it owns nothing outside its schema and has no right on other schemas. But a role without rights
 * still reads much of `pg_catalog` (every table and column name of every schema is in `pg_class`
 * and `pg_attribute`, readable by PUBLIC), may call functions granted to PUBLIC, and runs inside a
 * session whose *session* user is the service's; the guard closes those doors:
 *
 * 1. One statement: a `;` may only end the text.
 * 2. Its kind is allowed: SELECT, WITH, VALUES, TABLE, INSERT, UPDATE, DELETE, MERGE, and CREATE
 *    [UNLOGGED] TABLE, CREATE [UNIQUE] INDEX, ALTER TABLE, DROP TABLE, DROP INDEX, TRUNCATE. All
 *    else is refused: SET/RESET (ROLE, SESSION AUTHORIZATION, search_path), COPY, DO, CALL, CREATE
 *    FUNCTION/EXTENSION/VIEW/…, GRANT, BEGIN/COMMIT, PREPARE/EXECUTE, LISTEN, LOCK, EXPLAIN, SHOW…
 * 3. No name of a system schema or catalog: `pg_catalog`, `information_schema`, `public`, and any
 *    identifier starting with `pg_` (tables, views, functions: `pg_class`, `pg_read_file`), except the
 *    harmless functions `pg_sleep` and `pg_typeof`.
 * 4. No function that runs SQL text or changes settings (`set_config`, `current_setting`,
 *    `query_to_xml` and the other `*_to_xml*`, `ts_stat`, `ts_rewrite`, `dblink*`), that reveals
 *    objects by name (`to_reg*`, `has_*_privilege`, `*_description`, `format_type`), or that
 *    reaches large objects (`lo_*`, `loread`, `lowrite`); no `reg*` type (`'1259'::regclass`
 *    names any relation).
 * 5. No other agent's schema name; no temporary table (`CREATE TEMP`, `INTO TEMP`); no Unicode
 *    escapes (`U&"pg\005fclass"` would hide a name from rule 3).
 *
 * Names are compared case-insensitively, quoted or not; strings, comments and dollar-quoted bodies
 * are skipped (their content is data, not names).
 */

/** What the guard needs to know about the caller. */
export interface SqlGuardContext {
  /** The agent's own schema (allowed by rule 5). */
  ownSchema: string;
  /** Matches the schema name of any agent (rule 5). */
  agentSchemaPattern: RegExp;
}

/** The kind of an accepted statement, lower case: `select`, `insert`, `create table`… */
export interface GuardedStatement {
  kind: string;
}

type TokenKind = 'word' | 'quoted' | 'string' | 'number' | 'param' | 'op' | 'punct';

export interface SqlToken {
  kind: TokenKind;
  /** Identifiers (word, quoted): the name, lower-cased; others: the source text. */
  value: string;
  /** Offset in the SQL text (0-based). */
  pos: number;
}

const ALLOWED_PG_FUNCTIONS = new Set(['pg_sleep', 'pg_typeof']);

const DENIED_NAMES = new Set([
  'pg_catalog',
  'information_schema',
  'public',
  'set_config',
  'current_setting',
  'ts_stat',
  'ts_rewrite',
  'obj_description',
  'col_description',
  'shobj_description',
  'format_type',
  'loread',
  'lowrite',
  'regclass',
  'regcollation',
  'regconfig',
  'regdictionary',
  'regnamespace',
  'regoper',
  'regoperator',
  'regproc',
  'regprocedure',
  'regrole',
  'regtype',
]);

/** Patterns of denied names, with the reason given to the caller. */
const DENIED_PATTERNS: ReadonlyArray<[RegExp, string]> = [
  [/^pg_/, 'system catalogs and pg_* functions are not available'],
  [/_to_xml/, 'functions that run SQL text are not available'],
  [/^dblink/, 'dblink is not available'],
  [/^to_reg/, 'catalog lookups are not available'],
  [/^has_.*_privilege$/, 'privilege lookups are not available'],
  [/^lo_/, 'large objects are not available'],
];

/** Statement kinds: first word → allowed second words (null = any). */
const ALLOWED_KINDS: ReadonlyMap<string, ReadonlySet<string> | null> = new Map<
  string,
  ReadonlySet<string> | null
>([
  ['select', null],
  ['with', null],
  ['values', null],
  ['table', null],
  ['insert', null],
  ['update', null],
  ['delete', null],
  ['merge', null],
  ['truncate', null],
  ['create', new Set(['table', 'index', 'unique', 'unlogged'])],
  ['alter', new Set(['table'])],
  ['drop', new Set(['table', 'index'])],
]);

const TEMP_PREFIXES = new Set(['create', 'into', 'global', 'local']);

const denied = (message: string, details: Record<string, unknown> = {}) =>
  errors.forbidden(`SQL refused: ${message}`, { reason: 'sql_guard', ...details });
const malformed = (message: string, pos: number) =>
  errors.validation(`SQL syntax error: ${message}`, { position: pos + 1 });

const isIdentStart = (c: string) => /[A-Za-z_\u0080-\uffff]/.test(c);
const isIdentChar = (c: string) => /[A-Za-z0-9_$\u0080-\uffff]/.test(c);
const OP_CHARS = '+-*/<>=~!@#%^&|`?';
const NUMBER =
  /0[xX][0-9A-Fa-f_]+|0[oO][0-7_]+|0[bB][01_]+|\d[\d_]*(?:\.[\d_]*)?(?:[eE][+-]?\d+)?|\.\d[\d_]*(?:[eE][+-]?\d+)?/y;
const DOLLAR_TAG = /\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/y;

/** End of the match of a sticky regex at `at`, or -1. */
function matchEnd(re: RegExp, s: string, at: number): number {
  re.lastIndex = at;
  return re.test(s) ? re.lastIndex : -1;
}

/**
 * Splits SQL text into tokens the way PostgreSQL's lexer does, as far as the guard needs:
 * comments (nested `/* *\/`), strings (standard, E'', B'', X'', N''), dollar quotes, quoted and
 * unquoted identifiers, numbers, parameters and operators. Throws VALIDATION_ERROR on unterminated
 * literals and PERMISSION_DENIED on `U&` escapes.
 */
export function tokenizeSql(sql: string): SqlToken[] {
  const tokens: SqlToken[] = [];
  const n = sql.length;
  let i = 0;
  const closeQuote = (start: number, from: number, backslashEscapes: boolean): number => {
    let j = from;
    while (j < n) {
      const c = sql[j];
      if (backslashEscapes && c === '\\') j += 2;
      else if (c === "'") {
        if (sql[j + 1] === "'") j += 2;
        else return j + 1;
      } else j++;
    }
    throw malformed('unterminated string literal', start);
  };
  while (i < n) {
    const c = sql[i];
    const next = sql[i + 1] ?? '';
    const dollarTagEnd = c === '$' ? matchEnd(DOLLAR_TAG, sql, i) : -1;
    if (c === '\0') throw malformed('NUL character', i);
    if (/\s/.test(c)) {
      i++;
    } else if (c === '-' && next === '-') {
      while (i < n && sql[i] !== '\n' && sql[i] !== '\r') i++;
    } else if (c === '/' && next === '*') {
      const start = i;
      let depth = 1;
      i += 2;
      while (depth > 0) {
        if (i >= n) throw malformed('unterminated /* comment', start);
        if (sql[i] === '/' && sql[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (sql[i] === '*' && sql[i + 1] === '/') {
          depth--;
          i += 2;
        } else i++;
      }
    } else if (c === "'") {
      const end = closeQuote(i, i + 1, false);
      tokens.push({ kind: 'string', value: sql.slice(i, end), pos: i });
      i = end;
    } else if ((c === 'u' || c === 'U') && next === '&' && (sql[i + 2] === "'" || sql[i + 2] === '"')) {
      throw denied('Unicode escapes (U&) are not allowed', { position: i + 1 });
    } else if ((c === 'e' || c === 'E') && next === "'") {
      const end = closeQuote(i, i + 2, true);
      tokens.push({ kind: 'string', value: sql.slice(i, end), pos: i });
      i = end;
    } else if (/[bBxXnN]/.test(c) && next === "'") {
      const end = closeQuote(i, i + 2, false);
      tokens.push({ kind: 'string', value: sql.slice(i, end), pos: i });
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      let name = '';
      for (;;) {
        if (j >= n) throw malformed('unterminated quoted identifier', i);
        if (sql[j] === '"') {
          if (sql[j + 1] === '"') {
            name += '"';
            j += 2;
            continue;
          }
          break;
        }
        name += sql[j++];
      }
      tokens.push({ kind: 'quoted', value: name.toLowerCase(), pos: i });
      i = j + 1;
    } else if (c === '$' && /\d/.test(next)) {
      let j = i + 1;
      while (j < n && /\d/.test(sql[j])) j++;
      tokens.push({ kind: 'param', value: sql.slice(i, j), pos: i });
      i = j;
    } else if (dollarTagEnd > 0) {
      const tag = sql.slice(i, dollarTagEnd);
      const end = sql.indexOf(tag, dollarTagEnd);
      if (end < 0) throw malformed('unterminated dollar-quoted string', i);
      tokens.push({ kind: 'string', value: sql.slice(i, end + tag.length), pos: i });
      i = end + tag.length;
    } else if (isIdentStart(c)) {
      let j = i + 1;
      while (j < n && isIdentChar(sql[j])) j++;
      tokens.push({ kind: 'word', value: sql.slice(i, j).toLowerCase(), pos: i });
      i = j;
    } else if (/\d/.test(c) || (c === '.' && /\d/.test(next))) {
      const end = Math.max(matchEnd(NUMBER, sql, i), i + 1);
      // An identifier glued to a number (`1union`) is lexed on its own by the next turn.
      tokens.push({ kind: 'number', value: sql.slice(i, end), pos: i });
      i = end;
    } else if (c === ':' && next === ':') {
      tokens.push({ kind: 'punct', value: '::', pos: i });
      i += 2;
    } else if (OP_CHARS.includes(c)) {
      let j = i;
      // An operator never contains the start of a comment (PostgreSQL's rule).
      while (
        j < n &&
        OP_CHARS.includes(sql[j]) &&
        !(sql[j] === '-' && sql[j + 1] === '-') &&
        !(sql[j] === '/' && sql[j + 1] === '*')
      ) {
        j++;
      }
      if (j === i) j++;
      tokens.push({ kind: 'op', value: sql.slice(i, j), pos: i });
      i = j;
    } else {
      tokens.push({ kind: 'punct', value: c, pos: i });
      i++;
    }
  }
  return tokens;
}

function checkName(token: SqlToken, ctx: SqlGuardContext): void {
  const name = token.value;
  const refuse = (why: string) => {
    throw denied(`${why} ("${name}")`, { identifier: name, position: token.pos + 1 });
  };
  if (DENIED_NAMES.has(name)) {
    if (name.startsWith('reg')) refuse('reg* types are not available');
    if (name === 'pg_catalog' || name === 'information_schema' || name === 'public') {
      refuse('system schemas are not available');
    }
    refuse('this function is not available');
  }
  if (ALLOWED_PG_FUNCTIONS.has(name)) return;
  for (const [pattern, why] of DENIED_PATTERNS) if (pattern.test(name)) refuse(why);
  if (name !== ctx.ownSchema && ctx.agentSchemaPattern.test(name)) refuse("another agent's schema");
}

function statementKind(tokens: SqlToken[]): string {
  let k = 0;
  while (tokens[k]?.kind === 'punct' && tokens[k].value === '(') k++;
  const first = tokens[k];
  if (!first) throw errors.validation('SQL statement is empty');
  if (first.kind !== 'word') throw denied('the statement must start with a command such as SELECT');
  const allowed = ALLOWED_KINDS.get(first.value);
  if (allowed === undefined) {
    throw denied(`${first.value.toUpperCase()} statements are not allowed`, { command: first.value });
  }
  if (allowed === null) return first.value;
  const second = tokens[k + 1];
  if (second?.kind !== 'word' || !allowed.has(second.value)) {
    const what = `${first.value} ${second?.kind === 'word' ? second.value : ''}`.trim().toUpperCase();
    throw denied(`${what} statements are not allowed`, { command: what.toLowerCase() });
  }
  if (second.value === 'unique' || second.value === 'unlogged') {
    const third = tokens[k + 2];
    const expected = second.value === 'unique' ? 'index' : 'table';
    if (third?.kind !== 'word' || third.value !== expected) {
      throw denied(`CREATE ${second.value.toUpperCase()} must be followed by ${expected.toUpperCase()}`);
    }
    return `create ${expected}`;
  }
  return `${first.value} ${second.value}`;
}

/**
 * Checks one statement of an agent against the rules above. Returns its kind; throws AppError
 * PERMISSION_DENIED (`details.reason = 'sql_guard'`) for a refused statement, VALIDATION_ERROR for
 * text that cannot be lexed (unterminated string, comment or quoted identifier) or is empty.
 */
export function guardAgentSql(sql: string, ctx: SqlGuardContext): GuardedStatement {
  const tokens = tokenizeSql(sql);
  const firstSemicolon = tokens.findIndex((t) => t.kind === 'punct' && t.value === ';');
  if (firstSemicolon >= 0) {
    const after = tokens.slice(firstSemicolon).find((t) => !(t.kind === 'punct' && t.value === ';'));
    if (after)
      throw denied('only one statement per call (found text after ";")', { position: after.pos + 1 });
  }
  const body = firstSemicolon >= 0 ? tokens.slice(0, firstSemicolon) : tokens;
  const kind = statementKind(body);
  body.forEach((t, idx) => {
    if (t.kind !== 'word' && t.kind !== 'quoted') return;
    checkName(t, ctx);
    if (t.kind === 'word' && (t.value === 'temp' || t.value === 'temporary')) {
      const prev = body[idx - 1];
      if (prev?.kind === 'word' && TEMP_PREFIXES.has(prev.value)) {
        throw denied('temporary tables are not allowed', { position: t.pos + 1 });
      }
    }
  });
  return { kind };
}
