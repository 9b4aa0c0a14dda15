import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPrivateDatabases, type PrivateDatabases } from '../../../actors/tools/db';
import { silentLogger } from '../../../src/logging/logger';
import { describeWithService } from '../../support/services';
import { privateDatabaseSuite, rejection } from './db-suite';

/**
 * The private databases on the real PostgreSQL. The database is shared with other suites: every
 * agent id carries this run's random suffix (so its schema and role names are unique) and is
 * dropped afterwards; the last test checks nothing of this run is left.
 */
describeWithService('postgres', 'private databases on PostgreSQL', (url) => {
  const runId = randomBytes(6).toString('hex');
  const agents = new Set<string>();
  const newAgent = (label: string) => {
    const id = `test:${label}/${runId}:${agents.size}`;
    agents.add(id);
    return id;
  };
  let dbs: PrivateDatabases;
  let admin: pg.Client;

  beforeAll(async () => {
    dbs = openPrivateDatabases({ DATABASE_URL: url, DATA_DIR: 'unused' }, silentLogger);
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
  });

  afterAll(async () => {
    for (const id of agents) await dbs?.dropAgent(id).catch(() => undefined);
    await dbs?.close();
    await admin?.end();
  });

  it('uses the PostgreSQL backend', () => {
    expect(dbs.backend).toBe('postgres');
  });

  privateDatabaseSuite({ dbs: () => dbs, newAgent });

  describe('the role boundary (beneath the guard)', () => {
    let aSchema: string;
    let bSchema: string;

    beforeAll(async () => {
      const a = dbs.forAgent(newAgent('role-a'));
      const b = dbs.forAgent(newAgent('role-b'));
      aSchema = a.schema;
      bSchema = b.schema;
      await a.createTable({ table: 'secret', schema: [{ column: 'v', type: 'text' }] });
      await a.insert({ table: 'secret', data: { v: 'only for a' } });
      await b.query({ sql: 'select 1' }); // provisions B
    });

    /** Runs SQL as B's role directly, as if the guard had let it through. */
    async function asRole(role: string, sql: string): Promise<pg.QueryResult> {
      await admin.query('BEGIN');
      try {
        await admin.query(`SET LOCAL ROLE "${role}"; SET LOCAL search_path = "${role}"`);
        return await admin.query(sql);
      } finally {
        await admin.query('ROLLBACK');
      }
    }

    it('creates a NOLOGIN role without privileges, and a schema only it may use', async () => {
      const role = await admin.query(
        'select rolcanlogin, rolsuper, rolcreaterole, rolcreatedb, rolbypassrls from pg_roles where rolname = $1',
        [aSchema],
      );
      expect(role.rows).toEqual([
        {
          rolcanlogin: false,
          rolsuper: false,
          rolcreaterole: false,
          rolcreatedb: false,
          rolbypassrls: false,
        },
      ]);
      const acl = await admin.query(
        `select has_schema_privilege($1, $2, 'USAGE') as own, has_schema_privilege($3, $2, 'USAGE') as other,
                has_schema_privilege($3, 'public', 'CREATE') as public_create`,
        [aSchema, aSchema, bSchema],
      );
      expect(acl.rows[0]).toEqual({ own: true, other: false, public_create: false });
    });

    it("keeps B out of A's schema even without the guard", async () => {
      const err = await rejection(asRole(bSchema, `select * from "${aSchema}".secret`));
      expect((err as unknown as { code: string }).code).toBe('42501');
      const err2 = await rejection(asRole(bSchema, `select pg_read_file('postgresql.conf')`));
      expect((err2 as unknown as { code: string }).code).toBe('42501');
    });

    it('shows why the guard matters: by default any role reads the names in pg_class', async () => {
      const r = await asRole(
        bSchema,
        `select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = '${aSchema}'`,
      );
      expect(r.rows.map((x) => x.relname)).toContain('secret');
    });
  });

  describe('provisioning', () => {
    it('is idempotent and race-safe between workers (two services, same new agent, at once)', async () => {
      const id = newAgent('race');
      const other = openPrivateDatabases({ DATABASE_URL: url, DATA_DIR: 'unused' }, silentLogger);
      try {
        const calls = [dbs, other, dbs, other].map((s) => s.forAgent(id).query({ sql: 'select 1 as x' }));
        const results = await Promise.all(calls);
        expect(results.every((r) => r.rows[0].x === 1)).toBe(true);
      } finally {
        await other.close();
      }
    });

    it('provisions again when another worker dropped the agent in between', async () => {
      const id = newAgent('stale');
      const other = openPrivateDatabases({ DATABASE_URL: url, DATA_DIR: 'unused' }, silentLogger);
      try {
        await dbs.forAgent(id).query({ sql: 'select 1' });
        await other.dropAgent(id); // dbs still believes the agent is provisioned
        await expect(dbs.forAgent(id).query({ sql: 'select 2 as y' })).resolves.toMatchObject({
          rows: [{ y: 2 }],
        });
      } finally {
        await other.close();
      }
    });
  });

  it('answers UNAVAILABLE when the database cannot be reached', async () => {
    const down = openPrivateDatabases(
      { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/test', DATA_DIR: 'unused' },
      silentLogger,
      {
        postgres: { connectTimeoutMs: 1000 },
      },
    );
    try {
      const err = await rejection(down.forAgent('x').query({ sql: 'select 1' }));
      expect(err).toMatchObject({ code: 'UNAVAILABLE', status: 503, retryable: true });
    } finally {
      await down.close();
    }
  });

  it('leaves no schema or role of this run behind after dropAgent', async () => {
    const names = [...agents].map((id) => dbs.forAgent(id).schema);
    for (const id of agents) await dbs.dropAgent(id);
    const left = await admin.query(
      'select nspname as name from pg_namespace where nspname = any($1) union all select rolname from pg_roles where rolname = any($1)',
      [names],
    );
    expect(left.rows).toEqual([]);
  });
});
