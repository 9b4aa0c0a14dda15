import type { Document, OptionalUnlessRequiredId } from 'mongodb';
import { isDuplicateKeyError, mapMongoError } from './mongo-errors';
import type { Repository } from './repository.repo';
import { TurnBatcher } from './turn-batcher';

interface Waiting<T> {
  doc: T;
  resolve: (inserted: boolean) => void;
  reject: (err: unknown) => void;
}

/**
 * Inserts into one collection coalesced across callers (`TurnBatcher`): the documents asked for
 * within one turn of the event loop go to the server as one unordered `insertMany`, so a burst of
 * independent requests (a thousand intent streams each recording its execution) costs the
 * document server one command per batch instead of one per document. Each caller learns its own
 * document's fate: inserted (`true`), its `_id` (or another unique value) already taken (`false`:
 * an idempotent re-insert), or its error (mapped like the repository's). Nothing is acknowledged
 * before the server answers: a batch is as durable as the single inserts it replaces.
 */
export class InsertBatcher<T extends Document & { _id: string }> extends TurnBatcher<Waiting<T>> {
  constructor(
    private readonly repo: Repository<T, unknown>,
    private readonly options: { validate?: boolean; maxBatch?: number } = {},
  ) {
    super(options.maxBatch);
  }

  /** Queues one document; resolves once its batch is written. */
  insert(doc: T): Promise<boolean> {
    let parsed: T;
    try {
      parsed = this.options.validate === false ? doc : this.repo.parse(doc);
    } catch (err) {
      return Promise.reject(err);
    }
    return new Promise<boolean>((resolve, reject) => this.enqueue({ doc: parsed, resolve, reject }));
  }

  /** Queues several documents of one caller; resolves how many were new. */
  async insertAll(docs: readonly T[]): Promise<number> {
    const results = await Promise.all(docs.map((d) => this.insert(d)));
    return results.filter(Boolean).length;
  }

  protected send(batch: Array<Waiting<T>>): Promise<void> {
    const docs = batch.map((w) => w.doc as OptionalUnlessRequiredId<T>);
    return this.repo.raw.insertMany(docs, { ordered: false }).then(
      () => batch.forEach((w) => w.resolve(true)),
      (err: unknown) => this.settleFailed(batch, err),
    );
  }

  /** An unordered batch that failed: per document, its own write error or none (inserted). */
  private settleFailed(batch: Array<Waiting<T>>, err: unknown): void {
    type WriteError = { index?: number; code?: number; err?: unknown };
    const writeErrors = (err as { writeErrors?: unknown }).writeErrors;
    const list: WriteError[] | undefined = Array.isArray(writeErrors)
      ? (writeErrors as WriteError[])
      : writeErrors && typeof writeErrors === 'object'
        ? [writeErrors as WriteError]
        : undefined;
    if (!list) {
      // Nothing says which documents landed (the server could not be reached): all fail.
      const mapped = mapMongoError(err, { collection: this.repo.name, op: 'insertMany' });
      for (const w of batch) w.reject(mapped);
      return;
    }
    const byIndex = new Map(list.map((e) => [e.index ?? -1, e]));
    batch.forEach((w, i) => {
      const e = byIndex.get(i);
      if (!e) return w.resolve(true);
      if (isDuplicateKeyError(e) || e.code === 11000) return w.resolve(false);
      w.reject(mapMongoError(e.err ?? e, { collection: this.repo.name, op: 'insertMany' }));
    });
  }
}
