import { MongoBulkWriteError, MongoServerError } from 'mongodb';
import { describeEachTarget, type AnyDoc } from './targets';

describeEachTarget(
  'mongo conformance: indexes',
  (t) => {
    const coll = (name: string) => t().db.collection<AnyDoc>(name);

    it('enforces a unique index on insert, update, upsert and findOneAndUpdate', async () => {
      const c = coll('users');
      expect(await c.createIndex({ email: 1 }, { unique: true })).toBe('email_1');
      await c.insertOne({ _id: 'a' as never, email: 'a@x' });
      await c.insertOne({ _id: 'b' as never, email: 'b@x' });

      const insertErr = await c.insertOne({ email: 'a@x' }).catch((e: unknown) => e);
      expect(insertErr).toBeInstanceOf(MongoServerError);
      expect(insertErr).toMatchObject({ code: 11000, keyPattern: { email: 1 }, keyValue: { email: 'a@x' } });

      await expect(c.updateOne({ _id: 'b' as never }, { $set: { email: 'a@x' } })).rejects.toMatchObject({
        code: 11000,
      });
      await expect(
        c.updateOne({ email: 'new@x', other: 1 }, { $set: { email: 'a@x' } }, { upsert: true }),
      ).rejects.toMatchObject({ code: 11000 });
      await expect(
        c.findOneAndUpdate({ _id: 'b' as never }, { $set: { email: 'a@x' } }),
      ).rejects.toMatchObject({ code: 11000 });
      await expect(
        c.findOneAndUpdate({ _id: 'c' as never }, { $set: { email: 'b@x' } }, { upsert: true }),
      ).rejects.toMatchObject({ code: 11000 });
      await expect(c.replaceOne({ _id: 'b' as never }, { email: 'a@x' })).rejects.toMatchObject({
        code: 11000,
      });

      // Nothing changed by the failed writes; the unique value can move once it is free.
      expect(await c.find({}).sort({ _id: 1 }).toArray()).toEqual([
        { _id: 'a', email: 'a@x' },
        { _id: 'b', email: 'b@x' },
      ]);
      await c.updateOne({ _id: 'a' as never }, { $set: { email: 'moved@x' } });
      await c.updateOne({ _id: 'b' as never }, { $set: { email: 'a@x' } });
      expect(await c.findOne({ email: 'a@x' })).toEqual({ _id: 'b', email: 'a@x' });
      await c.deleteOne({ _id: 'b' as never });
      await c.insertOne({ _id: 'c' as never, email: 'a@x' });
    });

    it('enforces compound unique indexes on the combination', async () => {
      const c = coll('memberships');
      await c.createIndex({ org: 1, user: 1 }, { unique: true, name: 'org_user' });
      await c.insertMany([
        { org: 'o1', user: 'u1' },
        { org: 'o1', user: 'u2' },
        { org: 'o2', user: 'u1' },
      ]);
      const err = await c.insertOne({ org: 'o1', user: 'u2' }).catch((e: unknown) => e);
      expect(err).toMatchObject({
        code: 11000,
        keyPattern: { org: 1, user: 1 },
        keyValue: { org: 'o1', user: 'u2' },
      });
      expect(await c.findOne({ org: 'o2', user: 'u1' }, { projection: { _id: 0 } })).toEqual({
        org: 'o2',
        user: 'u1',
      });
      expect(await c.findOne({ user: 'u2', org: 'o1' }, { projection: { _id: 0 } })).toEqual({
        org: 'o1',
        user: 'u2',
      });
    });

    it('reports writeErrors for ordered and unordered batches', async () => {
      const c = coll('batches');
      await c.insertOne({ _id: 2 as never });
      const docs = [{ _id: 1 }, { _id: 2 }, { _id: 3 }, { _id: 2 }, { _id: 4 }] as never[];
      const ordered = await c.insertMany(docs, { ordered: true }).catch((e: unknown) => e);
      expect(ordered).toBeInstanceOf(MongoBulkWriteError);
      const o = ordered as MongoBulkWriteError;
      expect(o.code).toBe(11000);
      expect(o.result.insertedCount).toBe(1);
      expect(o.writeErrors).toEqual([expect.objectContaining({ index: 1, code: 11000 })]);
      expect(await c.countDocuments()).toBe(2);

      await c.deleteMany({ _id: { $ne: 2 } as never });
      const unordered = (await c
        .insertMany(docs, { ordered: false })
        .catch((e: unknown) => e)) as MongoBulkWriteError;
      expect(unordered.result.insertedCount).toBe(3);
      expect((unordered.writeErrors as unknown as Array<{ index: number }>).map((e) => e.index)).toEqual([
        1, 3,
      ]);
      expect(await c.countDocuments()).toBe(4);
    });

    it('lists, recreates idempotently and drops indexes', async () => {
      const c = coll('idx');
      await c.insertOne({ a: 1, b: 1 });
      await c.createIndex({ a: 1 });
      await c.createIndex({ a: 1 }); // same spec again: no-op
      await c.createIndexes([
        { key: { b: -1 }, name: 'b_desc', sparse: true },
        { key: { a: 1, b: 1 }, unique: true },
      ]);
      const list = await c.listIndexes().toArray();
      expect(list.map((i) => i.name).sort()).toEqual(['_id_', 'a_1', 'a_1_b_1', 'b_desc']);
      expect(list.find((i) => i.name === 'a_1_b_1')).toMatchObject({ key: { a: 1, b: 1 }, unique: true });
      expect(await c.indexExists('b_desc')).toBe(true);

      await expect(c.createIndex({ a: -1 }, { name: 'a_1' })).rejects.toMatchObject({
        code: expect.any(Number),
      });
      await c.dropIndex('b_desc');
      await c.dropIndex({ a: 1, b: 1 } as never);
      await expect(c.dropIndex('nope')).rejects.toMatchObject({ code: 27 });
      await expect(c.dropIndex('_id_')).rejects.toBeInstanceOf(MongoServerError);
      await c.dropIndexes();
      expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_']);
      await expect(coll('never-created').listIndexes().toArray()).rejects.toMatchObject({ code: 26 });
    });

    it('refuses a unique index over existing duplicates and honours sparse', async () => {
      const c = coll('dups');
      await c.insertMany([{ k: 1 }, { k: 1 }, { other: true }, { other: true }]);
      await expect(c.createIndex({ k: 1 }, { unique: true })).rejects.toMatchObject({ code: 11000 });
      expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_']);
      await c.deleteOne({ k: 1 });
      await c.createIndex({ k: 1 }, { unique: true, sparse: true });
      await c.insertOne({ other: 'no k, not indexed' });
      await expect(c.insertOne({ k: 1 })).rejects.toMatchObject({ code: 11000 });
    });

    it('expires documents through a TTL index', async () => {
      // A real mongod sweeps TTL indexes once a minute; only the embedded server is quick enough here.
      if (!t().embedded) return;
      const c = coll('sessions');
      await c.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 });
      await c.createIndex({ createdAt: 1 }, { expireAfterSeconds: 1 });
      const now = Date.now();
      await c.insertMany([
        { _id: 'past' as never, expiresAt: new Date(now - 1000) },
        { _id: 'soon' as never, expiresAt: new Date(now + 800) },
        { _id: 'created' as never, createdAt: new Date(now) },
        { _id: 'later' as never, expiresAt: new Date(now + 60_000) },
        { _id: 'not-a-date' as never, expiresAt: 'tomorrow' },
      ]);
      // Never returned once expired, even before the sweeper runs.
      expect(await c.findOne({ _id: 'past' as never })).toBeNull();
      expect(await c.countDocuments()).toBe(4);
      // An expired document that the sweeper has not reached yet does not block its _id.
      await c.insertOne({ _id: 'gone' as never, expiresAt: new Date(now - 5000) });
      const reused = await c.updateOne(
        { _id: 'gone' as never },
        { $set: { expiresAt: new Date(now + 60_000) } },
        { upsert: true },
      );
      expect(reused.upsertedCount).toBe(1);
      await new Promise((r) => setTimeout(r, 2200));
      expect((await c.find({}).toArray()).map((d) => d._id).sort()).toEqual(['gone', 'later', 'not-a-date']);
      expect(await c.estimatedDocumentCount()).toBe(3);
    });
  },
  { journaled: true },
);
