import os from 'node:os';
import { AppError } from '../../schemas/errors';
import type { ActorSystem } from '../../src/kernel';
import type { Logger } from '../../src/logging/logger';
import type { CachePort } from '../../src/store/cache';
import type { CrewStore } from './crew-documents.store';
import { bootstrapCluster, type BootstrapDeps, type BootstrapResult } from './crew-bootstrap';
import { CrewDuties, type Duty, type DutyRun } from './crew-duties';
import { InstalledFeatures, type InstalledFeaturesSource } from './crew-installed';
import { featuresOf, planFailover, planFeature, type CrewNode, type FeatureCrew } from './crew-plan';
import { ASSIGN_RENEW_MS, CrewRecordsRepo } from './crew-records.repo';

/** Broadcast types of the crew (every node hears them). */
export const CREW_HEARTBEAT_BROADCAST = 'crew.heartbeat';
export const CREW_CHANGED_BROADCAST = 'crew.changed';

export type { Duty, DutyRun } from './crew-duties';

export interface CrewView {
  nodes: CrewNode[];
  features: FeatureCrew[];
  at: number;
}

export interface CrewDeps extends BootstrapDeps {
  readonly system: Pick<ActorSystem, 'nodeId' | 'status' | 'broadcast' | 'onBroadcast'>;
  readonly cache: CachePort;
  /**
   * Where the records live when not in the cache (the document store, when no Redis is shared):
   * keys are relative, as in the cache's `crew:<cluster>:` namespace.
   */
  readonly store?: { readonly kind: 'documents'; readonly records: CrewStore };
  readonly logger: Logger;
  readonly role: string;
  readonly heartbeatMs: number;
  /** Runtime functions this process offers (`sandbox`, `http-egress`, `connectors`). */
  readonly runtime: readonly string[];
  /**
   * This node offers its duties to the crew (hosts actors). A node that does not (ROLE=api) still
   * runs them from cron, never on a timer.
   */
  readonly offersDuties: boolean;
  /** Deployments sharing a Redis stay apart (AMQP_PREFIX): keys are `crew:<cluster>:...`. */
  readonly cluster: string;
  /** The installed catalog skills and apps, as features with the runtime functions they use. */
  readonly installed?: InstalledFeaturesSource;
  /** How often a heartbeat reads the installed skills and apps again, ms (default: 5 beats). */
  readonly installedRefreshMs?: number;
}

/**
 * This process's membership of the crew. On every heartbeat it writes its record into the cache
 * (Redis when configured: every node reads it) with a lease of three beats, so a dead node drops
 * out within seconds, and tells the others on the broadcast channel. From the live records and
 * the stored assignments it computes every feature's active and standby node (crew-plan.ts) and
 * stores the ones that changed. Each duty's timer runs the duty only when this node is its
 * feature's active node, holding a cluster-wide run lock, so a duty runs once per tick.
 */
export class CrewService {
  private readonly records: CrewRecordsRepo;
  private readonly duties: CrewDuties;
  private readonly installed: InstalledFeatures;
  private readonly offs: Array<() => void> = [];
  private readonly startedAt = new Date().toISOString();
  private heartbeat: NodeJS.Timeout | undefined;
  private beating: Promise<CrewView> | undefined;
  private last: CrewView = { nodes: [], features: [], at: 0 };
  private stopped = false;
  private renewedAt = 0;

  constructor(private readonly deps: CrewDeps) {
    const store = deps.store?.records ?? deps.cache.namespace(`crew:${deps.cluster}:`);
    this.records = new CrewRecordsRepo(store);
    this.duties = new CrewDuties({
      records: store,
      nodeId: deps.system.nodeId,
      logger: deps.logger,
      offersDuties: deps.offersDuties,
      isActive: (slug) => this.isActive(slug),
    });
    this.installed = new InstalledFeatures(
      deps.installed,
      deps.installedRefreshMs ?? deps.heartbeatMs * 5,
      deps.logger,
    );
  }

  /** Where the records live: `redis` or `memory` (the cache), or `documents`. */
  get storeKind(): 'redis' | 'memory' | 'documents' {
    return this.deps.store?.kind ?? this.deps.cache.kind;
  }

  get nodeId(): string {
    return this.deps.system.nodeId;
  }

  get heartbeatMs(): number {
    return this.deps.heartbeatMs;
  }

  /** A lapsed record is gone after three missed beats. */
  get leaseMs(): number {
    return this.deps.heartbeatMs * 3;
  }

  /** Adds a duty this node can run (before `start`). A duty with interval 0 is not offered. */
  addDuty(duty: Duty): void {
    this.duties.add(duty);
  }

  /** The duties this node offers to the crew (none on a node that hosts no actors). */
  dutyNames(): string[] {
    return this.duties.names();
  }

  /** Starts beating and the duty timers. */
  start(): void {
    if (this.heartbeat || this.stopped) return;
    this.offs.push(
      this.deps.system.onBroadcast(CREW_CHANGED_BROADCAST, () => void this.beat().catch(() => undefined)),
      this.deps.system.onBroadcast(CREW_HEARTBEAT_BROADCAST, (body) => {
        // A node we do not know yet: look again now rather than at our next beat.
        const id = (body as { nodeId?: unknown } | null)?.nodeId;
        if (typeof id === 'string' && !this.last.nodes.some((n) => n.nodeId === id)) {
          void this.refresh().catch(() => undefined);
        }
      }),
    );
    void this.beat().catch((err: unknown) => this.deps.logger.warn({ err }, 'crew: heartbeat failed'));
    this.heartbeat = setInterval(() => {
      this.beat().catch((err: unknown) => this.deps.logger.warn({ err }, 'crew: heartbeat failed'));
    }, this.deps.heartbeatMs);
    this.heartbeat.unref();
    this.duties.start();
  }

