import type { Observable } from 'rxjs';
import type { Envelope, ReplyBody } from '../../schemas/envelope';
import { errors } from '../../schemas/errors';
import { silentLogger, type Logger } from '../logging/logger';
import type { BroadcastFilter, QueueStat, Transport } from '../transport/transport';
import type { AnyActorDefinition } from './actor-definition';
import { ActorHost } from './actor-host';
import type { ActorSystem, ActorSystemOptions, ActorSystemStatus, TurnCounts } from './actor-system.types';
import type { DedupeStore } from './dedupe-store';
import { CANCEL_TYPE, parseEnvelope, REPLY_TYPE } from './envelopes';
import { createIdGenerator } from './ids';
import type { Invocation } from './invocation';
import type { KernelRuntime, ReplyTarget, SystemPhase } from './kernel-runtime';
import type {
  ActorSystemApi,
  BroadcastListenOptions,
  BroadcastOptions,
  RequestOptions,
} from './kernel.types';
import { MemoryDedupeStore } from './memory-dedupe-store';
import { Requester } from './requester';
import { RestartBudget } from './restart-budget';
import { DEFAULT_SUPERVISION, resolvePolicy, type SupervisionPolicy } from './supervision';
import { workCounts } from './work-counters';

export type {
  ActorSystem,
  ActorSystemOptions,
  ActorSystemStatus,
  TurnCounts,
  TurnOutcome,
} from './actor-system.types';

type BroadcastListener = (body: unknown, envelope: Envelope) => void;
/** A listener of one broadcast type, and which keys it wants (all, without `wants`). */
interface Listening {
  readonly listener: BroadcastListener;
  readonly wants?: (key: string) => boolean;
}

/** Creates the actor system of this node. */
export function createActorSystem(options: ActorSystemOptions): ActorSystem {
  return new KernelActorSystem(options);
}

/**
 * One node's actor system: the hosts of the kinds it serves, the requester side, broadcasts, the
 * idle sweeper and the life cycle. Also the `KernelRuntime` its hosts use.
 */
class KernelActorSystem implements ActorSystem, KernelRuntime {
  readonly nodeId: string;
  readonly transport: Transport;
  readonly logger: Logger;
  readonly dedupe: DedupeStore;
  readonly restarts = new RestartBudget();
  readonly invocations = new Map<string, Invocation>();
  readonly nextId = createIdGenerator();
  private state: SystemPhase = 'created';
  private readonly hosts = new Map<string, ActorHost>();
  private readonly requester: Requester;
  private readonly listeners = new Map<string, Set<Listening>>();
  private readonly sleepers = new Set<() => void>();
  private readonly policy: Readonly<SupervisionPolicy>;
  private readonly idleMs: number;
  private sweeper?: NodeJS.Timeout;
  private stopping?: Promise<void>;

  constructor(options: ActorSystemOptions) {
    this.transport = options.transport;
    this.nodeId = options.nodeId ?? options.transport.nodeId;
    if (this.nodeId !== options.transport.nodeId) {
      throw new Error(`nodeId "${this.nodeId}" differs from the transport's "${options.transport.nodeId}"`);
    }
    this.logger = (options.logger ?? silentLogger).child({ component: 'kernel', nodeId: this.nodeId });
    this.dedupe = options.dedupe ?? new MemoryDedupeStore();
    this.policy = resolvePolicy(DEFAULT_SUPERVISION, options.supervision);
    this.idleMs = options.idleMs ?? 60_000;
    this.requester = new Requester({
      transport: this.transport,
      nodeId: this.nodeId,
      logger: this.logger,
      nextId: this.nextId,
      defaultTimeoutMs: options.defaultTimeoutMs ?? 15_000,
      streamTimeoutMs: options.streamTimeoutMs ?? 300_000,
      assertAccepting: () => this.assertAccepting(),
    });
  }

  get api(): ActorSystemApi {
    return this;
  }

  phase(): SystemPhase {
    return this.state;
  }

  async register(definition: AnyActorDefinition): Promise<void> {
    if (this.hosts.has(definition.kind))
      throw new Error(`actor kind "${definition.kind}" is already registered`);
    if (this.state !== 'created' && this.state !== 'running') throw new Error('the actor system is stopping');
    const host = new ActorHost(definition, resolvePolicy(this.policy, definition.supervision), this);
    this.hosts.set(definition.kind, host);
    if (this.state === 'running') await this.transport.consume(host.kind, host.handle);
  }

  async start(): Promise<void> {
    if (this.state !== 'created') throw new Error(`the actor system cannot start from state "${this.state}"`);
    await this.transport.start();
    this.transport.onReply(this.requester.onReply);
    this.transport.onBroadcast(this.onBroadcastEnvelope);
    this.transport.filterBroadcasts?.(this.wantsBroadcast);
    this.state = 'running';
    for (const host of this.hosts.values()) await this.transport.consume(host.kind, host.handle);
    const sweepMs = Math.min(5000, Math.max(5, Math.floor(this.idleMs / 4)));
    this.sweeper = setInterval(() => this.sweep(), sweepMs).unref();
  }

  stop(graceMs = 10_000): Promise<void> {
    return (this.stopping ??= this.shutdown(graceMs));
  }

  status(): ActorSystemStatus {
    let actors = 0;
    let inFlight = 0;
    let deferred = 0;
    for (const host of this.hosts.values()) {
      actors += host.actors;
      inFlight += host.inFlight;
      deferred += host.deferred;
    }
    return {
      nodeId: this.nodeId,
      state: this.state,
      transport: this.transport.status(),
      kinds: [...this.hosts.keys()],
      actors,
      inFlight,
      deferred,
      pendingRequests: this.requester.pendingCount,
    };
  }

