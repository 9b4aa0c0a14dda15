import { z } from 'zod';
import { commandCounts } from '../../../src/store/embedded-mongo';
import { defineCollection } from '../../../src/store/mongo/collection-definition';
import { UpdateBatcher } from '../../../src/store/mongo/update-batcher';
import { describeEachDocumentStore } from './document-targets';

const Counter = z.object({ _id: z.string(), version: z.number().int(), value: z.string() });
const counters = defineCollection({ name: 'batched_counters', schema: Counter });
type CounterDoc = z.infer<typeof Counter>;

describeEachDocumentStore('UpdateBatcher', (store, target) => {
  const repo = () => store().repository(counters);
  /** The update of `id` from version `v` to v + 1 with `value`; carried when the document shows both. */
  const bump = (batcher: UpdateBatcher<CounterDoc>, id: string, v: number, value: string) =>
    batcher.update(
      id,
      { _id: id, version: v },
      { $set: { value }, $inc: { version: 1 } },
      (now) => now?.version === v + 1 && now.value === value,
    );

  it('writes the updates of one turn as one command; each caller learns whether its own applied', async () => {
    const batcher = new UpdateBatcher(repo());
    for (let n = 0; n < 50; n += 1) await repo().insert({ _id: `c${n}`, version: 1, value: 'old' });
    const before = commandCounts.update ?? 0;
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, n) => bump(batcher, `c${n}`, 1, `new${n}`)),
    );
    expect(results.every((r) => r === true)).toBe(true);
    expect(await repo().findById('c7')).toMatchObject({ version: 2, value: 'new7' });
    if (target === 'embedded') expect((commandCounts.update ?? 0) - before).toBe(1);
  });

  it('with a miss in the batch: the changed document is left alone, reported false; the others true', async () => {
    const batcher = new UpdateBatcher(repo());
    for (let n = 0; n < 5; n += 1) await repo().insert({ _id: `m${n}`, version: 1, value: 'old' });
    // Someone else moved m2 first (a panic, say): its version is 2 now.
    await repo().raw.updateOne({ _id: 'm2' }, { $set: { value: 'theirs' }, $inc: { version: 1 } });
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, n) => bump(batcher, `m${n}`, 1, `ours${n}`)),
    );
    expect(results).toEqual([true, true, false, true, true]);
    expect(await repo().findById('m2')).toMatchObject({ version: 2, value: 'theirs' });
    expect(await repo().findById('m3')).toMatchObject({ version: 2, value: 'ours3' });
  });

  it('a document that does not exist is reported false', async () => {
    const batcher = new UpdateBatcher(repo());
    await expect(bump(batcher, 'nobody', 1, 'x')).resolves.toBe(false);
  });
});
