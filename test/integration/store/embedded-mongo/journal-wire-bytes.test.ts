import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Binary, Decimal128, Double, Int32, Long, MongoClient, ObjectId, Timestamp } from 'mongodb';
import { embeddedClientOptions, startEmbeddedMongo } from '../../../../src/store/embedded-mongo';

/**
 * Inserted documents are journaled with the bytes they arrived in, updated ones with the bytes
 * their size check encoded (src/store/embedded-mongo/encoded-bytes.ts): what a restart reads back
 * must be what was read before it, whatever the types, and a batch with a duplicate, an `_id` the
 * server adds and updates of both kinds after the insert must all recover as they were.
 */
describe('the journal of inserted documents, across a restart', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'journal-wire-bytes-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function readAll(url: string): Promise<unknown[]> {
    const client = await MongoClient.connect(url, embeddedClientOptions);
    try {
      return await client.db('t').collection('c').find({}).sort({ seq: 1 }).toArray();
    } finally {
      await client.close();
    }
  }

  it('reads back every document as it was before the restart', async () => {
    const first = await startEmbeddedMongo({ dir });
    let before: unknown[];
    try {
      const client = await MongoClient.connect(first.url, embeddedClientOptions);
      try {
        const c = client.db('t').collection('c');
        await c.insertMany([
          {
            _id: 'all-types' as never,
            seq: 1,
            text: 'é ✓ 漢字',
            int: new Int32(7),
            double: new Double(2),
            long: Long.fromString('9007199254740993'),
            dec: Decimal128.fromString('12.3400'),
            bin: new Binary(Buffer.from([1, 2, 3]), 0),
            uuid: new Binary(Buffer.alloc(16, 9), 4),
            ts: new Timestamp({ t: 5, i: 6 }),
            at: new Date('2026-11-28T00:00:00.000Z'),
            oid: new ObjectId('656565656565656565656565'),
            none: null,
            list: [1, 'two', { three: [3] }],
            nested: { deep: { deeper: true } },
          },
          { _id: 'updated' as never, seq: 2, v: 1 },
        ]);
        // `_id` not first: the server puts it first (a new document, journaled the other way).
        await c.insertOne({ seq: 3, _id: 'id-last' as never });
        // The driver adds an ObjectId.
        await c.insertOne({ seq: 4 });
        // An unordered batch with a duplicate: the others land.
        await expect(
          c.insertMany(
            [
              { _id: 'dup-ok-1' as never, seq: 5 },
              { _id: 'all-types' as never, seq: 99 },
              { _id: 'dup-ok-2' as never, seq: 6 },
            ],
            { ordered: false },
          ),
        ).rejects.toMatchObject({ code: 11000 });
        await c.updateOne({ _id: 'updated' as never }, { $set: { v: 2 } });
        // The other update path (findAndModify), journaled with the bytes its size check encoded.
        await c.findOneAndUpdate(
          { _id: 'all-types' as never },
          { $inc: { int: 1 }, $set: { at: new Date(0) } },
        );
        // Too large after the update: refused with MongoDB's error, the stored version unchanged.
        await expect(
          c.updateOne({ _id: 'updated' as never }, { $set: { big: 'x'.repeat(16 * 1024 * 1024) } }),
        ).rejects.toMatchObject({ code: 10334 });
      } finally {
        await client.close();
      }
      before = await readAll(first.url);
      expect(before).toHaveLength(6);
      expect(before).toContainEqual({ _id: 'updated', seq: 2, v: 2 });
      expect(before).toContainEqual(expect.objectContaining({ _id: 'all-types', int: 8, at: new Date(0) }));
    } finally {
      await first.close();
    }

    const second = await startEmbeddedMongo({ dir });
    try {
      expect(await readAll(second.url)).toEqual(before);
    } finally {
      await second.close();
    }
  });
});
