import type { Logger } from '../logging/logger';
import type { QueueStat, Transport, TransportStatus } from '../transport/transport';
import type { AnyActorDefinition } from './actor-definition';
import type { DedupeStore } from './dedupe-store';
import type { SystemPhase } from './kernel-runtime';
import type { ActorSystemApi } from './kernel.types';
import type { SupervisionPolicy } from './supervision';

/** Options of `createActorSystem`. */
export interface ActorSystemOptions {
  transport: Transport;
  /** This node's id; replies come back to its reply queue. Default (and must equal) `transport.nodeId`. */
  nodeId?: string;
  /** Default `silentLogger`. */
  logger?: Logger;
  /** Deadline of `ask`/`tell` without `timeoutMs`, in ms. Default 15000 (config REQUEST_TIMEOUT_MS). */
  defaultTimeoutMs?: number;
  /** Deadline of `stream` without `timeoutMs`, in ms (streams may be long). Default 300000. */
  streamTimeoutMs?: number;
  /** An actor idle this long is passivated, in ms. Default 60000 (config ACTOR_IDLE_MS). */
  idleMs?: number;
  /** Record of handled envelope ids. Default: a `MemoryDedupeStore` with its defaults. */
  dedupe?: DedupeStore;
  /** System-wide supervision defaults; each definition may override. Default `DEFAULT_SUPERVISION`. */
  supervision?: Partial<SupervisionPolicy>;
}

/** What `status()` reports (health checks, operators). */
export interface ActorSystemStatus {
  nodeId: string;
  state: SystemPhase;
  transport: TransportStatus;
  /** Actor kinds this node hosts. */
  kinds: string[];
  /** Actors in memory. */
  actors: number;
  /** Deliveries accepted and not yet acknowledged (queued in mailboxes or in their turn). */
  inFlight: number;
  /** Deferred works still running. */
  deferred: number;
  /** Requests of this node waiting for a reply. */
  pendingRequests: number;
}

/** The actor system of one node: the public API plus its life cycle. */
export interface ActorSystem extends ActorSystemApi {
  /** Hosts an actor kind on this node: consumes its queue (now if started, else at `start`). */
  register(definition: AnyActorDefinition): Promise<void>;
  /** Starts the transport, listens to replies and broadcasts, consumes the registered kinds. */
  start(): Promise<void>;
  /**
   * Graceful stop: stops taking new messages (they go back to the queue), lets turns in flight and
   * deferred work finish, passivates the actors, then closes the transport, all within `graceMs`
   * (default 10000). Requests still waiting for a reply reject with UNAVAILABLE.
   */
  stop(graceMs?: number): Promise<void>;
  status(): ActorSystemStatus;
  /**
   * Turns concluded on this node since it started, per hosted kind and outcome (metrics): `ok`,
   * `error` (a domain error, the caller's answer), `failed` (a defect, a deadline, retries
   * exhausted) or `dropped` (cancelled, past its deadline, or handed back while stopping).
   */
  turnCounts(): Record<string, TurnCounts>;
  /** The command queues of these kinds (depth, consumers); undefined without shared queues (in-process). */
  queueStats(kinds: readonly string[]): Promise<QueueStat[] | undefined>;
}

export type TurnOutcome = 'ok' | 'error' | 'failed' | 'dropped';
export type TurnCounts = Record<TurnOutcome, number>;
