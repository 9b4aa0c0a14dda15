import type { Logger } from '../../src/logging/logger';
import type { CrewStore } from './crew-documents.store';
import { featureSlug } from './crew-plan';

/** A background duty: runs every `intervalMs` on its feature's active node, or once from cron. */
export interface Duty {
  readonly name: string;
  readonly intervalMs: number;
  /** One pass; resolves how many items it handled. */
  run(): Promise<number>;
}

export interface DutyRun {
  duty: string;
  ok: boolean;
  items: number;
  ms: number;
  /** Set when another call of the cluster was running this duty: this one did not run it. */
  skipped?: 'running elsewhere';
  error?: string;
}

export const RUN_PREFIX = 'run:';

export interface CrewDutiesDeps {
  /** The crew's records (run locks live there, cluster-wide). */
  readonly records: CrewStore;
  readonly nodeId: string;
  readonly logger: Logger;
  /** This node offers its duties to the crew (hosts actors); otherwise they run from cron only. */
  readonly offersDuties: boolean;
  /** Whether this node is the active node of a feature now (the crew's last view). */
  readonly isActive: (slug: string) => boolean;
}

/**
 * The duties of one node: their timers (a tick runs the duty only when this node is its feature's
 * active node) and their runs, each under a cluster-wide run lock in the crew's records, so a
 * duty runs once per tick in the cluster whoever calls it (timer or cron).
 */
export class CrewDuties {
  private readonly duties = new Map<string, Duty>();
  private readonly timers: NodeJS.Timeout[] = [];
  private stopped = false;

  constructor(private readonly deps: CrewDutiesDeps) {}

  /** Adds a duty this node can run (before `start`). A duty with interval 0 is not offered. */
  add(duty: Duty): void {
    if (duty.intervalMs > 0) this.duties.set(duty.name, duty);
  }

  /** The duties this node offers to the crew (none on a node that hosts no actors). */
  names(): string[] {
    return this.deps.offersDuties ? [...this.duties.keys()].sort() : [];
  }

  /** Starts one timer per offered duty. */
  start(): void {
    for (const duty of this.deps.offersDuties ? this.duties.values() : []) {
      const timer = setInterval(
        () =>
          void this.tick(duty).catch((err: unknown) =>
            this.deps.logger.warn({ err, duty: duty.name }, 'crew: duty tick failed'),
          ),
        duty.intervalMs,
      );
      timer.unref();
      this.timers.push(timer);
    }
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
  }

  /** A duty's timer: runs it only on the feature's active node. */
  private async tick(duty: Duty): Promise<void> {
    if (this.stopped || !this.deps.isActive(featureSlug('duty', duty.name))) return;
    const run = await this.runDuty(duty, duty.intervalMs);
    if (!run.ok) this.deps.logger.warn({ duty: duty.name, error: run.error }, 'crew: duty failed');
  }

  /** Runs every duty once now (cron), each under its cluster-wide run lock. */
  async runAll(): Promise<DutyRun[]> {
    const runs: DutyRun[] = [];
    for (const duty of this.duties.values()) runs.push(await this.runDuty(duty, 60_000));
    return runs;
  }

  private async runDuty(duty: Duty, lockMs: number): Promise<DutyRun> {
    const { records } = this.deps;
    const key = RUN_PREFIX + duty.name;
    const token = `${this.deps.nodeId}:${Date.now()}`;
    const t0 = performance.now();
    let locked: boolean;
    try {
      locked = await records.set(key, token, { ttlMs: Math.max(lockMs, 1000), onlyIfAbsent: true });
    } catch (err) {
      // No run lock without the cache (a Redis blip): the duty waits for the next tick. Reported,
      // never thrown: a timer's rejection would end the process.
      const error = `the duty's run lock could not be taken: ${err instanceof Error ? err.message : String(err)}`;
      return { duty: duty.name, ok: false, items: 0, ms: 0, error };
    }
    if (!locked) return { duty: duty.name, ok: true, items: 0, ms: 0, skipped: 'running elsewhere' };
    try {
      const items = await duty.run();
      this.deps.logger.debug({ duty: duty.name, items }, 'crew: duty ran');
      return { duty: duty.name, ok: true, items, ms: Math.round(performance.now() - t0) };
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      return { duty: duty.name, ok: false, items: 0, ms: Math.round(performance.now() - t0), error };
    } finally {
      if ((await records.get(key).catch(() => null)) === token)
        await records.delete(key).catch(() => undefined);
    }
  }
}
