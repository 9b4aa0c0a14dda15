import { describeEachTarget, type AnyDoc } from './targets';

describeEachTarget(
  'mongo conformance: updates, upserts, findAndModify',
  (t) => {
    const coll = (name: string) => t().db.collection<AnyDoc>(name);

    it('upserts with the equality fields of the filter and $setOnInsert', async () => {
      const c = coll('upserts');
      const first = await c.updateOne(
        { tenant: 't1', key: 'k', n: { $gt: 5 } },
        { $set: { value: 1 }, $setOnInsert: { createdBy: 'me' } },
        { upsert: true },
      );
      expect(first.upsertedCount).toBe(1);
      expect(first.matchedCount).toBe(0);
      const doc = await c.findOne({ _id: first.upsertedId! });
      expect(doc).toEqual({ _id: first.upsertedId, tenant: 't1', key: 'k', value: 1, createdBy: 'me' });

      const second = await c.updateOne(
        { tenant: 't1', key: 'k' },
        { $set: { value: 2 }, $setOnInsert: { createdBy: 'other' } },
        { upsert: true },
      );
      expect(second).toMatchObject({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0, upsertedId: null });
      expect(await c.findOne({ tenant: 't1' }, { projection: { _id: 0 } })).toEqual({
        tenant: 't1',
        key: 'k',
        value: 2,
        createdBy: 'me',
      });

      const withId = await c.updateOne(
        { _id: 'fixed' as never, $and: [{ a: 1 }] },
        { $inc: { n: 1 } },
        { upsert: true },
      );
      expect(withId.upsertedId).toBe('fixed');
      expect(await c.findOne({ _id: 'fixed' as never })).toEqual({ _id: 'fixed', a: 1, n: 1 });

      const replaced = await c.replaceOne(
        { _id: 'rep' as never, ignored: true },
        { whole: 'doc' },
        { upsert: true },
      );
      expect(replaced.upsertedId).toBe('rep');
      expect(await c.findOne({ _id: 'rep' as never })).toEqual({ _id: 'rep', whole: 'doc' });
    });

    it('updates array elements with the positional operator and arrayFilters', async () => {
      const c = coll('arrays');
      await c.insertOne({
        _id: 'a' as never,
        items: [
          { sku: 'x', qty: 1 },
          { sku: 'y', qty: 2 },
          { sku: 'z', qty: 3 },
        ],
        scores: [1, 5, 9],
      });
      await c.updateOne({ _id: 'a' as never, 'items.sku': 'y' }, { $set: { 'items.$.qty': 20 } });
      await c.updateOne(
        { _id: 'a' as never },
        { $inc: { 'items.$[big].qty': 100 } },
        { arrayFilters: [{ 'big.qty': { $gte: 3 } }] },
      );
      await c.updateOne(
        { _id: 'a' as never },
        { $set: { 'scores.$[low]': 0 } },
        { arrayFilters: [{ low: { $lt: 6 } }] },
      );
      await c.updateOne({ _id: 'a' as never }, {
        $pull: { items: { sku: 'x' } },
        $addToSet: { scores: 9 },
      } as AnyDoc);
      expect(await c.findOne({ _id: 'a' as never })).toEqual({
        _id: 'a',
        items: [
          { sku: 'y', qty: 120 },
          { sku: 'z', qty: 103 },
        ],
        scores: [0, 0, 9],
      });
    });

    it('returns the document before or after with findOneAndUpdate', async () => {
      const c = coll('fam');
      await c.insertOne({ _id: 'd' as never, state: 'a', version: 1, secret: 's' });
      const before = await c.findOneAndUpdate(
        { _id: 'd' as never },
        { $set: { state: 'b' }, $inc: { version: 1 } },
        { returnDocument: 'before' },
      );
      expect(before).toEqual({ _id: 'd', state: 'a', version: 1, secret: 's' });
      const after = await c.findOneAndUpdate(
        { _id: 'd' as never, version: 2 },
        { $set: { state: 'c' }, $inc: { version: 1 } },
        { returnDocument: 'after', projection: { secret: 0 } },
      );
      expect(after).toEqual({ _id: 'd', state: 'c', version: 3 });
      expect(
        await c.findOneAndUpdate({ _id: 'd' as never, version: 2 }, { $set: { state: 'x' } }),
      ).toBeNull();

      const meta = await c.findOneAndUpdate(
        { _id: 'd' as never },
        { $set: { state: 'm' } },
        { includeResultMetadata: true },
      );
      expect(meta.ok).toBe(1);
      expect(meta.lastErrorObject).toMatchObject({ n: 1, updatedExisting: true });

      const upserted = await c.findOneAndUpdate(
        { _id: 'new' as never },
        { $setOnInsert: { v: 1 } },
        { upsert: true, returnDocument: 'after' },
      );
      expect(upserted).toEqual({ _id: 'new', v: 1 });
      const upsertedBefore = await c.findOneAndUpdate(
        { _id: 'new2' as never },
        { $set: { v: 2 } },
        { upsert: true, returnDocument: 'before' },
      );
      expect(upsertedBefore).toBeNull();
      expect(await c.findOne({ _id: 'new2' as never })).toEqual({ _id: 'new2', v: 2 });
    });

    it('picks the first document in sort order, replaces and deletes', async () => {
      const c = coll('famsort');
      await c.insertMany([
        { _id: 1, job: 'q', prio: 2 },
        { _id: 2, job: 'q', prio: 9 },
        { _id: 3, job: 'q', prio: 5 },
      ] as never[]);
      const top = await c.findOneAndUpdate(
        { job: 'q', taken: { $exists: false } },
        { $set: { taken: true } },
        { sort: { prio: -1 }, returnDocument: 'after' },
      );
      expect(top).toEqual({ _id: 2, job: 'q', prio: 9, taken: true });
      const replaced = await c.findOneAndReplace(
        { _id: 3 as never },
        { job: 'done' },
        { returnDocument: 'after' },
      );
      expect(replaced).toEqual({ _id: 3, job: 'done' });
      const removed = await c.findOneAndDelete({ job: 'q' }, { sort: { prio: 1 } });
      expect(removed).toEqual({ _id: 1, job: 'q', prio: 2 });
      expect(await c.countDocuments()).toBe(2);
      expect(await c.findOneAndDelete({ job: 'none' })).toBeNull();
    });

    it('refuses to change _id and rejects malformed updates', async () => {
      const c = coll('immutable');
      await c.insertOne({ _id: 'keep' as never, v: 1 });
      await expect(c.updateOne({ _id: 'keep' as never }, { $set: { _id: 'other' } })).rejects.toMatchObject({
        code: 66,
      });
      await expect(
        c.replaceOne({ _id: 'keep' as never }, { _id: 'other', v: 2 } as never),
      ).rejects.toMatchObject({ code: 66 });
      await expect(
        c.updateOne({ _id: 'keep' as never }, { $unknownOp: { v: 1 } } as never),
      ).rejects.toMatchObject({ code: expect.any(Number) });
      await expect(
        t().db.command({ update: 'immutable', updates: [{ q: {}, u: { $set: { a: 1 }, plain: 1 } }] }),
      ).resolves.toMatchObject({
        writeErrors: [expect.objectContaining({ code: 9 })],
      });
      expect(await c.findOne({ _id: 'keep' as never })).toEqual({ _id: 'keep', v: 1 });
    });

    it('fails like MongoDB when an operator meets the wrong type', async () => {
      const c = coll('types');
      await c.insertOne({ _id: 'w' as never, s: 'text', n: 1, list: [1, 1, 2] });
      await expect(c.updateOne({ _id: 'w' as never }, { $inc: { s: 1 } })).rejects.toMatchObject({
        code: 14,
      });
      await expect(c.updateOne({ _id: 'w' as never }, { $push: { s: 1 } } as AnyDoc)).rejects.toMatchObject({
        code: 2,
      });
      await expect(c.updateOne({ _id: 'w' as never }, { $addToSet: { n: 1 } })).rejects.toMatchObject({
        code: 2,
      });
      await expect(c.updateOne({ _id: 'w' as never }, { $set: { 'n.deeper': 1 } })).rejects.toMatchObject({
        code: 28,
      });
      await expect(
        c.updateOne({ _id: 'w' as never }, { $set: { n: 2 }, $inc: { n: 1 } }),
      ).rejects.toMatchObject({ code: 40 });
      // $addToSet adds only what is missing and leaves existing duplicates alone.
      await c.updateOne({ _id: 'w' as never }, { $addToSet: { list: { $each: [2, 3, 3] }, fresh: 'a' } });
      expect(await c.findOne({ _id: 'w' as never })).toEqual({
        _id: 'w',
        s: 'text',
        n: 1,
        list: [1, 1, 2, 3],
        fresh: ['a'],
      });
      const same = await c.updateOne({ _id: 'w' as never }, { $addToSet: { list: 1 } });
      expect(same.modifiedCount).toBe(0);
    });

    it('supports pipeline-style updates', async () => {
      const c = coll('pipeupd');
      await c.insertOne({ _id: 'p' as never, a: 2, b: 3 });
      await c.updateOne({ _id: 'p' as never }, [{ $set: { sum: { $add: ['$a', '$b'] } } }, { $unset: 'b' }]);
      expect(await c.findOne({ _id: 'p' as never })).toEqual({ _id: 'p', a: 2, sum: 5 });
    });
  },
  { journaled: true },
);
