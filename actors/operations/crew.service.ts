import os from 'node:os';
import { AppError } from '../../schemas/errors';
import type { ActorSystem } from '../../src/kernel';
import type { Logger } from '../../src/logging/logger';
import type { CachePort } from '../../src/store/cache';
import type { CrewStore } from './crew-documents.store';
import {
  featuresOf,
  featureSlug,
  planFailover,
  planFeature,
  type Assignment,
  type CrewNode,
  type FeatureCrew,
} from './crew-plan';

/** Broadcast types of the crew (every node hears them). */
export const CREW_HEARTBEAT_BROADCAST = 'crew.heartbeat';
export const CREW_CHANGED_BROADCAST = 'crew.changed';

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

export interface CrewView {
  nodes: CrewNode[];
  features: FeatureCrew[];
  at: number;
}

export interface CrewDeps {
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
  /** Declares the indexes of every collection (bootstrap); resolves what it created and found. */
  readonly declareIndexes?: () => Promise<
    Array<{ collection: string; created: string[]; unchanged: string[] }>
  >;
  /** Deployments sharing a Redis stay apart (AMQP_PREFIX): keys are `crew:<cluster>:...`. */
  readonly cluster: string;
  /** Seeds of the catalogs (the skill store's), run again by bootstrap (idempotent): name → run. */
  readonly seeds?: Readonly<Record<string, () => Promise<unknown>>>;
}

const NODE_PREFIX = 'node:';
const ASSIGN_PREFIX = 'assign:';
const RUN_PREFIX = 'run:';
/**
 * A stored assignment outlives its nodes (so a feature whose every node died shows as uncovered)
 * for an hour; the active node renews it every few minutes while it lives.
 */
const ASSIGN_TTL_MS = 60 * 60_000;
const ASSIGN_RENEW_MS = 5 * 60_000;

/**
 * This process's membership of the crew. On every heartbeat it writes its record into the cache
 * (Redis when configured: every node reads it) with a lease of three beats, so a dead node drops
 * out within seconds, and tells the others on the broadcast channel. From the live records and
 * the stored assignments it computes every feature's active and standby node (crew-plan.ts) and
 * stores the ones that changed. Each duty's timer runs the duty only when this node is its
 * feature's active node, holding a cluster-wide run lock, so a duty runs once per tick.
 */
export class CrewService {
  private readonly cache: CrewStore;
  private readonly duties = new Map<string, Duty>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly offs: Array<() => void> = [];
  private readonly startedAt = new Date().toISOString();
  private heartbeat: NodeJS.Timeout | undefined;
  private beating: Promise<CrewView> | undefined;
  private last: CrewView = { nodes: [], features: [], at: 0 };
  private stopped = false;
  private renewedAt = 0;

  constructor(private readonly deps: CrewDeps) {
    this.cache = deps.store?.records ?? deps.cache.namespace(`crew:${deps.cluster}:`);
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
    if (duty.intervalMs > 0) this.duties.set(duty.name, duty);
  }

