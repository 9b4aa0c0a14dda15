import type { Collection, Document, Filter, Sort, UpdateFilter, OptionalUnlessRequiredId } from 'mongodb';
import type { z } from 'zod';
import { AppError, errors } from '../../../schemas/errors';
import type { BaseDocument, CollectionDefinition } from './collection-definition';
import { isDuplicateKeyError, mapMongoError } from './mongo-errors';
import { explainMiss, withVersionBump, type TransitionOptions } from './versioned-writes';

/** Options of `find`. */
export interface FindOptions {
  sort?: Sort;
  /** Most documents returned. Default 1000 (reads are bounded unless asked otherwise); 0 = no limit. */
  limit?: number;
  /** Documents skipped first. Default 0. */
  skip?: number;
}

export const DEFAULT_FIND_LIMIT = 1000;

/**
 * Typed access to one collection. Every document read back is parsed with the collection's zod
 * schema (a document that does not match is an INTERNAL_ERROR naming the collection and `_id`,
 * raised at the read, not a crash later). Driver failures are mapped by `mapMongoError`
 * (UNAVAILABLE, CONFLICT, ...). The driver stays at hand: `raw` is the underlying collection for
 * what this thin layer does not cover (aggregations, bulk writes, projections).
 */
export class Repository<T extends BaseDocument & Document, In = T> {
  readonly name: string;

  constructor(
    readonly raw: Collection<T>,
    readonly definition: CollectionDefinition<z.ZodType<T, In>>,
  ) {
    this.name = definition.name;
  }

  /** Validates a document read by other means (for example from `raw`). */
  parse(doc: unknown): T {
    const result = this.definition.schema.safeParse(doc);
    if (result.success) return result.data;
    const id = doc && typeof doc === 'object' ? String((doc as { _id?: unknown })._id) : 'unknown';
    throw new AppError('INTERNAL_ERROR', `corrupt document in ${this.name} (_id ${id})`, {
      collection: this.name,
      id,
      // Paths and zod's messages only: the offending values may be secrets.
      issues: result.error.issues.slice(0, 5).map((i) => ({ path: i.path.join('.'), message: i.message })),
    });
  }

  async findById(id: string): Promise<T | null> {
    return this.findOne(byId<T>(id));
  }

  /** Like `findById`, but a missing document is AppError NOT_FOUND. */
  async getById(id: string): Promise<T> {
    const doc = await this.findById(id);
    if (!doc) throw errors.notFound(`${this.name} ${id} not found`, { collection: this.name, id });
    return doc;
  }

  async findOne(filter: Filter<T>, options: { sort?: Sort } = {}): Promise<T | null> {
    const doc = await this.run('findOne', () => this.raw.findOne(filter, { sort: options.sort }));
    return doc === null ? null : this.parse(doc);
  }

  async find(filter: Filter<T>, options: FindOptions = {}): Promise<T[]> {
    const docs = await this.run('find', () =>
      this.raw
        .find(filter, { sort: options.sort, skip: options.skip, limit: options.limit ?? DEFAULT_FIND_LIMIT })
        .toArray(),
    );
    return docs.map((d) => this.parse(d));
  }

  async count(filter: Filter<T> = {}): Promise<number> {
    return this.run('count', () => this.raw.countDocuments(filter));
  }

  /**
   * Validates and inserts; resolves the stored document (schema defaults applied). A duplicate
   * `_id` or unique-index value is AppError CONFLICT naming the field(s).
   */
  async insert(doc: In): Promise<T> {
    const parsed = this.validateForWrite(doc);
    await this.run('insert', () => this.raw.insertOne(parsed as OptionalUnlessRequiredId<T>));
    return parsed;
  }

  /** Same as `insert`; the name says at the call site that a unique index is the point. */
  insertUnique(doc: In): Promise<T> {
    return this.insert(doc);
  }

  /**
   * Inserts unless a document with the same `_id` exists (idempotent creation, for example
   * remembering a processed envelope). Resolves whether it inserted; a clash on another unique
   * index is still CONFLICT.
   */
  async insertIfAbsent(doc: In): Promise<boolean> {
    const parsed = this.validateForWrite(doc);
    try {
      await this.raw.insertOne(parsed as OptionalUnlessRequiredId<T>);
      return true;
    } catch (err) {
      const pattern = (err as { keyPattern?: Record<string, unknown> }).keyPattern;
      const onId = pattern
        ? Object.keys(pattern).join() === '_id'
        : /index: _id_ /.test(String((err as Error).message));
      if (isDuplicateKeyError(err) && onId) return false;
      throw mapMongoError(err, { collection: this.name, op: 'insertIfAbsent' });
    }
  }

