import { promises as fsp } from 'node:fs';
import type { Logger } from '../../../logging/logger';
import { frameRecord, JOURNAL_MAGIC } from './record-codec';
import { writeFileDurably } from './durable-file';

/**
 * Produces the framed records of the whole live state (used for online compaction). It must
 * capture the state synchronously, when called (the serialising may come later): the records pending at that moment are covered by
 * it, and those appended while it completes are written after it.
 */
export type SnapshotSource = () => Promise<Buffer[]>;

/** Tuning of the journal. */
export interface JournalOptions {
  /** Journal growth (bytes since the last snapshot) before an online compaction. Default 64 MiB. */
  compactMinBytes?: number;
  /**
   * Compact when the journal is also this many times the size of what is live in it (its size less
   * the bytes of older versions and removed documents). Default 3: at most two thirds dead.
   */
  compactRatio?: number;
}

interface Waiter {
  resolve: () => void;
  reject: (err: Error) => void;
}

/**
 * The append-only journal with group commit. Writers append records and wait; one flush loop
 * writes everything pending with a single writev and a single fdatasync, then releases every
 * writer whose records it covered. While an fsync runs, new writes pile up for the next round, so
 * under concurrency many commands share one fsync. A command is acknowledged only after its
 * records are on disk. After a write error the journal refuses all further writes: the in-memory
 * state may be ahead of the disk and pretending otherwise would lose acknowledged data.
 */
export class Journal {
  private pending: Buffer[] = [];
  private waiters: Waiter[] = [];
  private flushing = false;
  private failure: Error | undefined;
  private bytesSinceSnapshot = 0;
  /** Bytes made dead by the records written since the last snapshot, and by those pending. */
  private deadSinceSnapshot = 0;
  private pendingDead = 0;
  /** Growth since the snapshot before the next attempt (further on after a failed one). */
  private nextAttemptBytes: number;
  private closed = false;
  private readonly compactMinBytes: number;
  private readonly compactRatio: number;

  private constructor(
    private handle: fsp.FileHandle,
    private readonly path: string,
    private snapshotBytes: number,
    private readonly snapshot: SnapshotSource,
    private readonly logger: Logger,
    options: JournalOptions,
  ) {
    this.compactMinBytes = options.compactMinBytes ?? 64 * 1024 * 1024;
    this.compactRatio = options.compactRatio ?? 3;
    this.nextAttemptBytes = this.compactMinBytes;
  }

  /** Opens an existing journal file (already holding a snapshot) for appending. */
  static async open(
    path: string,
    snapshot: SnapshotSource,
    logger: Logger,
    options: JournalOptions = {},
  ): Promise<Journal> {
    const handle = await fsp.open(path, 'a');
    const { size } = await handle.stat();
    return new Journal(handle, path, size, snapshot, logger, options);
  }

  /**
   * Queues BSON payloads; resolves once they are durable. `deadBytes`: how much of what the journal
   * already holds these records make dead (older versions they replace, documents they remove).
   */
  append(payloads: Uint8Array[], deadBytes = 0): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.closed) return Promise.reject(new Error('journal is closed'));
    for (const p of payloads) this.pending.push(...frameRecord(p));
    this.pendingDead += deadBytes;
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        // Let the other commands decoded in this turn of the event loop join the same fsync.
        setImmediate(() => void this.flushLoop());
      }
    });
  }

  private async flushLoop(): Promise<void> {
    try {
      while (this.pending.length > 0 && !this.failure) {
        if (this.worthCompacting()) {
          if (await this.compact()) continue;
        }
        const buffers = this.pending;
        const waiters = this.waiters;
        const dead = this.pendingDead;
        this.pending = [];
        this.waiters = [];
        this.pendingDead = 0;
        try {
          let bytes = 0;
          for (const b of buffers) bytes += b.length;
          await writeAll(this.handle, buffers, bytes);
          await this.handle.datasync();
          this.bytesSinceSnapshot += bytes;
          this.deadSinceSnapshot += dead;
          for (const w of waiters) w.resolve();
        } catch (err) {
          this.failure = new Error(
            `journal write failed, writes are refused until restart: ${(err as Error).message}`,
          );
          this.logger.error({ err }, 'embedded-mongo journal write failed');
          for (const w of waiters) w.reject(this.failure);
        }
      }
      if (this.failure) {
        for (const w of this.waiters.splice(0)) w.reject(this.failure);
        this.pending = [];
      }
    } finally {
      this.flushing = false;
    }
  }

  /**
   * Whether rewriting the journal would reclaim enough: it has grown by `compactMinBytes` since the
   * last snapshot, and what is dead in it makes it `compactRatio` times what is live. Growth alone
   * does not count: an insert-only load (log lines, notifications) leaves nothing to reclaim, and a
   * rewrite encodes every live document again.
   */
  private worthCompacting(): boolean {
    if (this.bytesSinceSnapshot <= this.nextAttemptBytes) return false;
    const total = this.snapshotBytes + this.bytesSinceSnapshot;
    const live = Math.max(0, total - this.deadSinceSnapshot);
    return total > this.compactRatio * live;
  }

  /**
   * Rewrites the journal as a snapshot of the live state. The records pending right now are
   * already applied in memory, so the snapshot covers them and their writers are released once it
   * is durable. Returns false (and leaves the pending records to the normal path) on failure.
   */
  private async compact(): Promise<boolean> {
    const waiters = this.waiters;
    const covered = this.pending;
    const coveredDead = this.pendingDead;
    this.pending = [];
    this.waiters = [];
    this.pendingDead = 0;
    try {
      const records = await this.snapshot();
      const size = await writeFileDurably(this.path, [JOURNAL_MAGIC, ...records]);
      const old = this.handle;
      this.handle = await fsp.open(this.path, 'a');
      await old.close().catch(() => undefined);
      this.snapshotBytes = size;
      this.bytesSinceSnapshot = 0;
      this.deadSinceSnapshot = 0;
      this.nextAttemptBytes = this.compactMinBytes;
      for (const w of waiters) w.resolve();
      this.logger.info({ bytes: size }, 'embedded-mongo journal compacted');
      return true;
    } catch (err) {
      this.logger.warn({ err }, 'embedded-mongo online compaction failed; journal keeps growing');
      this.pending = covered.concat(this.pending);
      this.waiters = waiters.concat(this.waiters);
      this.pendingDead += coveredDead;
      // Not again on every batch: after another `compactMinBytes` of growth.
      this.nextAttemptBytes = this.bytesSinceSnapshot + this.compactMinBytes;
      return false;
    }
  }

  /** Waits for pending writes, then closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.flushing || this.pending.length > 0) {
      if (!this.flushing) {
        this.flushing = true;
        await this.flushLoop();
      } else await new Promise((r) => setTimeout(r, 2));
    }
    await this.handle.close();
  }
}

async function writeAll(handle: fsp.FileHandle, buffers: Buffer[], total: number): Promise<void> {
  // writev may write less than asked; continue from where it stopped.
  let written = 0;
  let list = buffers;
  for (;;) {
    const { bytesWritten } = await handle.writev(list);
    written += bytesWritten;
    if (written >= total) return;
    let skip = bytesWritten;
    const rest: Buffer[] = [];
    for (const b of list) {
      if (skip >= b.length) {
        skip -= b.length;
        continue;
      }
      rest.push(skip > 0 ? b.subarray(skip) : b);
      skip = 0;
    }
    list = rest;
  }
}
