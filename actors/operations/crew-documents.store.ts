import type { Filter } from 'mongodb';
import type { CachePort } from '../../src/store/cache';
import type { DocumentStore, Repository } from '../../src/store/mongo';
import { crewRecordsCollection, type CrewRecord } from './crew-records.collection';

/** What the crew keeps and reads: a few calls of the cache port, each key with a lease. */
export type CrewStore = Pick<CachePort, 'get' | 'mget' | 'set' | 'delete' | 'expire' | 'list'>;

/** How often lapsed records are deleted here (the TTL monitor may be slower, or absent). */
const PURGE_EVERY_MS = 60_000;

/**
 * The crew's records in the document store (`crew_records`), for deployments that share MongoDB
 * but no Redis: every process then sees the others, and a duty's run lock is still cluster-wide.
 * A record whose lease lapsed reads as absent. Taking a lock (`onlyIfAbsent`) is an insert under
 * the unique `_id`, or else one conditional update of a lapsed record: one caller wins either way.
 */
export class CrewDocumentsStore implements CrewStore {
  private readonly repo: Repository<CrewRecord>;
  private purgedAt = 0;

  constructor(
    documents: DocumentStore,
    private readonly prefix: string,
    private readonly now: () => number = Date.now,
  ) {
    this.repo = documents.repository(crewRecordsCollection);
  }

  private live(extra: Filter<CrewRecord>): Filter<CrewRecord> {
    return { ...extra, expiresAt: { $gt: new Date(this.now()) } };
  }

  async get(key: string): Promise<string | null> {
    const doc = await this.repo.findOne(this.live({ _id: this.prefix + key }));
    return doc?.value ?? null;
  }

  async mget(keys: readonly string[]): Promise<(string | null)[]> {
    if (keys.length === 0) return [];
    const docs = await this.repo.find(this.live({ _id: { $in: keys.map((k) => this.prefix + k) } }));
    const byId = new Map(docs.map((d) => [d._id, d.value]));
    return keys.map((k) => byId.get(this.prefix + k) ?? null);
  }

  async set(key: string, value: string, options: { ttlMs?: number; onlyIfAbsent?: boolean } = {}) {
    const now = this.now();
    const expiresAt = new Date(now + (options.ttlMs ?? 60 * 60_000));
    const _id = this.prefix + key;
    this.purge(now);
    if (!options.onlyIfAbsent) {
      await this.repo.updateOne({ _id }, { $set: { value, expiresAt } }, { upsert: true });
      return true;
    }
    if (await this.repo.insertIfAbsent({ _id, value, expiresAt })) return true;
    // Present: taken only if its lease lapsed, by exactly one of the callers racing for it.
    const taken = await this.repo.updateOne(
      { _id, expiresAt: { $lte: new Date(now) } },
      { $set: { value, expiresAt } },
    );
    return taken.modified > 0;
  }

  async delete(key: string): Promise<boolean> {
    return this.repo.deleteById(this.prefix + key);
  }

  async expire(key: string, ttlMs: number): Promise<boolean> {
    const res = await this.repo.updateOne(this.live({ _id: this.prefix + key }), {
      $set: { expiresAt: new Date(this.now() + ttlMs) },
    });
    return res.matched > 0;
  }

  async list(prefix: string): Promise<string[]> {
    const start = this.prefix + prefix;
    const docs = await this.repo.find(this.live({ _id: { $regex: `^${escapeRegex(start)}` } }));
    return docs.map((d) => d._id.slice(this.prefix.length)).sort();
  }

  /** Deletes lapsed records now and then (best effort). */
  private purge(now: number): void {
    if (now - this.purgedAt < PURGE_EVERY_MS) return;
    this.purgedAt = now;
    void this.repo.deleteMany({ expiresAt: { $lte: new Date(now - 60_000) } }).catch(() => undefined);
  }
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
