import { agentSchemaName, agentSchemaPattern } from '../../../../actors/tools/db/sql-builder';
import { guardAgentSql, tokenizeSql } from '../../../../actors/tools/db/sql-guard';
import type { AppError } from '../../../../schemas/errors';

const own = agentSchemaName('agent-1', 'agent_');
const other = agentSchemaName('agent-2', 'agent_');
const ctx = { ownSchema: own, agentSchemaPattern: agentSchemaPattern('agent_') };

function refusal(sql: string): AppError {
  try {
    guardAgentSql(sql, ctx);
  } catch (err) {
    return err as AppError;
  }
  throw new Error(`accepted: ${sql}`);
}

describe('SQL guard', () => {
  it.each([
    ['select temp from weather', 'select'],
    ['update t set role = 1, temp = 2 where id = $1', 'update'],
    ["select E'it\\'s pg_class' as s", 'select'],
    ["select 'a'';reset role' as s", 'select'],
    ['select $tag$ pg_catalog $ $$ $tag$', 'select'],
    ['select a$b from t', 'select'],
    ['(select 1) union (select 2)', 'select'],
    ['with x as (select 1) select * from x', 'with'],
    ['select 1 as one;', 'select'],
    ['select 1 as one ; ;  -- trailing', 'select'],
    ['select /* nested /* pg_class */ still comment */ 1', 'select'],
    ['select 1 --pg_class', 'select'],
    ['select 1 where 2 <> 3 and 4 >= -1 and 5 !=-6', 'select'],
    ['select x::int, $1::jsonb from t', 'select'],
    ['create unique index i on t (a)', 'create index'],
    ['CREATE UNLOGGED TABLE u (x int)', 'create table'],
    ['alter table t add column c text', 'alter table'],
    ['drop table if exists t', 'drop table'],
    ['truncate t', 'truncate'],
    ['merge into t using s on t.id = s.id when matched then delete', 'merge'],
    ['table t', 'table'],
    ['values (1), (2)', 'values'],
    [`select * from ${own}.t`, 'select'],
    ['select pg_sleep(0.1), pg_typeof(1)', 'select'],
    ['select 0x1F, 1.5e-3, .5, 1_000', 'select'],
  ])('accepts %s', (sql, kind) => {
    expect(guardAgentSql(sql, ctx)).toEqual({ kind });
  });

  it.each([
    'select 1union select * from pg_class',
    'select * from pg_/**/class',
    'select 1 -- x\n; reset role',
    "select E'\\'' ; reset role",
    'select $a$ x $a$; reset role',
    'select 1; -- hidden\nselect 2',
    'create unique table t (x int)',
    'create unlogged view v as select 1',
    'create or replace function f() returns int as $$ select 1 $$ language sql',
    'create global temporary table t (x int)',
    'select * into temp t from x',
    'select * from "Pg_Class"',
    'SELECT * FROM PG_CATALOG.PG_CLASS',
    `select * from ${other}.t`,
    `select * from "${other.toUpperCase()}".t`,
    "select * from u&'\\0070g_class'",
    'select * from U&"\\0070g_class"',
    "select dblink_connect('x')",
    'select lo_get(1)',
    'select loread(1, 2)',
    "select 'int4'::regtype",
    "select table_to_xml('t', true, true, '')",
    'select format_type(23, null)',
    'select obj_description(1)',
    'call p()',
    'security label on table t is null',
    'comment on table t is $$x$$',
    'refresh materialized view v',
    'checkpoint',
    'discard all',
    'alter system set x = 1',
    'set local role x',
    'reset all',
    'select 1 from t where 1 = 1 ; set role postgres',
    '',
  ])('refuses %j', (sql) => {
    const err = refusal(sql);
    expect(['PERMISSION_DENIED', 'VALIDATION_ERROR']).toContain(err.code);
    if (sql !== '') expect(err.code).toBe('PERMISSION_DENIED');
  });

  it.each(["select 'open", 'select "open', 'select /* open /* nested */', 'select $x$ open', "select E'\\'"])(
    'answers VALIDATION_ERROR for the unterminated %j',
    (sql) => {
      expect(refusal(sql).code).toBe('VALIDATION_ERROR');
    },
  );

  it('names the refused identifier and its position', () => {
    const err = refusal('select * from notes, pg_class');
    expect(err.details).toMatchObject({ reason: 'sql_guard', identifier: 'pg_class', position: 22 });
  });

  it('lexes strings, quoted names, numbers and operators as PostgreSQL does', () => {
    const kinds = tokenizeSql(`select "a""b", 'x''y', 1.5e3, $1, a->>'k', b::text -- c\n/* d */`).map((t) => [
      t.kind,
      t.value,
    ]);
    expect(kinds).toEqual([
      ['word', 'select'],
      ['quoted', 'a"b'],
      ['punct', ','],
      ['string', "'x''y'"],
      ['punct', ','],
      ['number', '1.5e3'],
      ['punct', ','],
      ['param', '$1'],
      ['punct', ','],
      ['word', 'a'],
      ['op', '->>'],
      ['string', "'k'"],
      ['punct', ','],
      ['word', 'b'],
      ['punct', '::'],
      ['word', 'text'],
    ]);
  });
});
