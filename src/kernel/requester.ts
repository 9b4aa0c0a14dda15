import { Observable } from 'rxjs';
import type { Envelope } from '../../schemas/envelope';
import { AppError, isAppError, withMayHaveRun } from '../../schemas/errors';
import type { Logger } from '../logging/logger';
import { telemetry } from '../telemetry/tracing';
import type { Transport } from '../transport/transport';
import { assertAddress, assertType, BROADCAST_ADDRESS, CANCEL_TYPE, readReplyBody } from './envelopes';
import type { RequestOptions } from './kernel.types';
import { PendingAsk, PendingStream, PendingTable, type PendingEntry } from './pending-requests';
import { workCounts } from './work-counters';

/** What the requester needs from its system. */
export interface RequesterDeps {
  readonly transport: Transport;
  readonly nodeId: string;
  readonly logger: Logger;
  readonly nextId: () => string;
  readonly defaultTimeoutMs: number;
  readonly streamTimeoutMs: number;
  /** Throws UNAVAILABLE when the system does not take requests (not started, stopped). */
  assertAccepting(): void;
}

/**
 * The caller side of the kernel: builds command envelopes, keeps the pending-request table, reads
 * this node's reply queue, and publishes broadcasts (cancels included).
 */
export class Requester {
  private readonly pending = new PendingTable();

  constructor(private readonly deps: RequesterDeps) {}

  /** Requests of this node waiting for a reply. */
  get pendingCount(): number {
    return this.pending.size;
  }

  request<T>(from: string | undefined, to: string, type: string, body: unknown, options?: RequestOptions) {
    return new Promise<T>((resolve, reject) => {
      this.assertAccepting();
      const timeoutMs = options?.timeoutMs ?? this.deps.defaultTimeoutMs;
      const envelope = this.envelope(from, to, type, body, options, timeoutMs, true);
      const entry = new PendingAsk(envelope.id, resolve, reject);
      this.pending.add(entry, timeoutMs);
      this.sendFor(entry, envelope, options);
    });
  }

  async command(from: string | undefined, to: string, type: string, body: unknown, options?: RequestOptions) {
    this.assertAccepting();
    const timeoutMs = options?.timeoutMs ?? this.deps.defaultTimeoutMs;
    await this.send(this.envelope(from, to, type, body, options, timeoutMs, false), options);
  }

  /** A cold Observable: each subscription sends one request; unsubscribing early cancels it. */
  stream<T>(to: string, type: string, body: unknown, options?: RequestOptions): Observable<T> {
    return new Observable<T>((subscriber) => {
      const timeoutMs = options?.timeoutMs ?? this.deps.streamTimeoutMs;
      let envelope: Envelope;
      try {
        this.assertAccepting();
        envelope = this.envelope(undefined, to, type, body, options, timeoutMs, true);
      } catch (error) {
        subscriber.error(error);
        return;
      }
      const entry = new PendingStream(envelope.id, subscriber as never);
      this.pending.add(entry, timeoutMs);
      this.sendFor(entry, envelope, options);
      return () => {
        if (entry.done) return;
        entry.done = true;
        this.pending.remove(entry);
        this.cancel(envelope.id);
      };
    });
  }

  async broadcast(type: string, body: unknown, keys?: readonly string[]): Promise<void> {
    assertType(type);
    await this.publish(this.broadcastEnvelope(type, undefined, body), keys);
  }

  /** The listener of this node's reply queue. */
  readonly onReply = (raw: Envelope): void => {
    // Hot path: a field check and a hand-written body check, no schema copy of our own replies.
    const correlationId = (raw as Partial<Envelope> | undefined)?.correlationId;
    if (typeof correlationId !== 'string') return;
    const body = readReplyBody(raw.body);
    if (!body) {
      this.deps.logger.warn({ correlationId }, 'kernel: malformed reply ignored');
      return;
    }
    this.pending.dispatch(correlationId, body);
  };

  /** Ends every waiting request with `error` (the system stopped). */
  failAll(error: AppError): void {
    this.pending.failAll(error);
  }

