import type { Document, Filter } from 'mongodb';
import type { BaseDocument } from './collection-definition';
import type { Repository } from './repository.repo';

/**
 * Every document of a collection, in pages of `pageSize` ordered by `_id` (keyset paging: a page
 * starts after the last id of the one before, so documents added or removed meanwhile do not shift
 * it). For passes over a whole collection, like re-sealing values after a master-key rotation.
 */
export async function* pagesById<T extends BaseDocument & Document, In>(
  repo: Repository<T, In>,
  pageSize: number,
): AsyncGenerator<T[]> {
  let after = '';
  for (;;) {
    const page = await repo.find({ _id: { $gt: after } } as Filter<T>, { sort: { _id: 1 }, limit: pageSize });
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
    after = page[page.length - 1]!._id;
  }
}
