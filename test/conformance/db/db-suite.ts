import { randomUUID } from 'node:crypto';
import type { AgentDatabase, PrivateDatabases } from '../../../actors/tools/db';
import type { AppError } from '../../../schemas/errors';

/**
 * The behaviour both backends of the private databases share (PostgreSQL and PGlite): the six
 * tools, values, limits, errors, cancellation and the SQL guard. Each backend's test file opens
 * the service, calls this inside its describe, and adds its own checks.
 */
export interface SuiteContext {
  dbs(): PrivateDatabases;
  /** A fresh agent id for this run (dropped by the caller's afterAll). */
  newAgent(label: string): string;
}

/** Awaits a rejection and returns it as an AppError (fails the test if the promise resolves). */
export async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    return err as AppError;
  }
  throw new Error('expected a rejection');
}

export function privateDatabaseSuite(ctx: SuiteContext): void {
  let a: AgentDatabase;
  let b: AgentDatabase;

  beforeAll(async () => {
    a = ctx.dbs().forAgent(ctx.newAgent('a'));
    b = ctx.dbs().forAgent(ctx.newAgent('b'));
    await a.createTable({
      table: 'notes',
      schema: [
        { column: 'id', type: 'uuid', primaryKey: true, default: 'gen_random_uuid()' },
        { column: 'title', type: 'text', nullable: false },
        { column: 'body', type: 'text' },
        { column: 'n', type: 'integer', default: 0 },
        { column: 'email', type: 'text', unique: true },
      ],
    });
  });

  describe('db_create_table', () => {
    it('creates a table once; ifNotExists makes a repeat harmless, without it a repeat is 409', async () => {
      const spec = { table: 'Things', schema: [{ column: 'k', type: 'TEXT', primaryKey: true }] };
      await expect(a.createTable(spec)).resolves.toEqual({ table: 'things', created: true });
      await expect(a.createTable({ ...spec, ifNotExists: true })).resolves.toEqual({
        table: 'things',
        created: false,
      });
      const err = await rejection(a.createTable(spec));
      expect(err.code).toBe('CONFLICT');
      expect(err.details.sqlstate).toBe('42P07');
    });

    it('refuses bad names and types, naming the field', async () => {
      const cases: Array<[unknown, string]> = [
        [{ table: 't"; drop table notes; --', schema: [{ column: 'a', type: 'text' }] }, 'table'],
        [{ table: 'pg_class', schema: [{ column: 'a', type: 'text' }] }, 'table'],
        [{ table: 'x'.repeat(64), schema: [{ column: 'a', type: 'text' }] }, 'table'],
        [{ table: 'ok', schema: [{ column: 'a b', type: 'text' }] }, 'schema[0].column'],
        [{ table: 'ok', schema: [{ column: 'a', type: 'text); drop table notes; --' }] }, 'schema[0].type'],
        [{ table: 'ok', schema: [{ column: 'a', type: 'money' }] }, 'schema[0].type'],
        [
          {
            table: 'ok',
            schema: [
              { column: 'a', type: 'text' },
              { column: 'A', type: 'text' },
            ],
          },
          'schema[1].column',
        ],
        [{ table: 'ok', schema: [] }, 'schema'],
      ];
      for (const [input, path] of cases) {
        const err = await rejection(a.createTable(input as never));
        expect(err.code).toBe('VALIDATION_ERROR');
        expect((err.details.issues as { path: string }[]).map((i) => i.path)).toContain(path);
      }
    });

    it('keeps literal defaults as data (no injection through a default)', async () => {
      await a.createTable({
        table: 'defaults',
        schema: [
          { column: 'id', type: 'integer', primaryKey: true },
          { column: 'label', type: 'text', default: "it's'); drop table notes; --" },
          { column: 'meta', type: 'jsonb', default: { a: [1, 2] } },
          { column: 'at', type: 'timestamptz', default: 'now()' },
        ],
      });
      const r = await a.insert({ table: 'defaults', data: { id: 1 } });
      expect(r.rows[0]).toMatchObject({ id: 1, label: "it's'); drop table notes; --", meta: { a: [1, 2] } });
      expect(r.rows[0].at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
      await expect(a.query({ sql: 'select count(*) as c from notes' })).resolves.toMatchObject({
        rows: [{ c: 0 }],
      });
    });
  });

  describe('db_insert, db_update, db_delete', () => {
    it('inserts one row and reports it with its created key', async () => {
      const r = await a.insert({ table: 'notes', data: { title: 'first', email: 'one@example.com' } });
      expect(r.inserted).toBe(1);
      expect(r.primaryKey).toEqual(['id']);
      expect(r.rows[0]).toMatchObject({ title: 'first', body: null, n: 0, email: 'one@example.com' });
      expect(r.createdKeys).toEqual([{ id: r.rows[0].id }]);
      expect(r.rows[0].id).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('inserts many rows; missing keys take defaults; column names fold to lower case', async () => {
      const r = await a.insert({
        table: 'notes',
        data: [{ Title: 'm1', n: 1 }, { title: 'm2' }, { title: 'm3', body: 'b', n: 3 }],
      });
      expect(r.inserted).toBe(3);
      expect(r.rows.map((row) => [row.title, row.n, row.body])).toEqual([
        ['m1', 1, null],
        ['m2', 0, null],
        ['m3', 3, 'b'],
      ]);
      expect(r.createdKeys).toHaveLength(3);
    });

    it('reports createdKeys null for a table without a primary key, and composite keys in order', async () => {
      await a.createTable({ table: 'log', schema: [{ column: 'line', type: 'text' }] });
      await expect(a.insert({ table: 'log', data: [{ line: 'x' }, {}] })).resolves.toMatchObject({
        inserted: 2,
        primaryKey: [],
        createdKeys: null,
      });
      await a.createTable({
        table: 'pairs',
        schema: [
          { column: 'b', type: 'text', primaryKey: true },
          { column: 'a', type: 'integer', primaryKey: true },
        ],
      });
      const r = await a.insert({ table: 'pairs', data: { a: 1, b: 'x' } });
      expect(r.primaryKey).toEqual(['b', 'a']);
      expect(r.createdKeys).toEqual([{ b: 'x', a: 1 }]);
    });

    it('updates and deletes only the rows matching where (null matches IS NULL)', async () => {
      await a.insert({
        table: 'notes',
        data: [
          { title: 'u1', n: 7 },
          { title: 'u2', n: 7 },
          { title: 'u3', n: 8 },
        ],
      });
      await expect(a.update({ table: 'notes', set: { body: 'seven' }, where: { n: 7 } })).resolves.toEqual({
        updated: 2,
      });
      await expect(
        a.update({ table: 'notes', set: { n: 9 }, where: { body: null, title: 'u3' } }),
      ).resolves.toEqual({
        updated: 1,
      });
      await expect(a.delete({ table: 'notes', where: { body: 'seven' } })).resolves.toEqual({ deleted: 2 });
      await expect(a.delete({ table: 'notes', where: { title: 'nobody' } })).resolves.toEqual({ deleted: 0 });
      const left = await a.query({ sql: "select n from notes where title like 'u%'" });
      expect(left.rows).toEqual([{ n: 9 }]);
    });

    it('refuses unfiltered updates and deletes, too many rows, and injection through keys', async () => {
      const cases: Array<[Promise<unknown>, string]> = [
        [a.update({ table: 'notes', set: { n: 1 }, where: {} }), 'where'],
        [a.update({ table: 'notes', set: {}, where: { n: 1 } }), 'set'],
        [a.delete({ table: 'notes', where: {} }), 'where'],
        [a.delete({ table: 'notes' } as never), 'where'],
        [a.insert({ table: 'notes', data: Array.from({ length: 1001 }, () => ({ title: 'x' })) }), 'data'],
        [a.insert({ table: 'notes', data: { 'title" text); drop table notes; --': 'x' } }), 'data'],
        [a.insert({ table: 'notes', data: [{ title: 'x' }, { 'n = 1; --': 1 }] }), 'data[1]'],
        [a.update({ table: 'notes', set: { n: 1 }, where: { '1=1 or n': 1 } }), 'where'],
        [a.insert({ table: 'notes', data: { title: 'a', TITLE: 'b' } }), 'data'],
      ];
      for (const [call, path] of cases) {
        const err = await rejection(call);
        expect(err.code).toBe('VALIDATION_ERROR');
        expect((err.details.issues as { path: string }[])[0].path.startsWith(path)).toBe(true);
      }
    });

    it('answers 409 with the SQLSTATE for a unique violation, 400 for unknown columns and tables', async () => {
      await a.insert({ table: 'notes', data: { title: 'dup', email: 'dup@example.com' } });
      const dup = await rejection(
        a.insert({ table: 'notes', data: { title: 'dup2', email: 'dup@example.com' } }),
      );
      expect(dup).toMatchObject({ code: 'CONFLICT', status: 409 });
      expect(dup.details).toMatchObject({ sqlstate: '23505', constraint: expect.any(String) });
      expect(dup.message).toMatch(/duplicate key/);

      const col = await rejection(a.insert({ table: 'notes', data: { title: 'x', nope: 1 } }));
      expect(col).toMatchObject({ code: 'VALIDATION_ERROR', details: { sqlstate: '42703' } });
      const tab = await rejection(a.update({ table: 'missing', set: { a: 1 }, where: { a: 2 } }));
      expect(tab).toMatchObject({ code: 'VALIDATION_ERROR', details: { sqlstate: '42P01' } });
      const notNull = await rejection(a.insert({ table: 'notes', data: { body: 'no title' } }));
      expect(notNull).toMatchObject({ code: 'VALIDATION_ERROR', details: { sqlstate: '23502' } });
    });
  });

  describe('db_query', () => {
    it('runs a statement with positional parameters and describes the fields', async () => {
      await a.insert({
        table: 'notes',
        data: [
          { title: 'q1', n: 10 },
          { title: 'q2', n: 20 },
        ],
      });
      const r = await a.query({
        sql: 'select title, n, n * 2 as twice from notes where n >= $1 and title like $2 order by n',
        params: [10, 'q%'],
      });
      expect(r).toEqual({
        rows: [
          { title: 'q1', n: 10, twice: 20 },
          { title: 'q2', n: 20, twice: 40 },
        ],
        rowCount: 2,
        fields: [
          { name: 'title', type: 'text' },
          { name: 'n', type: 'integer' },
          { name: 'twice', type: 'integer' },
        ],
        truncated: false,
        command: 'SELECT',
      });
    });

    it('runs DML and allowed DDL on the agent’s own tables', async () => {
      const ins = await a.query({
        sql: 'insert into notes (title, n) values ($1, $2), ($3, $4)',
        params: ['d1', 1, 'd2', 2],
      });
      expect(ins).toMatchObject({ command: 'INSERT', rowCount: 2, rows: [] });
      const upd = await a.query({
        sql: "update notes set n = n + 1 where title in ('d1', 'd2') returning title, n",
      });
      expect(upd).toMatchObject({ command: 'UPDATE', rowCount: 2 });
      await expect(a.query({ sql: 'create index notes_n on notes (n);' })).resolves.toMatchObject({
        command: 'CREATE INDEX',
      });
      await expect(a.query({ sql: 'create table scratch (x int)' })).resolves.toMatchObject({
        command: 'CREATE TABLE',
      });
      await expect(a.query({ sql: 'drop table scratch' })).resolves.toMatchObject({ command: 'DROP TABLE' });
      const cte = await a.query({
        sql: "with d as (delete from notes where title = 'd1' returning n) select n from d",
      });
      expect(cte.rows).toEqual([{ n: 2 }]);
    });

    it('round-trips every column type as JSON', async () => {
      await a.createTable({
        table: 'typed',
        schema: [
          { column: 'id', type: 'uuid', primaryKey: true },
          { column: 't', type: 'text' },
          { column: 'i', type: 'integer' },
          { column: 'big', type: 'bigint' },
          { column: 'small_big', type: 'bigint' },
          { column: 'ok', type: 'boolean' },
          { column: 'r', type: 'real' },
          { column: 'doc', type: 'jsonb' },
          { column: 'list', type: 'jsonb' },
          { column: 'at', type: 'timestamptz' },
        ],
      });
      const row = {
        id: randomUUID(),
        t: 'héllo "world" \\ ✓',
        i: -42,
        big: '9007199254740993',
        small_big: 1234567890123,
        ok: true,
        r: 1.5,
        doc: { nested: { a: [1, 'two', null, true] }, s: "it's" },
        list: [1, { x: 2 }],
        at: '2024-02-29T12:34:56.789Z',
      };
      const inserted = await a.insert({ table: 'typed', data: row });
      expect(inserted.rows[0]).toEqual(row);
      const q = await a.query({
        sql: 'select * from typed where id = $1 and doc @> $2',
        params: [row.id, { s: "it's" }],
      });
      expect(q.rows).toEqual([row]);
      expect(q.fields.map((f) => f.type)).toEqual([
        'uuid',
        'text',
        'integer',
        'bigint',
        'bigint',
        'boolean',
        'real',
        'jsonb',
        'jsonb',
        'timestamptz',
      ]);
      const offset = await a.query({
        sql: 'select $1::timestamptz as at',
        params: ['2024-01-01T10:00:00+02:00'],
      });
      expect(offset.rows[0].at).toBe('2024-01-01T08:00:00Z');
      const misc = await a.query({
        sql: "select null::text as n, array[1, 2] as arr, array['a b', null] as txt, 2.5::numeric as num, count(*) as c from typed",
      });
      expect(misc.rows[0]).toEqual({ n: null, arr: [1, 2], txt: ['a b', null], num: 2.5, c: 1 });
    });

    it('stores any JSON value in a jsonb column as given, strings included', async () => {
      await a.createTable({
        table: 'docs',
        schema: [
          { column: 'k', type: 'integer', primaryKey: true },
          { column: 'doc', type: 'jsonb', default: 'plain' },
        ],
      });
      const values = ['hello', '{"a":1}', 5, true, [1, 'x'], { deep: { x: null } }];
      await a.insert({ table: 'docs', data: values.map((doc, k) => ({ k, doc })) });
      await a.insert({ table: 'docs', data: { k: 99 } });
      const r = await a.query({ sql: 'select doc from docs order by k' });
      expect(r.rows.map((row) => row.doc)).toEqual([...values, 'plain']);
      await expect(
        a.update({ table: 'docs', set: { doc: 'changed' }, where: { doc: '{"a":1}' } }),
      ).resolves.toEqual({
        updated: 1,
      });
      await expect(a.delete({ table: 'docs', where: { doc: { deep: { x: null } } } })).resolves.toEqual({
        deleted: 1,
      });
      const after = await a.query({ sql: 'select count(*) as c from docs where doc = \'"changed"\'::jsonb' });
      expect(after.rows).toEqual([{ c: 1 }]);
    });

    it('caps the rows at 10,000 and says so', async () => {
      const r = await a.query({ sql: 'select g from generate_series(1, 10005) g' });
      expect(r.rows).toHaveLength(10_000);
      expect(r.rows[9_999]).toEqual({ g: 10_000 });
      expect(r).toMatchObject({ truncated: true, rowCount: 10_000 });
      const exact = await a.query({ sql: 'select g from generate_series(1, 10000) g' });
      expect(exact).toMatchObject({ truncated: false, rowCount: 10_000 });
    });

    it('caps the size of a result (10 MiB of values), across the statements of a transaction too', async () => {
      const wide = "select repeat('x', 1000000) as v from generate_series(1, 12)";
      const r = await a.query({ sql: wide });
      expect(r).toMatchObject({ truncated: true, rowCount: 10 });
      const tx = await a.transaction({
        statements: [{ sql: wide }, { sql: wide }, { sql: 'select 1 as one' }],
      });
      expect(tx.results.map((x) => [x.rows.length, x.truncated])).toEqual([
        [10, true],
        [0, true],
        [1, false],
      ]);
    });

    it('answers 400 with the SQLSTATE and position for invalid SQL', async () => {
      const err = await rejection(a.query({ sql: 'select from where' }));
      expect(err).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
      expect(err.details).toMatchObject({ sqlstate: '42601', position: expect.any(Number) });
      const div = await rejection(a.query({ sql: 'select 1 / $1::int', params: [0] }));
      expect(div.details.sqlstate).toBe('22012');
      const params = await rejection(a.query({ sql: 'select $1::int', params: ['nope'] }));
      expect(params.details.sqlstate).toBe('22P02');
      const missing = await rejection(a.query({ sql: 'select $1::int, $2::int', params: [1] }));
      expect(missing).toMatchObject({ code: 'VALIDATION_ERROR', details: { sqlstate: '08P01' } });
      await expect(a.query({ sql: 'select 1 as one; -- done' })).resolves.toMatchObject({
        rows: [{ one: 1 }],
      });
    });

    it('times a statement out (DEADLINE_EXCEEDED) and stays usable', async () => {
      const started = Date.now();
      const err = await rejection(a.query({ sql: 'select pg_sleep(10)' }, { statementTimeoutMs: 200 }));
      expect(err.code).toBe('DEADLINE_EXCEEDED');
      expect(Date.now() - started).toBeLessThan(5000);
      await expect(a.query({ sql: 'select 1 as one' })).resolves.toMatchObject({ rows: [{ one: 1 }] });
    });

    it('cancels a running statement on abort and rolls its transaction back', async () => {
      const controller = new AbortController();
      const started = Date.now();
      const call = a.transaction(
        {
          statements: [
            { sql: "insert into notes (title) values ('aborted')" },
            { sql: 'select pg_sleep(10)' },
          ],
        },
        { signal: controller.signal },
      );
      setTimeout(() => controller.abort(), 300);
      const err = await rejection(call);
      expect(err.details.cancelled).toBe(true);
      expect(Date.now() - started).toBeLessThan(5000);
      const after = await a.query({ sql: "select count(*) as c from notes where title = 'aborted'" });
      expect(after.rows).toEqual([{ c: 0 }]);
      // Already aborted: refused before anything runs.
      await expect(a.query({ sql: 'select 1' }, { signal: AbortSignal.abort() })).rejects.toMatchObject({
        details: { cancelled: true },
      });
    });
  });

  describe('db_transaction', () => {
    it('commits all statements and answers one result each', async () => {
      const r = await a.transaction({
        statements: [
          { sql: 'insert into notes (title, n) values ($1, $2)', params: ['tx1', 100] },
          { sql: 'update notes set n = n + 1 where title = $1', params: ['tx1'] },
          { sql: 'select n from notes where title = $1', params: ['tx1'] },
        ],
      });
      expect(r.results.map((x) => [x.command, x.rowCount])).toEqual([
        ['INSERT', 1],
        ['UPDATE', 1],
        ['SELECT', 1],
      ]);
      expect(r.results[2].rows).toEqual([{ n: 101 }]);
    });

    it('rolls everything back when one statement fails, naming it', async () => {
      const err = await rejection(
        a.transaction({
          statements: [
            { sql: "insert into notes (title) values ('rolled back')" },
            { sql: 'select * from no_such_table' },
          ],
        }),
      );
      expect(err).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { sqlstate: '42P01', statementIndex: 1 },
      });
      const r = await a.query({ sql: "select count(*) as c from notes where title = 'rolled back'" });
      expect(r.rows).toEqual([{ c: 0 }]);
      const refused = await rejection(
        a.transaction({ statements: [{ sql: 'select 1' }, { sql: 'select * from pg_roles' }] }),
      );
      expect(refused).toMatchObject({ code: 'PERMISSION_DENIED', details: { statementIndex: 1 } });
      const tooMany = await rejection(
        a.transaction({ statements: Array.from({ length: 51 }, () => ({ sql: 'select 1' })) }),
      );
      expect(tooMany).toMatchObject({ code: 'VALIDATION_ERROR' });
    });
  });

  describe('isolation and the SQL guard', () => {
    it('gives each agent its own tables', async () => {
      await b.createTable({ table: 'notes', schema: [{ column: 'only_b', type: 'text' }] });
      await b.insert({ table: 'notes', data: { only_b: 'b' } });
      const fromB = await b.query({ sql: 'select * from notes' });
      expect(fromB.rows).toEqual([{ only_b: 'b' }]);
      const fromA = await a.query({ sql: 'select count(*) as c from notes where title is not null' });
      expect(Number(fromA.rows[0].c)).toBeGreaterThan(0);
    });

    it("refuses to name another agent's schema, even quoted or in another case", async () => {
      for (const sql of [
        `select * from ${a.schema}.notes`,
        `select * from "${a.schema}".notes`,
        `select * from ${a.schema.toUpperCase()}.NOTES`,
        `delete from ${a.schema}.notes`,
        `select * from notes, ${a.schema}.notes x`,
      ]) {
        const err = await rejection(b.query({ sql }));
        expect(err.code).toBe('PERMISSION_DENIED');
      }
    });

    it.each([
      ['select * from pg_class'],
      ['select relname from pg_catalog.pg_class'],
      ['select * from information_schema.tables'],
      ['select table_name from "information_schema"."columns"'],
      ["select pg_read_file('/etc/passwd')"],
      ["select pg_ls_dir('.')"],
      ['select * from pg_stat_activity'],
      ['set role postgres'],
      ['reset role'],
      ['set session authorization postgres'],
      ['set search_path = public'],
      ["select set_config('role', 'postgres', true)"],
      ["select set_config('search_path', 'public', true)"],
      ["select current_setting('data_directory')"],
      ["copy notes to program 'id'"],
      ["copy (select 1) to '/tmp/x'"],
      ['select 1; drop schema other cascade'],
      ['select 1; select 2'],
      ['select 1 ; ; reset role'],
      ['create extension dblink'],
      ['do $$ begin perform 1; end $$'],
      ['create function f() returns int language sql as $$ select 1 $$'],
      ['create view v as select 1'],
      ['create temp table tt (x int)'],
      ['select 1 into temporary t2'],
      ['grant all on notes to public'],
      ['begin'],
      ['commit'],
      ['rollback'],
      ['prepare p as select 1'],
      ["select 'pg_class'::regclass"],
      ['select 1259::regclass::text'],
      ["select to_regclass('pg_class')"],
      ["select has_table_privilege('notes', 'select')"],
      ["select query_to_xml('select * from pg_class', true, true, '')"],
      ["select * from ts_stat('select 1')"],
      ["select lo_import('/etc/passwd')"],
      ['select * from U&"pg\\005fclass"'],
      ['select * from public.anything'],
      ['lock table notes'],
      ['explain select 1'],
      ['show search_path'],
      ['listen x'],
      ['vacuum notes'],
      ['alter role current_user superuser'],
      ['drop schema x'],
    ])('refuses %s', async (sql) => {
      const err = await rejection(b.query({ sql }));
      expect(err.code).toBe('PERMISSION_DENIED');
      expect(err.status).toBe(403);
      expect(err.details.reason).toBe('sql_guard');
    });

    it('does not mistake names inside strings, comments and quotes for references', async () => {
      const r = await b.query({
        sql: "select 'pg_class; reset role' as s, $$pg_catalog$$ as d /* pg_class */ -- information_schema\n",
      });
      expect(r.rows).toEqual([{ s: 'pg_class; reset role', d: 'pg_catalog' }]);
      await expect(b.query({ sql: 'select pg_typeof(1) as t' })).resolves.toMatchObject({
        rows: [{ t: 'integer' }],
      });
    });

    it('answers 400 for unterminated literals and empty statements', async () => {
      for (const sql of [
        "select 'open",
        'select "open',
        'select /* open',
        'select $x$ open',
        ' ; ',
      ] as const) {
        await expect(b.query({ sql })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
      }
    });
  });

  describe('dropAgent', () => {
    it('drops the schema; the next call starts from an empty database', async () => {
      const id = ctx.newAgent('dropped');
      const db = ctx.dbs().forAgent(id);
      await db.createTable({ table: 'gone', schema: [{ column: 'x', type: 'integer' }] });
      await ctx.dbs().dropAgent(id);
      await expect(db.query({ sql: 'select * from gone' })).rejects.toMatchObject({
        details: { sqlstate: '42P01' },
      });
      await expect(
        db.createTable({ table: 'gone', schema: [{ column: 'x', type: 'integer' }] }),
      ).resolves.toEqual({
        table: 'gone',
        created: true,
      });
      await ctx.dbs().dropAgent(id);
      await ctx.dbs().dropAgent(id); // idempotent
    });
  });
}
