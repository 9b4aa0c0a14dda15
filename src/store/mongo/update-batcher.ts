import type { Document, Filter, UpdateFilter } from 'mongodb';
import { mapMongoError } from './mongo-errors';
import type { Repository } from './repository.repo';
import { TurnBatcher } from './turn-batcher';

interface Waiting<T> {
  id: string;
  filter: Filter<T>;
  update: UpdateFilter<T>;
  carries: (current: T | null) => boolean;
  resolve: (applied: boolean) => void;
  reject: (err: unknown) => void;
}

/**
 * Conditional updates of one document each, coalesced across callers (`TurnBatcher`): those asked
 * for within one turn go to the server as one unordered `bulkWrite`, so a burst of executions
 * recording their ends costs one command per batch instead of one `findAndModify` each.
 *
 * Each caller learns whether its update was applied. When every filter of a batch matched (the
 * usual case), all were. When some did not (a document changed meanwhile: a panic, a pause), the
 * server does not say which: the batch's documents are read again, one `find`, and each caller's
 * `carries` tells whether the document as it is now holds that caller's update (a version it set,
 * a time it wrote). Nothing is acknowledged before the server answers.
 */
export class UpdateBatcher<T extends Document & { _id: string }> extends TurnBatcher<Waiting<T>> {
  constructor(
    private readonly repo: Repository<T, unknown>,
    maxBatch?: number,
  ) {
    super(maxBatch);
  }

  /** Queues one update of document `id` under `filter` (which must name that `_id`). */
  update(
    id: string,
    filter: Filter<T>,
    update: UpdateFilter<T>,
    carries: (current: T | null) => boolean,
  ): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) =>
      this.enqueue({ id, filter, update, carries, resolve, reject }),
    );
  }

  protected async send(batch: Array<Waiting<T>>): Promise<void> {
    try {
      const result = await this.repo.raw.bulkWrite(
        batch.map((w) => ({ updateOne: { filter: w.filter, update: w.update } })),
        { ordered: false },
      );
      if (result.matchedCount === batch.length) {
        for (const w of batch) w.resolve(true);
        return;
      }
    } catch {
      // A write error of some statements: which ones landed is read back below, as for a miss.
    }
    try {
      const ids = batch.map((w) => w.id);
      const now = await this.repo.raw.find({ _id: { $in: ids } } as Filter<T>).toArray();
      const byId = new Map<string, T>(now.map((d) => [String(d._id), d as T]));
      for (const w of batch) w.resolve(w.carries(byId.get(w.id) ?? null));
    } catch (err) {
      // The server is out of reach: nothing says which landed.
      const mapped = mapMongoError(err, { collection: this.repo.name, op: 'bulkWrite' });
      for (const w of batch) w.reject(mapped);
    }
  }
}
