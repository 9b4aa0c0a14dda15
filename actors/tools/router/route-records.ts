import { randomBytes } from 'node:crypto';
import type { Principal } from '../../../schemas/auth';
import {
  RouteRecordDocumentSchema,
  RouteStatDocumentSchema,
  type RouteRecordDocument,
  type RouteStatDocument,
} from '../../../schemas/documents/route-record';
import type { FfpRoutesResponse, RouteView } from '../../../schemas/http/mcp';
import type { Logger } from '../../../src/logging/logger';
import { defineCollection, type DocumentStore, type Repository } from '../../../src/store/mongo';

/** How long route records are kept (TTL index on `at`), in seconds: 7 days. */
export const ROUTE_RECORD_RETENTION_SEC = 7 * 24 * 3600;

/**
 * `route_records`: one document per routed call, expired after 7 days. Indexes serve the two
 * listings of `GET /api/ffp/routes` (an agent's latest, an account's latest).
 */
export const routeRecordsCollection = defineCollection({
  name: 'route_records',
  schema: RouteRecordDocumentSchema,
  indexes: [
    { key: { at: 1 }, name: 'at_ttl', expireAfterSeconds: ROUTE_RECORD_RETENTION_SEC },
    { key: { agentId: 1, at: -1 }, name: 'agent_at' },
    { key: { accountId: 1, at: -1 }, name: 'account_at', sparse: true },
  ],
});

/** `route_stats`: executions per primitive per owner (`agent:<id>`, `account:<id>`), all time. */
export const routeStatsCollection = defineCollection({
  name: 'route_stats',
  schema: RouteStatDocumentSchema,
  indexes: [{ key: { ownerKey: 1 }, name: 'owner' }],
});

export const routeCollections = [routeRecordsCollection, routeStatsCollection] as const;

/** A record before it gets its id. */
export type RouteRecordInput = Omit<RouteRecordDocument, '_id'>;

/** Options of the recorder. */
export interface RouteRecorderOptions {
  /** Longest a record waits in memory before it is written, in ms. Default 500. */
  flushIntervalMs?: number;
  /**
   * Records that trigger a write at once. Default 200. Under load the counters do not go with these
   * flushes (`statsIntervalMs`), so a flush is one `insertMany`; its records are serialised in one
   * go by the driver and parsed in one go by the document server, and 1000 of them held each for
   * 10-30 ms, which showed in the tail latency of every call. Measured under bench:mcp's AMQP load
   * (four alternating pairs): p99 −12 to −23 % with 200 instead of 1000, same throughput; 100 was
   * no better than 200.
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
 * with one `insertMany` (and one `bulkWrite` of counter upserts) every `flushIntervalMs` or every
 * `batchSize` records, and at `close`. Records are statistics: when the store fails, the batch is
 * logged and dropped rather than retried forever.
 */
export class RouteRecorder {
  private buffer: RouteRecordDocument[] = [];
  /** Primitives per owner key of the buffered records that ran (executions). */
  private executions = new Map<
    string,
    { ownerKey: string; primitive: string; n: number; fallback: number }
  >();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** Records of the batches queued behind the write in progress (bounded by `maxBuffered`). */
  private waiting = 0;
  private readonly idPrefix = `rr_${randomBytes(6).toString('hex')}_`;
  private seq = 0;
  private readonly flushIntervalMs: number;
  private readonly batchSize: number;
  private readonly maxBuffered: number;
  private readonly statsIntervalMs: number;
  private statsWrittenAt = 0;
  private closed = false;

  constructor(
    private readonly records: Repository<RouteRecordDocument>,
    private readonly stats: Repository<RouteStatDocument>,
    private readonly logger: Logger,
    options: RouteRecorderOptions = {},
  ) {
    this.flushIntervalMs = options.flushIntervalMs ?? 500;
    this.batchSize = options.batchSize ?? 200;
    this.maxBuffered = options.maxBuffered ?? 10_000;
    this.statsIntervalMs = options.statsIntervalMs ?? 5000;
  }

  /** Buffers one record; `executed`: the tool ran (counted in the summary), not refused before. */
  record(input: RouteRecordInput, executed: boolean): void {
    if (this.closed) return;
    this.buffer.push({ _id: `${this.idPrefix}${(this.seq++).toString(36)}`, ...input });
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
    batch: RouteRecordDocument[],
    executions: { ownerKey: string; primitive: string; n: number; fallback: number }[],
  ): Promise<void> {
    const updatedAt = new Date();
    try {
      await Promise.all([
        batch.length > 0 ? this.records.raw.insertMany(batch, { ordered: false }) : undefined,
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

  /** Writes what is left; later records are ignored. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }
}

/** Reads for `GET /api/ffp/routes`. */
export class RouteQueries {
  constructor(
    private readonly records: Repository<RouteRecordDocument>,
    private readonly stats: Repository<RouteStatDocument>,
  ) {}

  /**
   * The caller's latest routes and its per-primitive summary: an agent sees its own calls, an
   * account the calls of all its agents (its default agent included).
   */
  async forCaller(principal: Principal, limit: number): Promise<FfpRoutesResponse> {
    const owner =
      principal.subjectType === 'agent' && principal.agentId
        ? { filter: { agentId: principal.agentId }, ownerKey: `agent:${principal.agentId}` }
        : principal.accountId
          ? { filter: { accountId: principal.accountId }, ownerKey: `account:${principal.accountId}` }
          : undefined;
    if (!owner) return { routes: [], primitives: [] };
    const [records, stats] = await Promise.all([
      this.records.find(owner.filter, { sort: { at: -1, _id: -1 }, limit }),
      this.stats.find({ ownerKey: owner.ownerKey }, { sort: { executions: -1, primitive: 1 }, limit: 500 }),
    ]);
    return {
      routes: records.map(viewOf),
      primitives: stats.map((s) => ({
        primitive: s.primitive,
        executions: s.executions,
        fallbackCount: s.fallbackCount,
      })),
    };
  }
}

/** The public view of a record: no internal ids. */
function viewOf(r: RouteRecordDocument): RouteView {
  return {
    tool: r.tool,
    primitive: r.primitive,
    fallbackUsed: r.fallbackUsed,
    invokedByType: r.invokedByType,
    routeDecision: r.routeDecision,
    related: r.related,
    agentRef: r.agentRef,
    status: r.status,
    ...(r.errorCode ? { errorCode: r.errorCode } : {}),
    durationMs: r.durationMs,
    at: r.at.toISOString(),
  };
}

/** The recorder and the queries over one document store. */
export function routeRecordsOn(documents: DocumentStore, logger: Logger, options?: RouteRecorderOptions) {
  const records = documents.repository(routeRecordsCollection);
  const stats = documents.repository(routeStatsCollection);
  return {
    recorder: new RouteRecorder(records, stats, logger, options),
    queries: new RouteQueries(records, stats),
  };
}
