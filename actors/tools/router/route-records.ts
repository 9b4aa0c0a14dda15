import { randomBytes } from 'node:crypto';
import type { RoutePageDocument, RouteStatDocument } from '../../../schemas/documents/route-record';
import type { Logger } from '../../../src/logging/logger';
import type { DocumentStore, Repository } from '../../../src/store/mongo';
import {
  routePagesCollection,
  routeRecordsCollection,
  routeStatsCollection,
} from './route-records.collection';
import { encodeRoutePage, type RouteRecordInput } from './route-pages';
import { RouteQueries } from './route-queries';

/** Options of the recorder. */
export interface RouteRecorderOptions {
  /** Longest a record waits in memory before it is written, in ms. Default 500. */
  flushIntervalMs?: number;
  /**
   * Records that trigger a write at once: the most records of a page. Default 200. Under load the
   * counters do not go with these flushes (`statsIntervalMs`), so a flush is one page inserted.
   * (When every record was a document of its own, 1000 of them held the writer and the document
   * server for 10-30 ms per write, which showed in every call's tail latency; 200 pages are far
   * cheaper still.)
   */
  batchSize?: number;
  /**
   * Records waiting for their write at most while the store is slow or down (batches queue behind
   * the write in progress); the records of a batch that would pass it are dropped, logged.
   * Default 10000.
   */
  maxBuffered?: number;
  /**
   * Under load (flushes triggered by `batchSize`), the counters of `route_stats` are written at
   * most this often, in ms; flushes on the timer (light load) and at `close` always write them.
   * Default 5000: one upsert per owner and primitive per flush was most of the document store's
   * work under load (several flushes a second).
   */
  statsIntervalMs?: number;
}

const ownerKeysOf = (r: RouteRecordInput): string[] =>
  r.accountId ? [`agent:${r.agentId}`, `account:${r.accountId}`] : [`agent:${r.agentId}`];

/**
 * Writes route records off the hot path: `record` only pushes to a buffer; the buffer is written
 * as one page (`encodeRoutePage`, one `insertOne`; and one `bulkWrite` of counter upserts) every
 * `flushIntervalMs` or every `batchSize` records, and at `close`. Records are statistics: when the
 * store fails, the batch is logged and dropped rather than retried forever.
 */
export class RouteRecorder {
  private buffer: RouteRecordInput[] = [];
  /** Primitives per owner key of the buffered records that ran (executions). */
  private executions = new Map<
    string,
    { ownerKey: string; primitive: string; n: number; fallback: number }
  >();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** Records of the batches queued behind the write in progress (bounded by `maxBuffered`). */
  private waiting = 0;
  private readonly idPrefix = `rp_${randomBytes(6).toString('hex')}_`;
  private seq = 0;
  private readonly flushIntervalMs: number;
  private readonly batchSize: number;
  private readonly maxBuffered: number;
  private readonly statsIntervalMs: number;
  private statsWrittenAt = 0;
  private closed = false;
  /** Told of every record as it is buffered (the process's metrics; src/boot/build-services.ts). */
  readonly observers: Array<(input: RouteRecordInput) => void> = [];

  constructor(
    private readonly pages: Repository<RoutePageDocument>,
    private readonly stats: Repository<RouteStatDocument>,
    private readonly logger: Logger,
    options: RouteRecorderOptions = {},
  ) {
    this.flushIntervalMs = options.flushIntervalMs ?? 500;
    this.batchSize = options.batchSize ?? 200;
    this.maxBuffered = options.maxBuffered ?? 10_000;
    this.statsIntervalMs = options.statsIntervalMs ?? 5000;
  }

  /**
   * Buffers one record (kept as given until it is written: the caller must not change it any more);
   * `executed`: the tool ran (counted in the summary), not refused before.
   */
  record(input: RouteRecordInput, executed: boolean): void {
    if (this.closed) return;
    for (const observe of this.observers) observe(input);
    this.buffer.push(input);
    if (executed) {
      for (const ownerKey of ownerKeysOf(input)) {
        const key = `${ownerKey}|${input.primitive}`;
        const entry = this.executions.get(key);
        if (entry) {
          entry.n++;
          if (input.fallbackUsed) entry.fallback++;
        } else {
          this.executions.set(key, {
            ownerKey,
            primitive: input.primitive,
            n: 1,
            fallback: input.fallbackUsed ? 1 : 0,
          });
        }
      }
    }
    if (this.buffer.length >= this.batchSize) void this.flush(false);
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.flushIntervalMs);
      this.timer.unref();
    }
  }

  /**
   * Writes what is buffered (after any write in progress). `withStats` false (a flush because the
   * buffer is full, i.e. under load): the counters wait unless `statsIntervalMs` has passed since
   * they were last written; the next flush on the timer (the load dropped) or at `close` writes
   * them.
   */
  flush(withStats = true): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const statsDue = withStats || Date.now() - this.statsWrittenAt >= this.statsIntervalMs;
    const batch = this.buffer;
    const executions = statsDue ? this.executions : new Map<string, never>();
    if (batch.length === 0 && executions.size === 0) return this.writing;
    this.buffer = [];
    if (statsDue) {
      this.executions = new Map();
      this.statsWrittenAt = Date.now();
    } else {
      // The counters left behind are written by the timer at the latest (if no full buffer first).
      this.timer = setTimeout(() => void this.flush(), this.flushIntervalMs);
      this.timer.unref();
    }
    let records = batch;
    if (this.waiting + records.length > this.maxBuffered) {
      this.logger.warn(
        { records: records.length, waiting: this.waiting },
        'route records: the store is behind, batch dropped',
      );
      records = [];
    }
    this.waiting += records.length;
    this.writing = this.writing.then(() => {
      this.waiting -= records.length;
      return this.write(records, [...executions.values()]);
    });
    return this.writing;
  }

  private async write(
    batch: RouteRecordInput[],
    executions: { ownerKey: string; primitive: string; n: number; fallback: number }[],
  ): Promise<void> {
    const updatedAt = new Date();
    try {
      await Promise.all([
        batch.length > 0 ? this.pages.raw.insertOne(encodeRoutePage(this.nextPageId(), batch)) : undefined,
        executions.length > 0
          ? this.stats.raw.bulkWrite(
              executions.map((e) => ({
                updateOne: {
                  filter: { _id: `${e.ownerKey}|${e.primitive}` },
                  update: {
                    $inc: { executions: e.n, fallbackCount: e.fallback },
                    $set: { updatedAt },
                    $setOnInsert: { ownerKey: e.ownerKey, primitive: e.primitive },
                  },
                  upsert: true,
                },
              })),
              { ordered: false },
            )
          : undefined,
      ]);
    } catch (err) {
      this.logger.warn({ err, records: batch.length }, 'route records: write failed, batch dropped');
    }
  }

  /** Page ids of this process sort in the order written (fixed-width sequence). */
  private nextPageId(): string {
    return `${this.idPrefix}${(this.seq++).toString(36).padStart(8, '0')}`;
  }

  /** Writes what is left; later records are ignored. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }
}

/** The recorder and the queries over one document store. */
export function routeRecordsOn(documents: DocumentStore, logger: Logger, options?: RouteRecorderOptions) {
  const pages = documents.repository(routePagesCollection);
  const stats = documents.repository(routeStatsCollection);
  return {
    recorder: new RouteRecorder(pages, stats, logger, options),
    queries: new RouteQueries(pages, documents.repository(routeRecordsCollection), stats),
  };
}
