import type { AgentDocument } from '../../schemas/documents/agent';
import type { Logger } from '../../src/logging/logger';
import { mapMongoError, type Repository } from '../../src/store/mongo';

/** Calls counted for one agent and not written yet. */
interface Pending {
  calls: number;
  /** Latest call time, epoch ms. */
  at: number;
}

/**
 * The counted tool calls (`totalCalls`, `lastActiveAt`) of every agent active in this process,
 * written together: one `bulkWrite` of `$inc`/`$max` updates (one per agent) at most once per
 * `intervalMs`, instead of one `updateOne` per agent. Under load, 50 agents' separate writes
 * every second were most of the document store's work and a large share of the service's.
 * Both operators commute, so writes from several nodes holding the same agent add up without a
 * version check. A crash loses at most the last interval's counts (usage statistics, not
 * billing). A failed write keeps its counts for the next one.
 */
export class CallCounts {
  private queued = new Map<string, Pending>();
  private writing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private logger: Logger | undefined;

  constructor(
    private readonly agents: Repository<AgentDocument>,
    private readonly intervalMs: number,
  ) {}

  /** Counts `calls` for the agent; written by the next periodic write. */
  add(agentId: string, calls: number, at: number, logger?: Logger): void {
    const known = this.queued.get(agentId);
    if (known) {
      known.calls += calls;
      if (at > known.at) known.at = at;
    } else this.queued.set(agentId, { calls, at });
    if (logger) this.logger = logger;
    this.arm();
  }

  /** What is counted for the agent and not written yet (`GET /agent/me` adds it). */
  pending(agentId: string): { calls: number; lastActiveAt: number | null } {
    const known = this.queued.get(agentId);
    return { calls: known?.calls ?? 0, lastActiveAt: known?.at ?? null };
  }

  /**
   * Writes the agent's counts now (and waits for any write in progress, which may hold some of
   * them): after it, the agent's document has every call counted so far. Rejects when the write
   * fails (the counts are kept).
   */
  flushAgent(agentId: string): Promise<void> {
    const known = this.queued.get(agentId);
    if (!known) return this.writing;
    this.queued.delete(agentId);
    return this.enqueue(new Map([[agentId, known]]));
  }

  /** Writes every agent's counts (after any write in progress). */
  flushAll(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.queued;
    if (batch.size === 0) return this.writing;
    this.queued = new Map();
    return this.enqueue(batch);
  }

  private arm(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flushAll().catch((err: unknown) => {
        this.logger?.warn({ err }, 'agents: could not write counted calls (kept for the next write)');
      });
    }, this.intervalMs);
    this.timer.unref();
  }

  private enqueue(batch: Map<string, Pending>): Promise<void> {
    const write = this.writing.catch(() => undefined).then(() => this.write(batch));
    this.writing = write.catch(() => undefined);
    return write;
  }

  private async write(batch: Map<string, Pending>): Promise<void> {
    const updates = [...batch].map(([id, { calls, at }]) => ({
      filter: { _id: id },
      update: { $inc: { totalCalls: calls }, $max: { lastActiveAt: new Date(at) } },
    }));
    try {
      // One agent (light load, `agent.get`, passivation): a plain update.
      if (updates.length === 1) await this.agents.raw.updateOne(updates[0].filter, updates[0].update);
      else {
        await this.agents.raw.bulkWrite(
          updates.map((updateOne) => ({ updateOne })),
          { ordered: false },
        );
      }
    } catch (err) {
      // Put the counts back: the next write (or the retry of this message) writes them.
      for (const [id, { calls, at }] of batch) this.add(id, calls, at);
      throw mapMongoError(err, { collection: this.agents.name, op: 'bulkWrite' });
    }
  }
}
