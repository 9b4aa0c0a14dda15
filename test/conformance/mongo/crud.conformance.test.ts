import { Binary, Long, ObjectId, UUID } from 'mongodb';
import { describeEachTarget, type AnyDoc } from './targets';

describeEachTarget('mongo conformance: CRUD and reads', (t) => {
  const coll = (name: string) => t().db.collection<AnyDoc>(name);

  it('inserts, finds, updates and deletes', async () => {
    const c = coll('crud');
    const { insertedId } = await c.insertOne({ name: 'ada', age: 36 });
    expect(insertedId).toBeInstanceOf(ObjectId);
    await c.insertMany([
      { _id: 'u2', name: 'bob', age: 25 },
      { _id: 'u3', name: 'cy', age: 41 },
    ]);
    expect(await c.findOne({ _id: insertedId })).toEqual({ _id: insertedId, name: 'ada', age: 36 });
    expect(await c.findOne({ name: 'nobody' })).toBeNull();

    const upd = await c.updateOne({ _id: 'u2' }, { $set: { age: 26 }, $push: { tags: 'x' } } as AnyDoc);
    expect(upd).toMatchObject({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0 });
    expect(await c.findOne({ _id: 'u2' })).toEqual({ _id: 'u2', name: 'bob', age: 26, tags: ['x'] });

    const noop = await c.updateOne({ _id: 'u2' }, { $set: { age: 26 } });
    expect(noop).toMatchObject({ matchedCount: 1, modifiedCount: 0 });

    const many = await c.updateMany({ age: { $gt: 30 } }, { $inc: { age: 1 } });
    expect(many).toMatchObject({ matchedCount: 2, modifiedCount: 2 });

    const rep = await c.replaceOne({ _id: 'u3' }, { name: 'cyrus' });
    expect(rep.modifiedCount).toBe(1);
    expect(await c.findOne({ _id: 'u3' })).toEqual({ _id: 'u3', name: 'cyrus' });

    expect((await c.deleteOne({ _id: 'u3' })).deletedCount).toBe(1);
    expect((await c.deleteMany({})).deletedCount).toBe(2);
    expect(await c.countDocuments()).toBe(0);
  });

  it('keeps _id first and generates an ObjectId when it is missing', async () => {
    const c = coll('idorder');
    await c.insertOne({ a: 1, _id: 'late' });
    const raw = await c.findOne({ _id: 'late' });
    expect(Object.keys(raw!)).toEqual(['_id', 'a']);
    await c.updateOne({ _id: 'up1' }, { $set: { a: 1 } }, { upsert: true });
    expect(Object.keys((await c.findOne({ _id: 'up1' }))!)[0]).toBe('_id');
  });

  it('supports projection, sort, skip, limit', async () => {
    const c = coll('shape');
    await c.insertMany(
      Array.from({ length: 20 }, (_, i) => ({
        _id: i,
        n: i,
        even: i % 2 === 0,
        nested: { v: i * 10, w: 'x' },
      })),
    );
    const page = await c
      .find({ even: true }, { projection: { n: 1, 'nested.v': 1, _id: 0 } })
      .sort({ n: -1 })
      .skip(2)
      .limit(3)
      .toArray();
    expect(page).toEqual([
      { n: 14, nested: { v: 140 } },
      { n: 12, nested: { v: 120 } },
      { n: 10, nested: { v: 100 } },
    ]);
    const excluded = await c.findOne({ _id: 3 }, { projection: { nested: 0 } });
    expect(excluded).toEqual({ _id: 3, n: 3, even: false });
    // A projection shapes the answer only: the stored documents keep every field.
    await c.insertOne({ _id: 'arr', items: [{ a: 1, code: 'x', s: { t: 1 } }], top: 'kept' });
    expect(
      await c.findOne({ _id: 'arr' }, { projection: { 'items.code': 0, 'items.s.t': 0, top: 0 } }),
    ).toEqual({
      _id: 'arr',
      items: [{ a: 1, s: {} }],
    });
    expect(await c.find({ _id: 'arr' }, { projection: { 'items.code': 0 } }).toArray()).toEqual([
      { _id: 'arr', items: [{ a: 1, s: { t: 1 } }], top: 'kept' },
    ]);
    expect(await c.findOne({ _id: 'arr' })).toEqual({
      _id: 'arr',
      items: [{ a: 1, code: 'x', s: { t: 1 } }],
      top: 'kept',
    });
    expect(
      await c.findOneAndUpdate(
        { _id: 'arr' },
        { $set: { top: 'again' } },
        { projection: { 'items.code': 0 } },
      ),
    ).toEqual({ _id: 'arr', items: [{ a: 1, s: { t: 1 } }], top: 'kept' });
    expect((await c.findOne({ _id: 'arr' }))!.items).toEqual([{ a: 1, code: 'x', s: { t: 1 } }]);
    await c.deleteOne({ _id: 'arr' });
    const byTwoKeys = await c
      .find({ n: { $lt: 4 } })
      .sort({ even: 1, n: -1 })
      .map((d) => d.n)
      .toArray();
    expect(byTwoKeys).toEqual([3, 1, 2, 0]);
    expect(
      await c
        .find({ n: { $in: [1, 5, 99] } })
        .map((d) => d._id)
        .toArray(),
    ).toEqual([1, 5]);
  });

  it('pages large results with batchSize and getMore', async () => {
    const c = coll('paging');
    await c.insertMany(Array.from({ length: 250 }, (_, i) => ({ _id: i, v: 'x'.repeat(10) })));
    const seen: number[] = [];
    const cursor = c.find({}).sort({ _id: 1 }).batchSize(7);
    for await (const d of cursor) seen.push(d._id as unknown as number);
    expect(seen).toEqual(Array.from({ length: 250 }, (_, i) => i));
    // Default batch sizes (101, then the rest) and an early close of an open cursor.
    expect(await c.find({}).toArray()).toHaveLength(250);
    const early = c.find({}).batchSize(10);
    await early.next();
    await early.close();
    const limited = await c.find({}).sort({ _id: -1 }).limit(15).batchSize(4).toArray();
    expect(limited.map((d) => d._id)).toEqual(Array.from({ length: 15 }, (_, i) => 249 - i));
  });

  it('keeps _id of every BSON type and finds by it', async () => {
    const c = coll('ids');
    const ids: unknown[] = [
      new ObjectId(),
      'string-id',
      42,
      4.5,
      new UUID(),
      new Binary(Buffer.from([1, 2, 3, 250]), 0),
      new Date('2024-01-02T03:04:05.678Z'),
      { compound: 1, part: 'a' },
    ];
    for (const [i, id] of ids.entries()) await c.insertOne({ _id: id as never, i });
    for (const [i, id] of ids.entries()) {
      const found = await c.findOne({ _id: id as never });
      expect(found?.i).toBe(i);
      expect(found?._id).toEqual(id);
    }
    // Numbers compare by value across BSON number types, as in MongoDB.
    expect((await c.findOne({ _id: Long.fromNumber(42) as never }))?.i).toBe(2);
    expect(await c.findOne({ _id: { part: 'a', compound: 1 } as never })).toBeNull();
    await expect(c.insertOne({ _id: 'string-id' as never })).rejects.toMatchObject({ code: 11000 });
    expect(
      (await c.find({ _id: { $in: [42, 'string-id', 'nope'] as never[] } }).toArray()).map((d) => d.i).sort(),
    ).toEqual([1, 2]);
  });

  it('counts and lists distinct values', async () => {
    const c = coll('counting');
    await c.insertMany([{ k: 'a', tags: ['x', 'y'] }, { k: 'b', tags: ['y'] }, { k: 'a' }, { k: null }]);
    expect(await c.countDocuments()).toBe(4);
    expect(await c.countDocuments({ k: 'a' })).toBe(2);
    expect(await c.countDocuments({}, { skip: 1, limit: 2 })).toBe(2);
    expect(await c.estimatedDocumentCount()).toBe(4);
    expect(await coll('does-not-exist').countDocuments()).toBe(0);
    expect(await coll('does-not-exist').estimatedDocumentCount()).toBe(0);
    expect((await c.distinct('k')).sort()).toEqual(['a', 'b', null].sort());
    expect((await c.distinct('tags')).sort()).toEqual(['x', 'y']);
    expect(await c.distinct('k', { tags: 'x' })).toEqual(['a']);
  });

  it('runs basic aggregations', async () => {
    const c = coll('agg');
    await c.insertMany([
      { cat: 'a', qty: 2 },
      { cat: 'b', qty: 5 },
      { cat: 'a', qty: 3 },
    ]);
    const grouped = await c
      .aggregate([
        { $match: { qty: { $gte: 2 } } },
        { $group: { _id: '$cat', total: { $sum: '$qty' } } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(grouped).toEqual([
      { _id: 'a', total: 5 },
      { _id: 'b', total: 5 },
    ]);
    const shaped = await c
      .aggregate([
        { $sort: { qty: -1 } },
        { $limit: 1 },
        { $project: { _id: 0, cat: 1, double: { $multiply: ['$qty', 2] } } },
      ])
      .toArray();
    expect(shaped).toEqual([{ cat: 'b', double: 10 }]);
    // A stage that adds fields must not change the stored documents.
    await c.aggregate([{ $set: { qty: 0 } }]).toArray();
    expect(await c.countDocuments({ qty: 0 })).toBe(0);
    const batched = await c.aggregate([{ $match: {} }], { batchSize: 1 }).toArray();
    expect(batched).toHaveLength(3);
  });
});
