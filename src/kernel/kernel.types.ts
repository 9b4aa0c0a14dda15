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
  /** Publishes an event to every node. */
  broadcast(type: string, body: unknown): Promise<void>;
  /** Listens to broadcasts of one type on this node. Returns an unsubscribe function. */
  onBroadcast(type: string, listener: (body: unknown, envelope: Envelope) => void): () => void;
}

/** Message schemas of an actor kind: one zod schema per accepted message type. */
export type MessageSchemas = Record<string, z.ZodType>;
