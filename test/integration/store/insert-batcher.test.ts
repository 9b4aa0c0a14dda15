import { z } from 'zod';
import { commandCounts } from '../../../src/store/embedded-mongo';
import { defineCollection } from '../../../src/store/mongo/collection-definition';
import { InsertBatcher } from '../../../src/store/mongo/insert-batcher';
import { describeEachDocumentStore } from './document-targets';

const Line = z.object({ _id: z.string(), n: z.number().int() });
const lines = defineCollection({ name: 'batched_lines', schema: Line });

describeEachDocumentStore('InsertBatcher', (store, target) => {
  const repo = () => store().repository(lines);

  it('writes the inserts of one turn as one command, each caller told its own fate', async () => {
    const batcher = new InsertBatcher(repo());
    await repo().insert({ _id: 'taken', n: -1 });
    const before = commandCounts.insert ?? 0;
    const results = await Promise.all([
      ...Array.from({ length: 100 }, (_, n) => batcher.insert({ _id: `l${n}`, n })),
      batcher.insert({ _id: 'taken', n: 0 }),
    ]);
    expect(results.slice(0, 100).every((r) => r === true)).toBe(true);
    expect(results[100]).toBe(false); // the _id was taken: nothing overwritten
    expect(await repo().count({ _id: { $regex: '^l' } })).toBe(100);
    expect((await repo().findById('taken'))?.n).toBe(-1);
    // The embedded server counts its commands (a real server is not asked).
    if (target === 'embedded') expect((commandCounts.insert ?? 0) - before).toBe(1);
  });

  it('splits a burst into batches of at most maxBatch, and refuses a document its schema rejects', async () => {
    const batcher = new InsertBatcher(repo(), { maxBatch: 10 });
    const before = commandCounts.insert ?? 0;
    const inserted = await batcher.insertAll(Array.from({ length: 25 }, (_, n) => ({ _id: `b${n}`, n })));
    expect(inserted).toBe(25);
    if (target === 'embedded') expect((commandCounts.insert ?? 0) - before).toBe(3);
    await expect(batcher.insert({ _id: 'bad', n: 1.5 })).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
    expect(await repo().findById('bad')).toBeNull();
  });
});
