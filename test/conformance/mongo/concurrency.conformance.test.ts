import { MongoClient } from 'mongodb';
import { describeEachTarget, type AnyDoc } from './targets';

describeEachTarget(
  'mongo conformance: concurrent writers',
  (t) => {
    /** Several clients, each with its own connection pool, like several worker processes. */
    async function clients(n: number): Promise<MongoClient[]> {
      const { url, options } = t();
      return Promise.all(
        Array.from({ length: n }, async () => {
          const c = new MongoClient(url, { ...options, maxPoolSize: 20 });
          await c.connect();
          return c;
        }),
      );
    }

    it('applies 200 concurrent $inc on one document exactly once each', async () => {
      const name = t().db.databaseName;
      await t()
        .db.collection<AnyDoc>('counters')
        .insertOne({ _id: 'c' as never, n: 0 });
      const pool = await clients(4);
      try {
        await Promise.all(
          Array.from({ length: 200 }, (_, i) =>
            pool[i % pool.length]
              .db(name)
              .collection<AnyDoc>('counters')
              .updateOne({ _id: 'c' as never }, { $inc: { n: 1 } }),
          ),
        );
        expect(
          await t()
            .db.collection('counters')
            .findOne({ _id: 'c' as never }),
        ).toEqual({ _id: 'c', n: 200 });
      } finally {
        await Promise.all(pool.map((c) => c.close()));
      }
    });

    it('lets exactly one of 100 conditional findOneAndUpdate win', async () => {
      const name = t().db.databaseName;
      await t()
        .db.collection<AnyDoc>('actors')
        .insertOne({ _id: 'x' as never, state: 'a', version: 1 });
      const pool = await clients(4);
      try {
        const results = await Promise.all(
          Array.from({ length: 100 }, (_, i) =>
            pool[i % pool.length]
              .db(name)
              .collection<AnyDoc>('actors')
              .findOneAndUpdate(
                { _id: 'x' as never, state: 'a' },
                { $set: { state: 'b', winner: i }, $inc: { version: 1 } },
                { returnDocument: 'after' },
              ),
          ),
        );
        const winners = results.filter((r) => r !== null);
        expect(winners).toHaveLength(1);
        const final = await t()
          .db.collection('actors')
          .findOne({ _id: 'x' as never });
        expect(final).toEqual({ _id: 'x', state: 'b', version: 2, winner: winners[0]!.winner });
      } finally {
        await Promise.all(pool.map((c) => c.close()));
      }
    });

    it('keeps a unique index consistent under concurrent inserts of the same key', async () => {
      const name = t().db.databaseName;
      await t().db.collection('claims').createIndex({ key: 1 }, { unique: true });
      const pool = await clients(3);
      try {
        const outcomes = await Promise.allSettled(
          Array.from({ length: 60 }, (_, i) =>
            pool[i % pool.length].db(name).collection<AnyDoc>('claims').insertOne({ key: 'k', i }),
          ),
        );
        expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
        for (const o of outcomes)
          if (o.status === 'rejected') expect(o.reason).toMatchObject({ code: 11000 });
        expect(await t().db.collection('claims').countDocuments()).toBe(1);
      } finally {
        await Promise.all(pool.map((c) => c.close()));
      }
    });
  },
  { journaled: true },
);
