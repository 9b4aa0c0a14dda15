import type { Repository } from '../../../src/store/mongo/repository.repo';
import { InsertBatcher } from '../../../src/store/mongo/insert-batcher';

type Line = { _id: string; n: number };

/** A repository whose `insertMany` answers when the test says so. */
function fakeRepo() {
  const calls: Array<{ ids: string[]; answer: () => void }> = [];
  const repo = {
    name: 'lines',
    parse: (doc: Line) => doc,
    raw: {
      insertMany: (docs: Line[]) =>
        new Promise<void>((resolve) => calls.push({ ids: docs.map((d) => d._id), answer: resolve })),
    },
  } as unknown as Repository<Line, unknown>;
  return { repo, calls };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('InsertBatcher (group commit)', () => {
  it('holds what comes while a batch is on its way, and sends it as one batch when it is answered', async () => {
    const { repo, calls } = fakeRepo();
    const batcher = new InsertBatcher(repo);
    const first = [batcher.insert({ _id: 'a', n: 1 }), batcher.insert({ _id: 'b', n: 2 })];
    await turn();
    expect(calls.map((c) => c.ids)).toEqual([['a', 'b']]);
    // Three more turns while it is on its way: nothing leaves.
    const later: Array<Promise<boolean>> = [];
    for (const id of ['c', 'd', 'e']) {
      later.push(batcher.insert({ _id: id, n: 0 }));
      await turn();
    }
    expect(calls).toHaveLength(1);
    calls[0].answer();
    expect(await Promise.all(first)).toEqual([true, true]);
    await turn();
    expect(calls.map((c) => c.ids)).toEqual([
      ['a', 'b'],
      ['c', 'd', 'e'],
    ]);
    calls[1].answer();
    expect(await Promise.all(later)).toEqual([true, true, true]);
  });

  it('sends a full batch at once, even with another on its way', async () => {
    const { repo, calls } = fakeRepo();
    const batcher = new InsertBatcher(repo, { maxBatch: 2 });
    const all = ['a', 'b', 'c', 'd', 'e'].map((id) => batcher.insert({ _id: id, n: 0 }));
    expect(calls.map((c) => c.ids)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    calls.forEach((c) => c.answer());
    await turn();
    await turn();
    expect(calls.map((c) => c.ids)).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    calls[2].answer();
    expect(await Promise.all(all)).toEqual([true, true, true, true, true]);
  });
});
