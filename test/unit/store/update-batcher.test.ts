import type { Repository } from '../../../src/store/mongo/repository.repo';
import { UpdateBatcher } from '../../../src/store/mongo/update-batcher';

type Doc = { _id: string; version: number };

/** A repository whose writes and reads fail or answer as the test says. */
function fakeRepo(options: { bulkWrite: () => Promise<unknown>; find: () => Promise<Doc[]> }) {
  return {
    name: 'docs',
    raw: {
      bulkWrite: options.bulkWrite,
      find: () => ({ toArray: options.find }),
    },
  } as unknown as Repository<Doc, unknown>;
}

const bump = (batcher: UpdateBatcher<Doc>, id: string) =>
  batcher.update(id, { _id: id, version: 1 }, { $inc: { version: 1 } }, (now) => now?.version === 2);

describe('UpdateBatcher when the store fails', () => {
  it('a write error of some statements: each caller learns from the read-back whether its own landed', async () => {
    const repo = fakeRepo({
      bulkWrite: () =>
        Promise.reject(Object.assign(new Error('write error'), { writeErrors: [{ index: 1 }] })),
      find: () =>
        Promise.resolve([
          { _id: 'a', version: 2 },
          { _id: 'b', version: 1 },
        ]),
    });
    const batcher = new UpdateBatcher(repo);
    await expect(Promise.all([bump(batcher, 'a'), bump(batcher, 'b')])).resolves.toEqual([true, false]);
  });

  it('the store out of reach (write and read-back fail): every caller is refused with the mapped error', async () => {
    const down = () =>
      Promise.reject(Object.assign(new Error('connection refused'), { name: 'MongoNetworkError' }));
    const batcher = new UpdateBatcher(fakeRepo({ bulkWrite: down, find: down }));
    const results = await Promise.allSettled([bump(batcher, 'a'), bump(batcher, 'b')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    const reason = (results[0] as PromiseRejectedResult).reason as { code?: string };
    expect(reason.code).toBe('UNAVAILABLE');
  });
});