  async queueStats(kinds: readonly string[]): Promise<QueueStat[] | undefined> {
    return this.transport.queueStats ? this.transport.queueStats(kinds) : undefined;
  }

  turnCounts(): Record<string, TurnCounts> {
    const out: Record<string, TurnCounts> = {};
    for (const [kind, host] of this.hosts) out[kind] = { ...host.turns };
    return out;
  }

  ask<T = unknown>(to: string, type: string, body: unknown, options?: RequestOptions): Promise<T> {
    return this.requester.request<T>(undefined, to, type, body, options);
  }

  tell(to: string, type: string, body: unknown, options?: RequestOptions): Promise<void> {
    return this.requester.command(undefined, to, type, body, options);
  }

  stream<T = unknown>(to: string, type: string, body: unknown, options?: RequestOptions): Observable<T> {
    return this.requester.stream<T>(to, type, body, options);
  }

  broadcast(type: string, body: unknown, options?: BroadcastOptions): Promise<void> {
    return this.requester.broadcast(type, body, options?.keys);
  }

  onBroadcast(type: string, listener: BroadcastListener, options?: BroadcastListenOptions): () => void {
    let set = this.listeners.get(type);
    if (!set) this.listeners.set(type, (set = new Set()));
    const listening: Listening = { listener, ...(options?.wants ? { wants: options.wants } : {}) };
    set.add(listening);
    return () => {
      set.delete(listening);
    };
  }

  // --- KernelRuntime -------------------------------------------------------------------------

  send<T>(
    from: string,
    to: string,
    type: string,
    body: unknown,
    options: RequestOptions | undefined,
    ask: boolean,
  ) {
    return (
      ask
        ? this.requester.request<T>(from, to, type, body, options)
        : this.requester.command(from, to, type, body, options)
    ) as never;
  }

  reply(target: ReplyTarget, body: ReplyBody): void {
    if (!target.replyTo) return;
    const envelope: Envelope = {
      v: 1,
      id: this.nextId(),
      type: REPLY_TYPE,
      to: target.from ?? target.replyTo,
      correlationId: target.id,
      deadline: target.deadline,
      attempt: 1,
      body,
    };
    workCounts.replies += 1;
    try {
      this.transport.reply(target.replyTo, envelope).then(undefined, this.onReplyError);
    } catch (error) {
      this.onReplyError(error);
    }
  }

  sleep(ms: number): Promise<void> {
    if (this.state !== 'running') return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }

  // --- internals -----------------------------------------------------------------------------

  private assertAccepting(): void {
    if (this.state !== 'running' && this.state !== 'stopping') {
      throw errors.unavailable(`The actor system is ${this.state === 'created' ? 'not started' : 'stopped'}`);
    }
  }

  private readonly onBroadcastEnvelope = (raw: Envelope): void => {
    const envelope = parseEnvelope(raw);
    if (!envelope) {
      this.logger.warn('kernel: malformed broadcast ignored');
      return;
    }
    if (envelope.type === CANCEL_TYPE) {
      if (envelope.correlationId) this.invocations.get(envelope.correlationId)?.cancel();
      return;
    }
    const set = this.listeners.get(envelope.type);
    if (!set) return;
    for (const { listener } of set) {
      try {
        listener(envelope.body, envelope);
      } catch (err) {
        this.logger.error({ err, type: envelope.type }, 'kernel: broadcast listener threw');
      }
    }
  };

  /**
   * Whether this node reads a keyed broadcast (docs/kernel.md, "Keyed broadcasts"): yes if a
   * listener of its type wants every key (no `wants`) or one of these keys. A broadcast no listener
   * here would use is then dropped unread: with the events of every execution going to every node,
   * each node parsed all of them to keep the few it watches.
   */
  private readonly wantsBroadcast: BroadcastFilter = (type, keys) => {
    const set = this.listeners.get(type);
    if (!set) return false;
    for (const { wants } of set) {
      if (!wants) return true;
      for (const key of keys) if (wants(key)) return true;
    }
    return false;
  };

  private readonly onReplyError = (err: unknown): void => {
    this.logger.warn({ err }, 'kernel: reply not sent');
  };

  private sweep(): void {
    const now = Date.now();
    for (const host of this.hosts.values()) host.sweep(this.idleMs, now);
    this.restarts.prune(now);
  }

  private async shutdown(graceMs: number): Promise<void> {
    if (this.state === 'created') {
      this.state = 'stopped';
      return;
    }
    const until = Date.now() + graceMs;
    this.state = 'stopping';
    // Transient retries waiting in a backoff give their message back to the queue instead.
    for (const wake of [...this.sleepers]) wake();
    const hosts = [...this.hosts.values()];
    await waitUntil(() => hosts.every((h) => h.idle), until);
    for (const host of hosts) host.passivateAll();
    await waitUntil(() => hosts.every((h) => h.idle && h.actors === 0), until);
    this.state = 'closing';
    // The transport stops consuming first, so the parked deliveries requeued below go elsewhere.
    const closing = this.transport.stop(Math.max(0, until - Date.now()));
    for (const host of hosts) host.releaseParked();
    try {
      await closing;
    } catch (err) {
      this.logger.warn({ err }, 'kernel: transport stop failed');
    }
    if (this.sweeper) clearInterval(this.sweeper);
    this.requester.failAll(errors.unavailable('The actor system stopped'));
    this.state = 'stopped';
  }
}

async function waitUntil(condition: () => boolean, until: number): Promise<void> {
  while (!condition() && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
