import type { Envelope, ReplyBody } from '../../schemas/envelope';
import type { Logger } from '../logging/logger';
import type { Transport } from '../transport/transport';
import type { DedupeStore } from './dedupe-store';
import type { Invocation } from './invocation';
import type { ActorSystemApi, RequestOptions } from './kernel.types';
import type { RestartBudget } from './restart-budget';

/** Life cycle of an actor system. */
export type SystemPhase = 'created' | 'running' | 'stopping' | 'closing' | 'stopped';

/**
 * What the actor hosts need from their system (kept as an interface so hosts and the system do
 * not import each other).
 */
export interface KernelRuntime {
  readonly nodeId: string;
  readonly transport: Transport;
  readonly logger: Logger;
  readonly dedupe: DedupeStore;
  readonly api: ActorSystemApi;
  readonly restarts: RestartBudget;
  /** Invocations accepted by this node and not finished, by envelope id (cancel, duplicates). */
  readonly invocations: Map<string, Invocation>;
  readonly nextId: () => string;
  phase(): SystemPhase;
  /** Sends a command with `from` set (messages from an actor). */
  send(
    from: string,
    to: string,
    type: string,
    body: unknown,
    options: RequestOptions | undefined,
    ask: false,
  ): Promise<void>;
  send<T>(
    from: string,
    to: string,
    type: string,
    body: unknown,
    options: RequestOptions | undefined,
    ask: true,
  ): Promise<T>;
  /** Sends a reply body to the requester (best effort; nothing when it has no `replyTo`). */
  reply(request: ReplyTarget, body: ReplyBody): void;
  /** A delay that `stop` cuts short (transient retries must not hold a stopping node). */
  sleep(ms: number): Promise<void>;
}

/** The parts of a request envelope a reply needs. */
export type ReplyTarget = Pick<Envelope, 'id' | 'replyTo' | 'from' | 'deadline'>;