  /** Plain update (no version check); resolves the counts. */
  async updateOne(
    filter: Filter<T>,
    update: UpdateFilter<T>,
    options: { upsert?: boolean } = {},
  ): Promise<{ matched: number; modified: number; upsertedId: string | null }> {
    const res = await this.run('updateOne', () =>
      this.raw.updateOne(filter, update, { upsert: options.upsert }),
    );
    return {
      matched: res.matchedCount,
      modified: res.modifiedCount,
      upsertedId: res.upsertedId === null ? null : String(res.upsertedId),
    };
  }

  /** Atomic update resolving the document after it (parsed), or null when nothing matched. */
  async findOneAndUpdate(
    filter: Filter<T>,
    update: UpdateFilter<T>,
    options: { sort?: Sort; upsert?: boolean } = {},
  ): Promise<T | null> {
    const doc = await this.run('findOneAndUpdate', () =>
      this.raw.findOneAndUpdate(filter, update, { ...options, returnDocument: 'after' }),
    );
    return doc === null ? null : this.parse(doc);
  }

  async deleteOne(filter: Filter<T>): Promise<boolean> {
    return (await this.run('deleteOne', () => this.raw.deleteOne(filter))).deletedCount > 0;
  }

  async deleteById(id: string): Promise<boolean> {
    return this.deleteOne(byId<T>(id));
  }

  async deleteMany(filter: Filter<T>): Promise<number> {
    return (await this.run('deleteMany', () => this.raw.deleteMany(filter))).deletedCount;
  }

  /**
   * Optimistic concurrency: applies `update` only if the document's `version` is still
   * `expectedVersion`, increments `version`, and resolves the new document. A lost race is AppError
   * CONFLICT with the current version (and state) in details, never a silent overwrite; a missing
   * document is NOT_FOUND. `update` must not touch `version` itself.
   */
  async updateIfVersion(id: string, expectedVersion: number, update: UpdateFilter<T>): Promise<T> {
    const filter = { _id: id, version: expectedVersion } as unknown as Filter<T>;
    const doc = await this.run('updateIfVersion', () =>
      this.raw.findOneAndUpdate(filter, withVersionBump(update), { returnDocument: 'after' }),
    );
    if (doc) return this.parse(doc);
    throw await explainMiss(this.raw, this.definition, id, { expectedVersion });
  }

  /**
   * State-machine step: sets the state field (default `status`) to `to` only if it is currently one
   * of `from` (and, when given, `version` is `expectedVersion`), applies `set`, increments `version`
   * and resolves the new document. Not in `from` → CONFLICT with the current state in details;
   * missing → NOT_FOUND.
   */
  async transition(id: string, options: TransitionOptions<T>): Promise<T> {
    const field = this.definition.stateField;
    const set = { ...(options.set ?? {}) } as Record<string, unknown>;
    if (field in set) throw new AppError('INTERNAL_ERROR', `transition: set must not contain ${field}`);
    const filter = {
      _id: id,
      [field]: { $in: [...options.from] },
      ...(options.expectedVersion === undefined ? {} : { version: options.expectedVersion }),
    } as Filter<T>;
    const update = withVersionBump({
      $set: { ...set, [field]: options.to },
      ...(options.unset?.length ? { $unset: Object.fromEntries(options.unset.map((f) => [f, ''])) } : {}),
    } as UpdateFilter<T>);
    const doc = await this.run('transition', () =>
      this.raw.findOneAndUpdate(filter, update, { returnDocument: 'after' }),
    );
    if (doc) return this.parse(doc);
    throw await explainMiss(this.raw, this.definition, id, {
      expectedVersion: options.expectedVersion,
      from: options.from,
      to: options.to,
    });
  }

  private validateForWrite(doc: In): T {
    const result = this.definition.schema.safeParse(doc);
    if (result.success) return result.data;
    throw new AppError('INTERNAL_ERROR', `invalid document for ${this.name}`, {
      collection: this.name,
      issues: result.error.issues.slice(0, 5).map((i) => ({ path: i.path.join('.'), message: i.message })),
    });
  }

  private async run<R>(op: string, call: () => Promise<R>): Promise<R> {
    try {
      return await call();
    } catch (err) {
      throw mapMongoError(err, { collection: this.name, op });
    }
  }
}

function byId<T>(id: string): Filter<T> {
  return { _id: id } as Filter<T>;
}
