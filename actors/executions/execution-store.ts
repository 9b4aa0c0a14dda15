import type { UpdateFilter } from 'mongodb';
import type { ExecutionDocument } from '../../schemas/documents/execution';
import { isAppError } from '../../schemas/errors';
import type { ExecutionEvent } from '../../schemas/messages/executions';
import type { Logger } from '../../src/logging/logger';
import { InsertBatcher, UpdateBatcher, withVersionBump, type Repository } from '../../src/store/mongo';
import type { NotificationsRepo } from '../notifications/notifications.repo';
import type { ExecutionHub } from './execution-hub';
import { countTransition } from './execution-transitions';
import { compact, isFinal, type Decision } from './execution-machine';
import { executionSummary, stepView } from './execution-views';
import type { ExecutionLogs } from './executions.repo';

/** Fields never written from a draft (the id, and the counters the write itself moves). */
const FIXED = new Set(['_id', 'version', 'logSeq']);
/** Attempts of a read-decide-write cycle before a lost race is reported. */
const MAX_ATTEMPTS = 5;

/** `$set` and `$unset` turning `before` into `after` (top-level fields compared by reference). */
function diff(before: ExecutionDocument, after: ExecutionDocument) {
  const set: Record<string, unknown> = {};
  const unset: Record<string, ''> = {};
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const key of keys) {
    if (FIXED.has(key)) continue;
    const a = (before as Record<string, unknown>)[key];
    const b = (after as Record<string, unknown>)[key];
    if (a === b) continue;
    if (b === undefined) unset[key] = '';
    else set[key] = b;
  }
  return { set, unset };
}

/** The write of `decision` on `before` (without the version bump): changed fields, the lines' seq. */
function updateOf(before: ExecutionDocument, decision: Decision, now: Date): UpdateFilter<ExecutionDocument> {
  const { set, unset } = diff(before, decision.draft);
  const lines = decision.logs.length;
  return {
    $set: { ...set, updatedAt: now },
    ...(Object.keys(unset).length > 0 ? { $unset: unset } : {}),
    ...(lines > 0 ? { $inc: { logSeq: lines } } : {}),
  } as UpdateFilter<ExecutionDocument>;
}

/**
 * Writes decisions of the state machine: one conditional write on the document's `version` (the
 * log lines' sequence numbers reserved in it), then the log lines, the events for watchers and the
 * notification. A lost race is retried from a fresh read (`mutate`), so a decision is always taken
 * on the current state: an illegal move is then a 409 with the current status, never an overwrite.
 */
export class ExecutionStore {
  /** New executions of many requests at once share one insert (a burst of intent streams). */
  private readonly inserts: InsertBatcher<ExecutionDocument>;
  /** The ends of executions run at once share one write too (`commitOn`). */
  private readonly updates: UpdateBatcher<ExecutionDocument>;

  constructor(
    readonly repo: Repository<ExecutionDocument>,
    readonly logs: ExecutionLogs,
    readonly hub: ExecutionHub,
    readonly notifications: NotificationsRepo,
    private readonly logger: Logger,
  ) {
    this.inserts = new InsertBatcher(repo);
    this.updates = new UpdateBatcher(repo);
  }

  /** Inserts a new execution unless its id exists (then resolves false): idempotent creation. */
  insertIfAbsent(doc: ExecutionDocument): Promise<boolean> {
    return this.inserts.insert(doc);
  }

  async load(id: string): Promise<ExecutionDocument | null> {
    return this.repo.findById(id);
  }

