import type { Observable } from 'rxjs';
import type { z } from 'zod';
import type { Envelope } from '../../schemas/envelope';

/** Who asked: copied from the authenticated request into the envelope. */
export type EnvelopeAuth = NonNullable<Envelope['auth']>;

/** Options of one request to an actor. */
export interface RequestOptions {
  /** Milliseconds until the deadline (default: config REQUEST_TIMEOUT_MS). */
  timeoutMs?: number;
  auth?: EnvelopeAuth;
  /** Envelope id; give a stable one to make a retried request idempotent. Generated otherwise. */
  id?: string;
  /**
   * Send the command as a message of its own (over AMQP: never in a batch with other commands),
   * so heavy work spreads over the workers one request at a time. Default false.
   */
  alone?: boolean;
}

/**
 * The actor system as the rest of the code sees it (front door, other actors, main).
 * Addresses are `kind:id`. Errors reject with AppError (codes from schemas/errors.ts):
 * UNAVAILABLE when the transport is down, DEADLINE_EXCEEDED past the deadline, the handler's
 * domain error otherwise.
 */
export interface ActorSystemApi {
  readonly nodeId: string;
  /** Request/reply: resolves with the handler's reply. */
  ask<T = unknown>(to: string, type: string, body: unknown, options?: RequestOptions): Promise<T>;
  /** Fire and forget (resolves when the transport accepted the command). */
  tell(to: string, type: string, body: unknown, options?: RequestOptions): Promise<void>;
  /**
   * A stream of replies. Unsubscribing before it completes cancels the work's interest: the
   * handler's AbortSignal fires wherever it runs.
   */
  stream<T = unknown>(to: string, type: string, body: unknown, options?: RequestOptions): Observable<T>;
  /**
   * Publishes an event to every node. `keys` name what it is about (the executions whose events it
   * carries, say): a node where every listener of `type` said which keys it wants (`onBroadcast`'s
   * `wants`) and none wants any of these skips it unread (docs/kernel.md, "Keyed broadcasts").
   */
  broadcast(type: string, body: unknown, options?: BroadcastOptions): Promise<void>;
  /**
   * Listens to broadcasts of one type on this node. Returns an unsubscribe function. With `wants`,
   * a keyed broadcast none of whose keys it wants may not reach the listener (over AMQP such a
   * message is dropped before it is parsed); one that reaches it still carries everything it was
   * sent with, so the listener picks its own part as before.
   */
  onBroadcast(
    type: string,
    listener: (body: unknown, envelope: Envelope) => void,
    options?: BroadcastListenOptions,
  ): () => void;
}

/** Options of `broadcast`. */
export interface BroadcastOptions {
  /** What the broadcast is about, for the receivers' `wants` (at most a few hundred short strings). */
  keys?: readonly string[];
}

/** Options of `onBroadcast`. */
export interface BroadcastListenOptions {
  /** Whether this node wants a broadcast about `key`, asked when one arrives. */
  wants?: (key: string) => boolean;
}

/** Message schemas of an actor kind: one zod schema per accepted message type. */
export type MessageSchemas = Record<string, z.ZodType>;