  /** The duties this node offers to the crew (none on a node that hosts no actors). */
  dutyNames(): string[] {
    return this.deps.offersDuties ? [...this.duties.keys()].sort() : [];
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

  /** Stops beating and running duties, and leaves the crew at once (its record is removed). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const t of this.timers) clearInterval(t);
    for (const off of this.offs) off();
    await this.beating?.catch(() => undefined);
    await this.cache.delete(NODE_PREFIX + this.nodeId).catch(() => undefined);
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
      await this.cache.set(NODE_PREFIX + me.nodeId, JSON.stringify(me), { ttlMs: this.leaseMs });
      void this.deps.system.broadcast(CREW_HEARTBEAT_BROADCAST, me).catch(() => undefined);
      const view = await this.refresh(true);
      if (me.beatAt - this.renewedAt >= ASSIGN_RENEW_MS) {
        this.renewedAt = me.beatAt;
        for (const f of view.features) {
          if (f.active === me.nodeId) await this.cache.expire(ASSIGN_PREFIX + f.featureSlug, ASSIGN_TTL_MS);
        }
      }
      return view;
    })().finally(() => {
      this.beating = undefined;
    }));
  }

  /** Reads the live nodes and stored assignments and computes every feature's crew. */
  async refresh(store = false): Promise<CrewView> {
    const nodes = await this.liveNodes();
    const storedKeys = await this.cache.list(ASSIGN_PREFIX);
    const known = storedKeys.map((k) => k.slice(ASSIGN_PREFIX.length));
    const slugs = featuresOf(nodes, known);
    const values = slugs.length ? await this.cache.mget(slugs.map((s) => ASSIGN_PREFIX + s)) : [];
    const features = slugs.map((slug, i) => {
      const stored = parse<Assignment>(values[i]);
      const crew = planFeature(slug, nodes, stored);
      if (store && (crew.active !== stored?.active || crew.standby !== stored?.standby)) {
        const next: Assignment = {
          active: crew.active,
          standby: crew.standby,
          lastFailover: stored?.lastFailover,
        };
        void this.cache
          .set(ASSIGN_PREFIX + slug, JSON.stringify(next), { ttlMs: ASSIGN_TTL_MS })
          .catch(() => undefined);
      }
      return crew;
    });
    const view = { nodes, features, at: Date.now() };
    if (!this.stopped) this.last = view;
    return view;
  }

  private async liveNodes(): Promise<CrewNode[]> {
    const keys = await this.cache.list(NODE_PREFIX);
    const values = keys.length ? await this.cache.mget(keys) : [];
    return values
      .map((v) => parse<CrewNode>(v))
      .filter((n): n is CrewNode => !!n)
      .sort((a, b) => a.nodeId.localeCompare(b.nodeId));
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
    const next = planFailover(before, view.nodes, { by, reason, at: new Date().toISOString() });
    if (!next) {
      throw new AppError('CONFLICT', `Feature ${slug} has no live standby to promote`, { featureSlug: slug });
    }
    await this.cache.set(ASSIGN_PREFIX + slug, JSON.stringify(next), { ttlMs: ASSIGN_TTL_MS });
    await this.deps.system.broadcast(CREW_CHANGED_BROADCAST, { featureSlug: slug }).catch(() => undefined);
    const after = (await this.refresh()).features.find((f) => f.featureSlug === slug)!;
    this.deps.logger.info(
      { featureSlug: slug, from: before.active, to: after.active, by, reason },
      'crew: failover',
    );
    return { before, after };
  }

  /**
   * Bootstrap: declares the indexes of every collection again (idempotent), seeds the catalogs
   * again (idempotent: the skill store's) and stores the crew of every feature; says what it
   * created and what was already there.
   */
  async bootstrap(): Promise<{
    indexes: { created: string[]; alreadyThere: number };
    catalogs: Record<string, unknown>;
    crews: { assigned: string[]; alreadyAssigned: string[] };
  }> {
    const reports = this.deps.declareIndexes ? await this.deps.declareIndexes() : [];
    const created = reports.flatMap((r) => r.created.map((name) => `${r.collection}.${name}`));
    const alreadyThere = reports.reduce((n, r) => n + r.unchanged.length, 0);
    const catalogs: Record<string, unknown> = {};
    for (const [name, seed] of Object.entries(this.deps.seeds ?? {})) catalogs[name] = await seed();
    return { indexes: { created, alreadyThere }, catalogs, crews: await this.assignAll() };
  }

  /** Stores the crew of every feature now: what was assigned and what already was. */
  async assignAll(): Promise<{ assigned: string[]; alreadyAssigned: string[] }> {
    const before = await this.cache.list(ASSIGN_PREFIX);
    const view = await this.beat();
    const had = new Set(before.map((k) => k.slice(ASSIGN_PREFIX.length)));
    const assigned: string[] = [];
    const alreadyAssigned: string[] = [];
    for (const f of view.features) (had.has(f.featureSlug) ? alreadyAssigned : assigned).push(f.featureSlug);
    // The writes of `beat` are not awaited; bootstrap's answer must hold when it is read.
    for (const f of view.features) {
      if (!had.has(f.featureSlug)) {
        const a: Assignment = { active: f.active, standby: f.standby, lastFailover: f.lastFailover };
        await this.cache.set(ASSIGN_PREFIX + f.featureSlug, JSON.stringify(a), { ttlMs: ASSIGN_TTL_MS });
      }
    }
    return { assigned, alreadyAssigned };
  }

  /** A duty's timer: runs it only on the feature's active node. */
  private async tick(duty: Duty): Promise<void> {
    if (this.stopped || !this.isActive(featureSlug('duty', duty.name))) return;
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
    const key = RUN_PREFIX + duty.name;
    const token = `${this.nodeId}:${Date.now()}`;
    const t0 = performance.now();
    let locked: boolean;
    try {
      locked = await this.cache.set(key, token, { ttlMs: Math.max(lockMs, 1000), onlyIfAbsent: true });
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
      if ((await this.cache.get(key).catch(() => null)) === token)
        await this.cache.delete(key).catch(() => undefined);
    }
  }
}

function parse<T>(value: string | null | undefined): T | undefined {
  if (!value) return undefined;
  try {
    return JSON.parse(value) as T;
  } catch {
    return undefined;
  }
}