  /**
   * Reads the execution, decides (`decide` may throw a 409, or return null: nothing to do) and
   * writes; a concurrent change (version moved) starts over from a fresh read.
   */
  async mutate(
    id: string,
    decide: (doc: ExecutionDocument, now: Date) => Decision | null,
  ): Promise<{ doc: ExecutionDocument; decision: Decision | null }> {
    for (let attempt = 1; ; attempt++) {
      const doc = await this.load(id);
      if (!doc) throw new Error(`execution ${id} vanished`);
      const now = new Date();
      const decision = decide(doc, now);
      if (!decision) return { doc, decision: null };
      try {
        return { doc: await this.commit(doc, decision, now), decision };
      } catch (err) {
        const lostRace = isAppError(err) && err.code === 'CONFLICT' && 'currentVersion' in err.details;
        if (!lostRace || attempt >= MAX_ATTEMPTS) throw err;
      }
    }
  }

  /**
   * Writes `decision`, taken on `before` exactly as this node last wrote it, without reading the
   * record again (a step run at once: nothing else usually touches it in between), in a write
   * shared with other executions of the same moment (`UpdateBatcher`). If its version moved
   * meanwhile (a panic, a pause), `decide` takes the change again on a fresh read, as in `mutate`,
   * so nothing is ever overwritten.
   */
  async commitOn(
    before: ExecutionDocument,
    decision: Decision,
    now: Date,
    decide: (doc: ExecutionDocument, now: Date) => Decision | null,
  ): Promise<{ doc: ExecutionDocument; decision: Decision | null }> {
    const version = before.version + 1;
    const logSeq = before.logSeq + decision.logs.length;
    // Read back only when the batch had a miss: this write is the one that set this version at
    // this time, with this status and these lines.
    const carries = (current: ExecutionDocument | null) =>
      current !== null &&
      current.version === version &&
      current.logSeq === logSeq &&
      current.status === decision.draft.status &&
      current.updatedAt.getTime() === now.getTime();
    const applied = await this.updates.update(
      before._id,
      { _id: before._id, version: before.version },
      withVersionBump(updateOf(before, decision, now)),
      carries,
    );
    if (!applied) return this.mutate(before._id, decide);
    const after = compact({ ...decision.draft, _id: before._id, version, logSeq, updatedAt: now });
    if (before.status !== after.status) countTransition(before.status, after.status);
    await this.afterCommit(before, after, decision, now);
    return { doc: after, decision };
  }

  private async commit(before: ExecutionDocument, decision: Decision, now: Date): Promise<ExecutionDocument> {
    const after = await this.repo.updateIfVersion(
      before._id,
      before.version,
      updateOf(before, decision, now),
    );
    if (before.status !== after.status) countTransition(before.status, after.status);
    await this.afterCommit(before, after, decision, now);
    return after;
  }

  /** Log lines, events and notification of a written decision. Failures are logged, not thrown. */
  private async afterCommit(
    before: ExecutionDocument,
    after: ExecutionDocument,
    decision: Decision,
    now: Date,
  ): Promise<void> {
    const id = after._id;
    const events: ExecutionEvent[] = [];
    try {
      const logs = await this.logs.write(id, after.logSeq - decision.logs.length + 1, decision.logs, now);
      if (before.status !== after.status || before.hold !== after.hold || decision.changedSteps.length > 0) {
        events.push({ type: 'execution', execution: executionSummary(after) });
      }
      for (const index of decision.changedSteps) {
        const step = after.steps[index];
        if (step) events.push({ type: 'step', executionId: id, step: stepView(step) });
      }
      for (const log of logs) events.push({ type: 'log', executionId: id, log });
    } catch (err) {
      this.logger.warn({ err, executionId: id }, 'execution log lines not written');
    }
    if (decision.error) events.push({ type: 'error', executionId: id, ...decision.error });
    const ended = isFinal(after.status) && !after.hold && before.status !== after.status && !before.hold;
    if (ended) events.push({ type: 'done', executionId: id, status: after.status });
    await this.hub.publish(id, events);
    if (decision.notify) {
      await this.notifications
        .create(after.accountId, { ...decision.notify, executionId: id, workspaceId: after.workspaceId }, now)
        .catch((err: unknown) =>
          this.logger.warn({ err, executionId: id }, 'execution notification not created'),
        );
    }
  }
}
