import { randomText } from '../../src/store/random-ids';
import type { Filter } from 'mongodb';
import {
  EXECUTION_LIMITS,
  type ExecutionDocument,
  type ExecutionLogDocument,
} from '../../schemas/documents/execution';
import { errors } from '../../schemas/errors';
import type { ExecutionListQuery, LogView } from '../../schemas/http/executions';
import { InsertBatcher, type Repository } from '../../src/store/mongo';
import { redactText } from '../tools/router/redact-secrets';
import type { ExecutionHub } from './execution-hub';
import type { LogLine } from './execution-machine';
import { logView } from './execution-views';

/** A new public execution id: `exe_` and 24 random base62-ish characters. */
export function newExecutionId(): string {
  return `exe_${randomText(18, 'base64url').replace(/[-_]/g, 'x')}`;
}

export const isExecutionId = (id: string) => /^exe_[A-Za-z0-9]{8,64}$/.test(id);

const cut = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/**
 * The append-only log of executions: lines numbered per execution from 1 (`logSeq` on the
 * execution is the counter, so sequence numbers are monotonic for replay), at most `keptLogs`
 * kept, secrets redacted. State changes reserve their lines in the same write as the change;
 * others (`append`) reserve them with one `$inc`.
 */
export class ExecutionLogs {
  /** Lines of many executions written at once share one insert (a burst of streams). */
  private readonly inserts: InsertBatcher<ExecutionLogDocument>;

  constructor(
    readonly repo: Repository<ExecutionLogDocument>,
    private readonly executions: Repository<ExecutionDocument>,
    private readonly hub: ExecutionHub,
  ) {
    this.inserts = new InsertBatcher(repo, { validate: false });
  }

  /** Appends lines to an execution's log and streams them to its watchers. */
  async append(executionId: string, lines: LogLine[]): Promise<LogView[]> {
    if (lines.length === 0) return [];
    const doc = await this.executions.raw.findOneAndUpdate(
      { _id: executionId },
      { $inc: { logSeq: lines.length } },
      { returnDocument: 'after', projection: { logSeq: 1 } },
    );
    if (!doc) throw errors.notFound('Execution not found');
    const views = await this.write(executionId, doc.logSeq - lines.length + 1, lines);
    await this.hub.publish(
      executionId,
      views.map((log) => ({ type: 'log' as const, executionId, log })),
    );
    return views;
  }

  /** Writes lines whose sequence numbers were reserved (`firstSeq` …). Idempotent per seq. */
  async write(executionId: string, firstSeq: number, lines: LogLine[], now = new Date()): Promise<LogView[]> {
    const docs: ExecutionLogDocument[] = lines.map((line, k) => ({
      _id: `${executionId}:${firstSeq + k}`,
      executionId,
      seq: firstSeq + k,
      level: line.level,
      message: cut(redactText(line.message), EXECUTION_LIMITS.maxLogMessage),
      at: now,
    }));
    await this.insertMany(docs);
    const last = firstSeq + lines.length - 1;
    // Pruned when the count crosses a multiple of 100 past the bound: one delete per 100 lines.
    if (last > EXECUTION_LIMITS.keptLogs && Math.floor(last / 100) !== Math.floor((firstSeq - 1) / 100)) {
      await this.repo.deleteMany({ executionId, seq: { $lte: last - EXECUTION_LIMITS.keptLogs } });
    }
    return docs.map(logView);
  }

  /**
   * Inserts log lines (of one execution or many: panic), coalesced with the lines other requests
   * write in the same turn of the event loop. A repeated write of the same lines (same _id) is
   * harmless.
   */
  async insertMany(docs: ExecutionLogDocument[]): Promise<void> {
    if (docs.length === 0) return;
    await this.inserts.insertAll(docs);
  }

  /** The last `limit` lines, oldest first. */
  async tail(executionId: string, limit: number = EXECUTION_LIMITS.keptLogs): Promise<LogView[]> {
    const docs = await this.repo.find({ executionId }, { sort: { seq: -1 }, limit });
    return docs.reverse().map(logView);
  }

  /** Lines after `seq`, oldest first (replay for a resuming stream). */
  async after(
    executionId: string,
    seq: number,
    limit: number = EXECUTION_LIMITS.keptLogs,
  ): Promise<LogView[]> {
    const docs = await this.repo.find({ executionId, seq: { $gt: seq } }, { sort: { seq: 1 }, limit });
    return docs.map(logView);
  }
}

interface CursorPosition {
  createdAt: Date;
  id: string;
}

function encodeCursor(doc: ExecutionDocument): string {
  return Buffer.from(JSON.stringify([doc.createdAt.getTime(), doc._id])).toString('base64url');
}

function decodeCursor(cursor: string): CursorPosition {
  try {
    const [ms, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof ms === 'number' && Number.isFinite(ms) && typeof id === 'string' && isExecutionId(id)) {
      return { createdAt: new Date(ms), id };
    }
  } catch {
    // reported below
  }
  throw errors.validation('Invalid cursor: pass the nextCursor of the previous page', { field: 'cursor' });
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Reads of executions for the routes (plain reads: no actor involved). */
export class ExecutionQueries {
  constructor(
    readonly repo: Repository<ExecutionDocument>,
    readonly logs: ExecutionLogs,
  ) {}

  /** One execution of the account; another tenant's (or none) is NOT_FOUND. */
  async get(accountId: string, id: string): Promise<ExecutionDocument> {
    const doc = isExecutionId(id) ? await this.repo.findById(id) : null;
    if (!doc || doc.accountId !== accountId) throw errors.notFound('Execution not found', { id });
    return doc;
  }

  /** The account's executions matching `query`, newest first, a page at a time. */
  async list(
    accountId: string,
    query: Omit<ExecutionListQuery, 'status'> & { status?: readonly string[] },
    extra: Filter<ExecutionDocument> = {},
  ): Promise<{ docs: ExecutionDocument[]; nextCursor: string | null }> {
    const filter: Record<string, unknown> = { accountId, ...extra };
    if (query.status) filter.status = { $in: [...query.status] };
    for (const field of [
      'sourceType',
      'workflowId',
      'appSlug',
      'skillSlug',
      'sessionId',
      'workspaceId',
      'type',
    ] as const) {
      if (query[field] !== undefined) filter[field] = query[field];
    }
    if (query.title) filter.title = { $regex: escapeRegex(query.title), $options: 'i' };
    if (query.cursor) {
      const at = decodeCursor(query.cursor);
      filter.$or = [{ createdAt: { $lt: at.createdAt } }, { createdAt: at.createdAt, _id: { $lt: at.id } }];
    }
    const docs = await this.repo.find(filter as Filter<ExecutionDocument>, {
      sort: { createdAt: -1, _id: -1 },
      limit: query.limit + 1,
    });
    const page = docs.slice(0, query.limit);
    const more = docs.length > query.limit;
    return { docs: page, nextCursor: more ? encodeCursor(page[page.length - 1]!) : null };
  }
}
