import pg from 'pg';
import { executionsCollection } from '../../../actors/executions/executions.collection';
import { openPrivateDatabases } from '../../../actors/tools/db';
import { defaultAgentIdOf } from '../../../actors/tools/router/default-agent';
import { silentLogger } from '../../../src/logging/logger';
import { describeWithService } from '../../support/services';
import { bearer, startExecHarness, type ExecHarness } from './support/harness';

/**
 * Rollback of `db_rows` effects: the rows a step inserted (by the keys `db_insert` reported) are
 * deleted from the agent's private database; rows already gone and a dropped table are reported
 * in `notUndone`. On the embedded PGlite and on a real PostgreSQL.
 */
function dbRowsSuite(
  env: () => Record<string, string>,
  extra?: (h: () => ExecHarness, token: () => string) => void,
) {
  let h: ExecHarness;
  let token: string;

  // PGlite starts a database per agent (WebAssembly): on a loaded machine its first calls take
  // tens of seconds, more than jest's default.
  jest.setTimeout(120_000);

  beforeAll(async () => {
    h = await startExecHarness(env());
    token = await h.account();
  });
  afterAll(async () => {
    await h?.stop();
  });

  const tool = async (name: string, input: Record<string, unknown>) => {
    const res = await h.http().post('/mcp').set(bearer(token)).send({ tool: name, input });
    if (res.status !== 200) throw new Error(`${name}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.result ?? res.body;
  };
  const count = async (table: string) => {
    const out = await tool('db_query', { sql: `SELECT count(*)::int AS n FROM ${table}` });
    return (out.rows as Array<{ n: number }>)[0]!.n;
  };

  it('deletes the inserted rows, newest first, and reports rows already gone and a dropped table', async () => {
    const keyed = [
      { column: 'id', type: 'integer', primaryKey: true },
      { column: 'title', type: 'text' },
    ];
    await tool('db_create_table', { table: 'notes', schema: keyed });
    await tool('db_create_table', { table: 'dropme', schema: keyed });
    await tool('db_insert', { table: 'notes', data: { id: 100, title: 'not ours' } });
    const steps = [
      { op: 'db_insert', table: 'notes', data: [{ id: 1 }, { id: 2 }, { id: 3 }] },
      { op: 'db_insert', table: 'Notes', data: { id: 10, title: 'x' } },
      { op: 'db_insert', table: 'dropme', data: { id: 1 } },
    ];
    const { id } = await h.create(token, { title: 'rows', input: { steps } });
    const done = await h.waitFor(token, id, (e) => e.status === 'COMPLETED');
    expect(done.steps.map((s) => s.effects)).toEqual([
      [{ kind: 'db_rows', target: 'notes (3 rows)', undone: false }],
      [{ kind: 'db_rows', target: 'Notes (1 row)', undone: false }],
      [{ kind: 'db_rows', target: 'dropme (1 row)', undone: false }],
    ]);
    expect(await count('notes')).toBe(5);

    await tool('db_delete', { table: 'notes', where: { id: 2 } });
    await tool('db_query', { sql: 'DROP TABLE dropme' });

    const res = await h.act(token, id, 'rollback');
    expect(res.status).toBe(200);
    expect(res.body.rollback.undone).toEqual([{ step: 1, kind: 'db_rows', target: 'Notes (1 row)' }]);
    expect(res.body.rollback.notUndone).toEqual([
      {
        effect: { step: 2, kind: 'db_rows', target: 'dropme (1 row)' },
        reason: 'the table "dropme" no longer exists',
      },
      {
        effect: { step: 0, kind: 'db_rows', target: 'notes (3 rows)' },
        reason: '1 of 3 rows already gone ({"id":2}); 2 deleted',
      },
    ]);
    // Only the execution's rows went; the row inserted outside it stays.
    const left = await tool('db_query', { sql: 'SELECT id FROM notes ORDER BY id' });
    expect(left.rows).toEqual([{ id: 100 }]);

    // A second rollback does not touch the undone effect again.
    const again = await h.act(token, id, 'rollback');
    expect(again.body.rollback.undone).toEqual([]);
    expect(again.body.rollback.notUndone).toHaveLength(2);
  });

  extra?.(
    () => h,
    () => token,
  );
}

describe('db_rows rollback on PGlite', () => {
  dbRowsSuite(
    () => ({}),
    (h, token) => {
      it('a Studio db_insert records db_rows and its rollback deletes the rows', async () => {
        const http = () => h().http().post('/api/studio/command').set(bearer(token()));
        const created = await h()
          .http()
          .post('/mcp')
          .set(bearer(token()))
          .send({
            tool: 'db_create_table',
            input: { table: 'studio_rows', schema: [{ column: 'k', type: 'text', primaryKey: true }] },
          });
        expect(created.status).toBe(200);
        const command = 'tool run db_insert --json {"table":"studio_rows","data":[{"k":"a"},{"k":"b"}]}';
        const preview = await http().send({ command });
        expect(preview.body.kind).toBe('preview');
        const ran = await http().send({ command, confirmToken: preview.body.confirmToken });
        expect(ran.body.kind).toBe('result');
        const id = ran.body.execution.id as string;
        const rollback = await h().act(token(), id, 'rollback');
        expect(rollback.body.rollback).toEqual({
          undone: [{ step: 0, kind: 'db_rows', target: 'studio_rows (2 rows)' }],
          notUndone: [],
        });
        const left = await h()
          .http()
          .post('/mcp')
          .set(bearer(token()))
          .send({
            tool: 'db_query',
            input: { sql: 'SELECT count(*)::int AS n FROM studio_rows' },
          });
        expect(left.body.result.rows).toEqual([{ n: 0 }]);
      });
    },
  );
});

describeWithService('postgres', 'db_rows rollback on PostgreSQL', (url) => {
  let seen: ExecHarness | undefined;
  dbRowsSuite(
    () => ({ DATABASE_URL: url }),
    (h) => {
      it('ran on the PostgreSQL backend', async () => {
        seen = h();
        const docs = await h().runtime.documents.repository(executionsCollection).find({});
        expect(docs.length).toBeGreaterThan(0);
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        try {
          const schemas = await admin.query(
            "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'notes'",
          );
          expect(schemas.rows[0].n).toBeGreaterThan(0);
        } finally {
          await admin.end();
        }
      });
    },
  );
  afterAll(async () => {
    // The accounts' private schemas and roles are dropped (the test database is shared).
    if (!seen) return;
    const docs = await seen.runtime.documents
      .repository(executionsCollection)
      .find({})
      .catch(() => []);
    const dbs = openPrivateDatabases({ DATABASE_URL: url, DATA_DIR: 'unused' }, silentLogger);
    for (const accountId of new Set(docs.map((d) => d.accountId))) {
      await dbs.dropAgent(defaultAgentIdOf(accountId)).catch(() => undefined);
    }
    await dbs.close();
  });
});