  private envelope(
    from: string | undefined,
    to: string,
    type: string,
    body: unknown,
    options: RequestOptions | undefined,
    timeoutMs: number,
    withReply: boolean,
  ): Envelope {
    assertAddress(to);
    assertType(type);
    return {
      v: 1,
      id: options?.id ?? this.deps.nextId(),
      type,
      to,
      from,
      replyTo: withReply ? this.deps.nodeId : undefined,
      deadline: Date.now() + timeoutMs,
      attempt: 1,
      auth: options?.auth,
      body,
    };
  }

  private broadcastEnvelope(type: string, correlationId: string | undefined, body: unknown): Envelope {
    return {
      v: 1,
      id: this.deps.nextId(),
      type,
      to: BROADCAST_ADDRESS,
      from: this.deps.nodeId,
      correlationId,
      deadline: Date.now() + this.deps.defaultTimeoutMs,
      attempt: 1,
      body,
    };
  }

  /** A system that takes no requests publishes nothing: its refusal says the work did not run. */
  private assertAccepting(): void {
    try {
      this.deps.assertAccepting();
    } catch (error) {
      throw isAppError(error) ? withMayHaveRun(error, false) : error;
    }
  }

  /** Tells every node that nobody waits for request `id` any more. */
  private cancel(id: string): void {
    this.publish(this.broadcastEnvelope(CANCEL_TYPE, id, {})).then(undefined, (err: unknown) =>
      this.deps.logger.warn({ err, envelopeId: id }, 'kernel: cancel broadcast failed'),
    );
  }

  /** Sends the command of a pending request; a failure of the transport fails it with UNAVAILABLE. */
  private sendFor(entry: PendingEntry, envelope: Envelope, options: RequestOptions | undefined): void {
    let sent: Promise<void>;
    workCounts.commands += 1;
    try {
      sent = this.transmit(envelope, options);
    } catch (error) {
      sent = Promise.reject(error);
    }
    sent.then(undefined, (error: unknown) => this.pending.fail(entry, toUnavailable(error)));
  }

  /**
   * Hands a command to the transport. With tracing on, inside a producer span (the hop through
   * the broker) whose context the envelope carries to the turn that handles it.
   */
  private transmit(envelope: Envelope, options: RequestOptions | undefined): Promise<void> {
    const tracer = telemetry.tracer;
    if (!tracer) return this.deps.transport.send(envelope, options?.alone ? ALONE : undefined);
    const kind = envelope.to.slice(0, envelope.to.indexOf(':'));
    return tracer.inSpan(
      `send ${envelope.type}`,
      {
        kind: 'producer',
        attributes: {
          'messaging.system': this.deps.transport.name === 'amqp' ? 'rabbitmq' : 'in-process',
          'messaging.destination.name': kind,
          'messaging.operation.type': 'send',
          'messaging.message.id': envelope.id,
          'node.id': this.deps.nodeId,
        },
      },
      (span) => {
        envelope.traceparent = span.traceparent;
        return this.deps.transport.send(envelope, options?.alone ? ALONE : undefined);
      },
    );
  }

  /** Sends a command; any failure of the transport becomes UNAVAILABLE. */
  private async send(envelope: Envelope, options: RequestOptions | undefined): Promise<void> {
    workCounts.commands += 1;
    try {
      await this.transmit(envelope, options);
    } catch (error) {
      throw toUnavailable(error);
    }
  }

  private async publish(envelope: Envelope, keys?: readonly string[]): Promise<void> {
    workCounts.broadcasts += 1;
    try {
      await this.deps.transport.broadcast(envelope, keys);
    } catch (error) {
      throw toUnavailable(error);
    }
  }
}

const ALONE = Object.freeze({ alone: true });

/**
 * A failed send as UNAVAILABLE. The transport marks a failure that came after the command left
 * (`mayHaveRun: true`, e.g. a publisher confirm that never came); any other refusal was before
 * publishing, so the work did not run.
 */
function toUnavailable(error: unknown): AppError {
  if (isAppError(error)) return withMayHaveRun(error, false);
  return new AppError('UNAVAILABLE', 'The transport is unavailable', { mayHaveRun: false }, { cause: error });
}
