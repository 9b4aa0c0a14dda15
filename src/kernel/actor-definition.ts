import type { z } from 'zod';
import { EnvelopeSchema, type Envelope } from '../../schemas/envelope';
import type { Logger } from '../logging/logger';
import type { ActorSystemApi, EnvelopeAuth, MessageSchemas, RequestOptions } from './kernel.types';
import type { SupervisionPolicy } from './supervision';

/** What `activate` and `passivate` see. */
export interface ActivationContext {
  /** Actor kind, e.g. `execution`. */
  readonly kind: string;
  /** Actor id, the part of the address after the colon. */
  readonly id: string;
  /** `kind:id`. */
  readonly address: string;
  readonly system: ActorSystemApi;
  readonly logger: Logger;
}

/** A handle on one actor, for messaging it through the transport. */
export interface ActorRef {
  readonly address: string;
  tell(type: string, body: unknown, options?: RequestOptions): Promise<void>;
  /**
   * Never await an ask to yourself inside a turn: the message waits behind the turn that awaits
   * it and the ask ends in DEADLINE_EXCEEDED.
   */
  ask<T = unknown>(type: string, body: unknown, options?: RequestOptions): Promise<T>;
}

/** Marker returned by `ctx.defer`: the reply comes from the deferred work. */
export interface Deferred {
  readonly deferred: true;
}

/** Slow work handed to `ctx.defer`: a promise, or a function the kernel may call again on a transient error. */
export type DeferredWork<T = unknown> = Promise<T> | ((signal: AbortSignal) => Promise<T>);

/** What a handler sees during its turn (and its deferred work afterwards). */
export interface ActorContext<S> extends ActivationContext {
  /** Whatever `activate` returned. Assign to replace it (it lives until passivation or restart). */
  state: S;
  /** The envelope being handled (body as received; the handler gets the parsed body). */
  readonly envelope: Envelope;
  readonly type: string;
  readonly auth: EnvelopeAuth | undefined;
  /** 1 on the first try; incremented on each retry after a transient error. */
  readonly attempt: number;
  /** Epoch ms after which the caller has given up. */
  readonly deadline: number;
  /** Aborts when the caller cancels (unsubscribes from a stream) or the deadline passes. */
  readonly signal: AbortSignal;
  /** This actor, for messages to itself (they queue behind the current turn). */
  readonly self: ActorRef;
  /**
   * Emits one stream item to the caller (numbered from 0). After at least one item, the end of
   * the handler (or of its deferred work) completes the stream and its return value is ignored.
   * A no-op once the caller has cancelled.
   */
  next(value: unknown): void;
  /**
   * Ends the turn now and replies when `work` settles: the handler does what must be ordered
   * (authorize, count, write) within its turn and lets slow work (tool call, HTTP, sandbox) finish
   * outside it, so the mailbox moves on to the next message at once. Return its result:
   * `return ctx.defer(work)`.
   *
   * The message is acknowledged when the turn ends, before the deferred reply is sent: a crash in
   * between loses the reply (the caller times out), never the state change made in the turn.
   * A function is retried on transient errors within the deadline; a promise is not. A defect in
   * deferred work is replied as INTERNAL_ERROR and logged, without restarting the actor (its
   * turn is already over). Call at most once per message.
   */
  defer<T>(work: DeferredWork<T>): Deferred;
}

/** A message handler: gets the parsed body; its result (or a thrown AppError) is the reply. */
export type MessageHandler<S, B> = (ctx: ActorContext<S>, body: B) => unknown;

/** The parts of an actor kind, as given to `defineActor`. */
export interface ActorDefinitionInput<M extends MessageSchemas, S> {
  /** Lower-case kind, the part of the address before the colon; names the queue. */
  kind: string;
  /** One zod schema per accepted message type (`<domain>.<verb>`). */
  messages: M;
  /**
   * Loads the actor's state on its first message (and after a restart). Whatever it returns is
   * `ctx.state`. Default: state `undefined`.
   */
  activate?: (ctx: ActivationContext) => S | Promise<S>;
  /** Called when the actor is idle for `idleMs` or the system stops (not after a defect). */
  passivate?: (ctx: ActivationContext, state: S) => void | Promise<void>;
  /** One handler per message type, with the body typed from its schema. */
  handlers: { [T in keyof M]: MessageHandler<S, z.output<M[T]>> };
  /** Overrides of the system's supervision policy for this kind. */
  supervision?: Partial<SupervisionPolicy>;
  /**
   * Where duplicates of this kind's messages are looked for. `'local'` (default): in this node's
   * record, and in the shared one only for messages the broker redelivered. `'shared'`: every
   * message is claimed in the shared record (one round trip to the cache per message when the
   * system has a shared dedupe store), so that two copies of one id published by a caller (a
   * client retrying with the same id) are handled once even when they land on different nodes.
   * See docs/kernel.md, Duplicates.
   */
  dedupe?: 'local' | 'shared';
}

/** A checked actor definition, ready for `system.register`. */
export interface ActorDefinition<M extends MessageSchemas = MessageSchemas, S = unknown> extends Readonly<
  ActorDefinitionInput<M, S>
> {
  readonly messageTypes: readonly string[];
}

/** Any definition, whatever its messages and state (what the system stores). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyActorDefinition = ActorDefinition<any, any>;

const KIND_PATTERN = /^[a-z][a-z0-9-]*$/;
const TypeSchema = EnvelopeSchema.shape.type;

/**
 * Declares an actor kind. Checks the names up front (a typo fails at boot, not on the first
 * message) and that every message type has a handler.
 *
 * @example
 * const counter = defineActor({
 *   kind: 'counter',
 *   messages: { 'counter.add': z.object({ n: z.number().int() }), 'counter.get': z.object({}) },
 *   activate: async (ctx) => ({ total: await repo.load(ctx.id) }),
 *   handlers: {
 *     'counter.add': (ctx, { n }) => (ctx.state.total += n),
 *     'counter.get': (ctx) => ctx.state.total,
 *   },
 * });
 */
export function defineActor<const M extends MessageSchemas, S = undefined>(
  input: ActorDefinitionInput<M, S>,
): ActorDefinition<M, S> {
  if (!KIND_PATTERN.test(input.kind)) {
    throw new Error(`actor kind "${input.kind}" must match ${KIND_PATTERN}`);
  }
  if (input.dedupe !== undefined && input.dedupe !== 'local' && input.dedupe !== 'shared') {
    throw new Error(`actor "${input.kind}": dedupe must be 'local' or 'shared'`);
  }
  const messageTypes = Object.keys(input.messages);
  for (const type of messageTypes) {
    if (!TypeSchema.safeParse(type).success)
      throw new Error(`message type "${type}" must be "<domain>.<verb>"`);
    if (type.startsWith('kernel.'))
      throw new Error(`message type "${type}": the kernel.* types are reserved`);
    if (typeof (input.handlers as Record<string, unknown>)[type] !== 'function') {
      throw new Error(`actor "${input.kind}" has no handler for "${type}"`);
    }
  }
  for (const type of Object.keys(input.handlers)) {
    if (!Object.hasOwn(input.messages, type))
      throw new Error(`actor "${input.kind}": handler "${type}" has no schema`);
  }
  return Object.freeze({ ...input, messageTypes: Object.freeze(messageTypes) });
}
