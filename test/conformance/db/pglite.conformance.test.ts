import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPrivateDatabases, type PrivateDatabases } from '../../../actors/tools/db';
import { silentLogger } from '../../../src/logging/logger';
import { privateDatabaseSuite } from './db-suite';

/**
 * The private databases in embedded mode: one PGlite instance (in a worker thread) under a
 * temporary DATA_DIR, shared by the whole file (opening it takes a few seconds the first time).
 */
describe('private databases on PGlite (embedded)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-db-pglite-'));
  let count = 0;
  const newAgent = (label: string) => `test:${label}:${count++}`;
  let dbs: PrivateDatabases;

  beforeAll(() => {
    dbs = openPrivateDatabases({ DATABASE_URL: undefined, DATA_DIR: dataDir }, silentLogger);
  });

  afterAll(async () => {
    await dbs?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('uses the embedded backend under DATA_DIR/sql', async () => {
    expect(dbs.backend).toBe('pglite');
    await dbs.forAgent(newAgent('warm-up')).query({ sql: 'select 1' });
    expect(fs.existsSync(path.join(dataDir, 'sql', 'PG_VERSION'))).toBe(true);
  }, 60_000);

  privateDatabaseSuite({ dbs: () => dbs, newAgent });

  it('keeps the data across a close and a reopen', async () => {
    const id = newAgent('persist');
    await dbs
      .forAgent(id)
      .createTable({ table: 'kept', schema: [{ column: 'v', type: 'text', primaryKey: true }] });
    await dbs.forAgent(id).insert({ table: 'kept', data: [{ v: 'one' }, { v: 'two' }] });
    await dbs.close();
    await expect(dbs.forAgent(id).query({ sql: 'select 1' })).rejects.toMatchObject({ code: 'UNAVAILABLE' });

    dbs = openPrivateDatabases({ DATABASE_URL: undefined, DATA_DIR: dataDir }, silentLogger);
    const r = await dbs.forAgent(id).query({ sql: 'select v from kept order by v' });
    expect(r.rows).toEqual([{ v: 'one' }, { v: 'two' }]);
  }, 60_000);

  it('queues concurrent calls of several agents on the one connection', async () => {
    const agents = [0, 1, 2].map((i) => dbs.forAgent(newAgent(`q${i}`)));
    await Promise.all(
      agents.map((db) => db.createTable({ table: 'c', schema: [{ column: 'n', type: 'integer' }] })),
    );
    await Promise.all(
      agents.flatMap((db, i) =>
        Array.from({ length: 5 }, (_, k) => db.insert({ table: 'c', data: { n: i * 10 + k } })),
      ),
    );
    const sums = await Promise.all(agents.map((db) => db.query({ sql: 'select sum(n) as s from c' })));
    expect(sums.map((r) => r.rows[0].s)).toEqual([10, 60, 110]);
  });
});
