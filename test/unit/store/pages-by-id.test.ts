import { pagesById } from '../../../src/store/mongo/pages-by-id';
import type { Repository } from '../../../src/store/mongo';

/** A repository of `n` documents answering `find({_id: {$gt}}, {sort: {_id: 1}, limit})`, counting finds. */
function fakeRepo(n: number) {
  const ids = Array.from({ length: n }, (_, i) => `doc_${String(i).padStart(4, '0')}`);
  let finds = 0;
  const repo = {
    find: async (filter: { _id: { $gt: string } }, options: { limit: number }) => {
      finds++;
      return ids
        .filter((id) => id > filter._id.$gt)
        .slice(0, options.limit)
        .map((_id) => ({ _id }));
    },
  } as unknown as Repository<{ _id: string }>;
  return { repo, ids, finds: () => finds };
}

async function collect(repo: Repository<{ _id: string }>, pageSize: number) {
  const pages: string[][] = [];
  for await (const page of pagesById(repo, pageSize)) pages.push(page.map((d) => d._id));
  return pages;
}

describe('pagesById', () => {
  it('walks every document once, in id order, page after page', async () => {
    const { repo, ids, finds } = fakeRepo(450);
    const pages = await collect(repo, 200);
    expect(pages.map((p) => p.length)).toEqual([200, 200, 50]);
    expect(pages.flat()).toEqual(ids);
    expect(finds()).toBe(3);
  });

  it('stops after an exactly full last page without yielding an empty one', async () => {
    const { repo, finds } = fakeRepo(400);
    expect((await collect(repo, 200)).map((p) => p.length)).toEqual([200, 200]);
    expect(finds()).toBe(3); // the third find answers nothing
  });

  it('yields nothing for an empty collection', async () => {
    expect(await collect(fakeRepo(0).repo, 200)).toEqual([]);
  });
});