  /** Stops beating and running duties, and leaves the crew at once (its record is removed). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.duties.stop();
    for (const off of this.offs) off();
    await this.beating?.catch(() => undefined);
    await this.records.leave(this.nodeId).catch(() => undefined);
  }

  /** The view of the last heartbeat (this node's duties are decided on it). */
  current(): CrewView {
    return this.last;
  }

  /** Whether this node is the active node of a feature, by the last heartbeat's view. */
  isActive(slug: string): boolean {
    return this.last.features.some((f) => f.featureSlug === slug && f.active === this.nodeId);
  }

  private record(): CrewNode {
    const status = this.deps.system.status();
    return {
      nodeId: this.nodeId,
      role: this.deps.role,
      kinds: [...status.kinds].sort(),
      runtime: [...this.deps.runtime],
      duties: this.dutyNames(),
      load: {
        actors: status.actors,
        inFlight: status.inFlight,
        rssBytes: process.memoryUsage.rss(),
        loadAvg1m: os.loadavg()[0],
      },
      startedAt: this.startedAt,
      beatAt: Date.now(),
    };
  }

  /** One heartbeat: record, broadcast, read the crew, store the assignments that changed. */
  beat(): Promise<CrewView> {
    return (this.beating ??= (async () => {
      if (this.stopped) return this.last;
      const me = this.record();
      await this.records.announce(me, this.leaseMs);
      void this.deps.system.broadcast(CREW_HEARTBEAT_BROADCAST, me).catch(() => undefined);
      await this.installed.refresh();
      const view = await this.refresh(true);
      if (me.beatAt - this.renewedAt >= ASSIGN_RENEW_MS) {
        this.renewedAt = me.beatAt;
        for (const f of view.features) {
          if (f.active === me.nodeId) await this.records.renew(f.featureSlug);
        }
      }
      return view;
    })().finally(() => {
      this.beating = undefined;
    }));
  }

  /** Reads the live nodes and stored assignments and computes every feature's crew. */
  async refresh(store = false): Promise<CrewView> {
    const nodes = await this.records.liveNodes();
    const uses = this.installed.current();
    const slugs = featuresOf(nodes, await this.records.assignedSlugs(), uses);
    const stored = await this.records.assignments(slugs);
    const features = slugs.map((slug, i) => {
      const was = stored[i];
      const crew = planFeature(slug, nodes, was, uses);
      if (store && (crew.active !== was?.active || crew.standby !== was?.standby)) {
        const next = { active: crew.active, standby: crew.standby, lastFailover: was?.lastFailover };
        void this.records.assign(slug, next).catch(() => undefined);
      }
      return crew;
    });
    const view = { nodes, features, at: Date.now() };
    if (!this.stopped) this.last = view;
    return view;
  }

  /**
   * Promotes the standby of a feature, picks a new standby and records who and why; every node
   * hears it at once (the demoted one stops the duty before its next tick).
   */
  async failover(
    slug: string,
    by: string,
    reason: string,
  ): Promise<{ before: FeatureCrew; after: FeatureCrew }> {
    const view = await this.refresh();
    const before = view.features.find((f) => f.featureSlug === slug);
    if (!before)
      throw new AppError('NOT_FOUND', `No feature ${slug} in the crew (GET /api/ops/crew lists them)`);
    const next = planFailover(
      before,
      view.nodes,
      { by, reason, at: new Date().toISOString() },
      this.installed.current(),
    );
    if (!next) {
      throw new AppError('CONFLICT', `Feature ${slug} has no live standby to promote`, { featureSlug: slug });
    }
    await this.records.assign(slug, next);
    await this.deps.system.broadcast(CREW_CHANGED_BROADCAST, { featureSlug: slug }).catch(() => undefined);
    const after = (await this.refresh()).features.find((f) => f.featureSlug === slug)!;
    this.deps.logger.info(
      { featureSlug: slug, from: before.active, to: after.active, by, reason },
      'crew: failover',
    );
    return { before, after };
  }

  /** Bootstrap (crew-bootstrap.ts): indexes, catalog seeds and the crew of every feature. */
  bootstrap(): Promise<BootstrapResult> {
    return bootstrapCluster(this.deps, () => this.assignAll());
  }

  /** Stores the crew of every feature now: what was assigned and what already was. */
  async assignAll(): Promise<{ assigned: string[]; alreadyAssigned: string[] }> {
    const had = new Set(await this.records.assignedSlugs());
    // The skills and apps installed now, not as of the last read.
    await this.installed.refresh(true);
    const view = await this.beat();
    const assigned: string[] = [];
    const alreadyAssigned: string[] = [];
    for (const f of view.features) (had.has(f.featureSlug) ? alreadyAssigned : assigned).push(f.featureSlug);
    // The writes of `beat` are not awaited; bootstrap's answer must hold when it is read.
    for (const f of view.features) {
      if (!had.has(f.featureSlug)) {
        await this.records.assign(f.featureSlug, {
          active: f.active,
          standby: f.standby,
          lastFailover: f.lastFailover,
        });
      }
    }
    return { assigned, alreadyAssigned };
  }

  /** Runs every duty once now (cron), each under its cluster-wide run lock. */
  runAll(): Promise<DutyRun[]> {
    return this.duties.runAll();
  }
}
