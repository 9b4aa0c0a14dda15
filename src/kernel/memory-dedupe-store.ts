import type { ReplyBody } from '../../schemas/envelope';
import type { ClaimOptions, DedupeRecord, DedupeStore } from './dedupe-store';

/** Options of the in-memory dedupe store. */
export interface MemoryDedupeStoreOptions {
  /**
   * Most ids held. The `maxEntries / 2` most recently used are always kept; older ones go a
   * generation at a time. Default 50000.
   */
  maxEntries?: number;
  /** How long a handled id (and its reply) is remembered, in ms. Default 600000 (10 minutes). */
  ttlMs?: number;
  /** Clock, for tests. Default Date.now. */
  now?: () => number;
}

/** One id's record, flat (one object per id) and updated in place by `complete`. */
interface Entry {
  state: 'pending' | 'done';
  owner: string | undefined;
  reply: ReplyBody | undefined;
  expiresAt: number;
}

const RESOLVED = Promise.resolve();
const RESOLVED_NONE = Promise.resolve(undefined);
const DONE: DedupeRecord = Object.freeze({ state: 'done' });

/**
 * The default DedupeStore, local to this process: enough for one node and for redeliveries that
 * come back to the same node (a shared store is needed for duplicates landing on another node).
 *
 * An LRU with a TTL built from two generations of Maps: writes and hits go to the current one;
 * when it holds `maxEntries / 2` ids, or is `ttlMs` old, it becomes the previous one and the old
 * previous one is dropped whole. No per-entry eviction scan (deleting from the head of one big Map
 * leaves tombstones that every later scan walks over), no timers, and already-resolved promises:
 * nothing on the hot path but Map operations. A new id costs one small object, which `complete`
 * updates in place (every id lives for a generation, long enough to reach the old heap: fewer and
 * smaller objects per message is what keeps the garbage collector's share down); the records
 * handed out are built only for the ids found (duplicates).
 */
export class MemoryDedupeStore implements DedupeStore {
  private current = new Map<string, Entry>();
  private previous = new Map<string, Entry>();
  private readonly half: number;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private rotateAt: number;

  constructor(options: MemoryDedupeStoreOptions = {}) {
    this.half = Math.max(1, Math.floor((options.maxEntries ?? 50_000) / 2));
    this.ttlMs = options.ttlMs ?? 600_000;
    this.now = options.now ?? Date.now;
    this.rotateAt = this.now() + this.ttlMs;
  }

  /** `options` changes nothing here: this record is local whatever the delivery. */
  claim(
    id: string,
    owner: string,
    leaseMs: number,
    _options?: ClaimOptions,
  ): Promise<DedupeRecord | undefined> {
    const existing = this.lookup(id);
    if (existing) return Promise.resolve(recordOf(existing));
    this.write(id, { state: 'pending', owner, reply: undefined, expiresAt: this.now() + leaseMs });
    return RESOLVED_NONE;
  }

  complete(id: string, reply: ReplyBody | undefined): Promise<void> {
    const expiresAt = this.now() + this.ttlMs;
    const entry = this.current.get(id);
    if (entry !== undefined) {
      // The usual case: the claim of this id, made moments ago.
      entry.state = 'done';
      entry.owner = undefined;
      entry.reply = reply;
      entry.expiresAt = expiresAt;
    } else {
      this.write(id, { state: 'done', owner: undefined, reply, expiresAt });
    }
    return RESOLVED;
  }

  release(id: string): Promise<void> {
    this.current.delete(id);
    this.previous.delete(id);
    return RESOLVED;
  }

  get(id: string): Promise<DedupeRecord | undefined> {
    const entry = this.lookup(id);
    return entry ? Promise.resolve(recordOf(entry)) : RESOLVED_NONE;
  }

  /** Ids held, expired ones included until their generation is dropped. */
  get size(): number {
    return this.current.size + this.previous.size;
  }

  private lookup(id: string): Entry | undefined {
    const now = this.now();
    let entry = this.current.get(id);
    if (entry === undefined) {
      entry = this.previous.get(id);
      if (entry === undefined) return undefined;
      this.previous.delete(id);
      if (entry.expiresAt <= now) return undefined;
      // A hit in the old generation is recent use: promote it so it survives the next rotation.
      this.write(id, entry);
      return entry;
    }
    if (entry.expiresAt <= now) {
      this.current.delete(id);
      return undefined;
    }
    return entry;
  }

  private write(id: string, entry: Entry): void {
    this.previous.delete(id);
    this.current.set(id, entry);
    if (this.current.size >= this.half || this.now() >= this.rotateAt) {
      this.previous = this.current;
      this.current = new Map();
      this.rotateAt = this.now() + this.ttlMs;
    }
  }
}

function recordOf(entry: Entry): DedupeRecord {
  if (entry.state === 'pending') return { state: 'pending', owner: entry.owner! };
  return entry.reply === undefined ? DONE : { state: 'done', reply: entry.reply };
}
