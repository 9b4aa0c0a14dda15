import { Long, MongoClient, MongoServerError, type Document } from 'mongodb';
import { describeEachTarget, type AnyDoc } from './targets';

describeEachTarget('mongo conformance: collections, databases, commands', (t) => {
  it('creates, lists and drops collections', async () => {
    const { db } = t();
    await db.createCollection('explicit');
    await expect(db.createCollection('explicit')).rejects.toMatchObject({ code: 48 });
    await db.collection('implicit').insertOne({ a: 1 });
    const names = (await db.listCollections().toArray()).map((c) => c.name).sort();
    expect(names).toEqual(['explicit', 'implicit']);
    const filtered = await db.listCollections({ name: 'implicit' }, { nameOnly: true }).toArray();
    expect(filtered).toEqual([expect.objectContaining({ name: 'implicit', type: 'collection' })]);
    const info = (await db.listCollections({ name: 'explicit' }).toArray())[0];
    expect(info).toMatchObject({ name: 'explicit', type: 'collection', options: {} });

    await db.collection('implicit').drop();
    expect((await db.listCollections().toArray()).map((c) => c.name)).toEqual(['explicit']);
    expect(await db.collection('implicit').findOne({})).toBeNull();
    // Dropping something that does not exist is not an error for the driver.
    await expect(db.collection('never').drop()).resolves.toEqual(expect.any(Boolean));
  });

  it('renames a collection', async () => {
    const { db, client } = t();
    await db.collection('before').insertOne({ _id: 'r' as never });
    await db.collection('before').createIndex({ k: 1 }, { unique: true });
    await client
      .db('admin')
      .command({ renameCollection: `${db.databaseName}.before`, to: `${db.databaseName}.after` });
    expect(await db.collection('after').findOne({ _id: 'r' as never })).toEqual({ _id: 'r' });
    expect((await db.collection('after').listIndexes().toArray()).map((i) => i.name)).toContain('k_1');
    expect(await db.collection('before').countDocuments()).toBe(0);
  });

  it('lists and drops databases', async () => {
    const { client, db } = t();
    const other = client.db(`${db.databaseName}_b`);
    await other.collection('x').insertOne({ a: 1 });
    const { databases } = await client.db('admin').admin().listDatabases();
    const names = databases.map((d) => d.name);
    expect(names).toEqual(expect.arrayContaining([`${db.databaseName}_b`]));
    expect(await other.dropDatabase()).toBe(true);
    const after = (await client.db('admin').admin().listDatabases({ nameOnly: true })).databases.map(
      (d) => d.name,
    );
    expect(after).not.toContain(`${db.databaseName}_b`);
    expect(await other.collection('x').countDocuments()).toBe(0);
  });

  it('answers ping, hello and buildInfo', async () => {
    const { client } = t();
    const admin = client.db('admin');
    expect(await admin.command({ ping: 1 })).toMatchObject({ ok: 1 });
    const hello = await admin.command({ hello: 1 });
    expect(hello).toMatchObject({ isWritablePrimary: true, ok: 1 });
    expect(hello.maxWireVersion).toBeGreaterThanOrEqual(9);
    expect(hello.maxBsonObjectSize).toBe(16 * 1024 * 1024);
    const info = await admin.command({ buildInfo: 1 });
    expect(typeof info.version).toBe('string');
  });

  it('keeps the driver monitoring healthy: heartbeats succeed, the pool is never cleared', async () => {
    const { url, options } = t();
    const client = new MongoClient(url, { ...options, heartbeatFrequencyMS: 500 });
    const events: string[] = [];
    client.on('serverHeartbeatSucceeded', () => events.push('ok'));
    client.on('serverHeartbeatFailed', () => events.push('failed'));
    client.on('connectionPoolCleared', () => events.push('cleared'));
    client.on('serverDescriptionChanged', (e) => events.push(`type:${e.newDescription.type}`));
    await client.connect();
    await client.db('admin').command({ ping: 1 });
    await new Promise((r) => setTimeout(r, 1800));
    await client.db('admin').command({ ping: 1 });
    await client.close();
    expect(events.filter((e) => e === 'ok').length).toBeGreaterThanOrEqual(3);
    expect(events).not.toContain('failed');
    expect(events).not.toContain('cleared');
    if (t().embedded) expect(events).toContain('type:Standalone');
  });

  it('answers unknown and unsupported commands with an error, never a result', async () => {
    const { db } = t();
    const err = await db.command({ definitelyNotACommand: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MongoServerError);
    expect(err).toMatchObject({ code: 59 });
    await expect(
      db
        .collection('c')
        .aggregate([{ $notAStage: {} }])
        .toArray(),
    ).rejects.toBeInstanceOf(MongoServerError);
    await expect(db.command({ find: 'c', filter: { a: { $notAnOperator: 1 } } })).rejects.toBeInstanceOf(
      MongoServerError,
    );
    await expect(db.command({ insert: 'c', documents: [] })).rejects.toBeInstanceOf(MongoServerError);
    await expect(
      db.command({ getMore: Long.fromNumber(123456789), collection: 'c' } as Document),
    ).rejects.toMatchObject({ code: 43 });
    if (t().embedded) {
      await expect(db.command({ explain: { find: 'c' } })).rejects.toMatchObject({ code: 115 });
      await expect(
        db
          .collection('c')
          .aggregate([{ $out: 'elsewhere' }])
          .toArray(),
      ).rejects.toMatchObject({ code: 115 });
      await expect(db.collection('c').createIndex({ body: 'text' })).rejects.toMatchObject({ code: 67 });
    }
  });

  it('answers commands sent without a client session or with write concerns', async () => {
    const { db } = t();
    const c = db.collection<AnyDoc>('wc');
    await c.insertOne({ _id: 1 as never }, { writeConcern: { w: 'majority', j: true } });
    await c.insertOne({ _id: 2 as never }, { writeConcern: { w: 1 } });
    // w:0 is fire-and-forget (OP_MSG moreToCome): no reply is read, the write still happens.
    await c.insertOne({ _id: 3 as never }, { writeConcern: { w: 0 } });
    await new Promise((r) => setTimeout(r, 50));
    expect(await c.countDocuments({}, { readConcern: { level: 'local' } })).toBe(3);
    expect(await c.countDocuments({}, { readConcern: { level: 'majority' } })).toBe(3);
  });
});
