import type { ExecutionDocument } from '../../schemas/documents/execution';
import type { ActorSystem } from '../../src/kernel';
import type { Logger } from '../../src/logging/logger';
import type { Repository } from '../../src/store/mongo';
import type { ExecutionStore } from './execution-store';
import { decideLeaseLapsed } from './execution-reports';

/** Defaults of the settings EXECUTION_LEASE_MS and EXECUTION_SWEEP_INTERVAL_MS. */
export const DEFAULT_LEASE_MS = 60_000;
export const DEFAULT_SWEEP_INTERVAL_MS = 15_000;
/** Executions one sweep pass looks at (the next pass takes the rest). */
const SWEEP_BATCH = 100;

const isLive = (system: Pick<ActorSystem, 'status'>) => system.status().state === 'running';

/**
 * The leases of the steps this node runs (docs/executions.md, "Orphaned steps"). A decision that
 * starts a step writes `current.leaseUntil` (now + the lease); while the step runs here, its lease
 * is renewed every third of its length with a write conditional on the step's `runId`. The renewal
 * moves `version`, so a sweeper that read the lapsed lease before it loses its conditional write
 * and decides again on the renewed one.
 */
export class StepLeases {
  /** A test switch: a node whose renewals are off behaves, for the others, like a dead one. */
  renewing = true;

  constructor(
    private readonly repo: Repository<ExecutionDocument>,
    readonly leaseMs: number,
    private readonly system: Pick<ActorSystem, 'status'>,
    private readonly logger: Logger,
  ) {}

  /**
   * Renews the lease of step run `runId` of `executionId` until the returned function is called.
   * `leaseUntil` is the lease the decision wrote: if less than two thirds of it is left (the step
   * started late), it is renewed at once; else first after a third of the lease, so that a short
   * step costs no write (and its report does not race a renewal).
   */
  hold(executionId: string, runId: string, leaseUntil?: Date): () => void {
    const nodeId = this.system.status().nodeId;
    const renew = () => {
      // A node that stopped holds no lease (its steps are orphans for the others to sweep).
      if (!this.renewing || !isLive(this.system)) return clearInterval(timer);
      const leaseUntil = new Date(Date.now() + this.leaseMs);
      this.repo.raw
        .updateOne(
          { _id: executionId, 'current.runId': runId },
          { $set: { 'current.leaseUntil': leaseUntil, 'current.leaseNode': nodeId }, $inc: { version: 1 } },
        )
        .catch((err: unknown) => this.logger.warn({ err, executionId }, 'step lease not renewed'));
    };
    const timer = setInterval(renew, Math.max(50, Math.floor(this.leaseMs / 3)));
    timer.unref();
    const left = leaseUntil ? leaseUntil.getTime() - Date.now() : 0;
    if (left < (this.leaseMs * 2) / 3) renew();
    return () => clearInterval(timer);
  }
}

/**
 * Finds executions whose step's lease lapsed (its node died, or a message of the step was lost:
 * dead-lettered, dropped past its deadline) and fails them, through the conditional write of the
 * store: when several nodes sweep at once, the first write wins and the others, deciding again on
 * the new version, find nothing to do. Runs on every node hosting the executions actors.
 */
export class ExecutionSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly store: ExecutionStore,
    private readonly system: Pick<ActorSystem, 'status'>,
    private readonly logger: Logger,
  ) {}

  /** Starts sweeping every `intervalMs` (0: never). Stops by itself once the actor system stops. */
  start(intervalMs: number): void {
    if (intervalMs <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      if (!isLive(this.system)) {
        if (this.system.status().state !== 'created') this.stop();
        return;
      }
      this.sweep().catch((err: unknown) => this.logger.warn({ err }, 'execution sweep failed'));
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One pass now (one at a time on this node); resolves how many executions it changed. */
  sweep(now: Date = new Date()): Promise<number> {
    return (this.running ??= this.pass(now).finally(() => {
      this.running = undefined;
    }));
  }

  private async pass(now: Date): Promise<number> {
    // The `lease_until` index: only documents with a step in flight have the field.
    const lapsed = await this.store.repo.find(
      { 'current.leaseUntil': { $lt: now } },
      { limit: SWEEP_BATCH, sort: { 'current.leaseUntil': 1 } },
    );
    let changed = 0;
    for (const doc of lapsed) {
      try {
        const { decision } = await this.store.mutate(doc._id, (d, at) => decideLeaseLapsed(d, at));
        if (!decision) continue;
        changed += 1;
        this.logger.warn(
          { executionId: doc._id, step: doc.current?.index, node: doc.current?.leaseNode },
          'execution step orphaned: its lease lapsed',
        );
      } catch (err) {
        this.logger.warn({ err, executionId: doc._id }, 'orphaned execution not swept');
      }
    }
    return changed;
  }
}
