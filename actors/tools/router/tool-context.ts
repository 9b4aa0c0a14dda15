import type { Principal } from '../../../schemas/auth';
import type { RelatedRefs } from '../../../schemas/messages/tools';
import type { Services } from '../../../src/boot/services';
import type { WorkScope } from '../../../src/boot/work-aborter';
import type { Logger } from '../../../src/logging/logger';
import { isStableEnvelopeId } from '../../../src/kernel';
import type { ToolAgent, ToolCallIdentity, ToolContext, ToolProgress } from './tool-declaration';

/** How long the kernel answers a duplicate of a keyed call from its record (docs/kernel.md). */
const STABLE_CALL_RETRIES_MS = 10 * 60_000;
/** Clocks of two nodes may differ a little: a redelivery is judged by the receiver's clock. */
const DEADLINE_MARGIN_MS = 60_000;

/**
 * The `ctx` of one tool call. Its `signal` is the call's signal registered with the process's
 * work registry (`services.work.track`), so that the panic button (`work.abortAll`) stops the call.
 *
 * Making that signal costs two AbortControllers, the deadline timer and a registry entry per call.
 * A call whose tool declares `abortable: false` (one quick cache command that never reads its
 * signal) gets them only if it reads `signal` after all (`lazy`); every other call gets them before
 * its tool starts, as a call that reads its signal late must still see an abort issued earlier.
 */
export class ToolCallContext implements ToolContext {
  // Own properties only when given (`declare`: no field emitted), like the object literal before.
  declare readonly executionId?: string;
  declare readonly related?: RelatedRefs;
  /** Set by the agent when the caller follows the call's progress (tool-declaration.ts). */
  progress?: (update: ToolProgress) => void;
  private tracked?: { readonly signal: AbortSignal; release(): void };
  private madeSignal?: AbortSignal;
  private released = false;

  constructor(
    readonly principal: Principal,
    readonly agent: ToolAgent,
    readonly services: Services,
    private readonly actor: {
      readonly signal: AbortSignal;
      readonly logger: Logger;
      /** The envelope of the turn (absent in tests that make a context by hand). */
      readonly envelope?: { readonly id: string; readonly deadline: number };
    },
    private readonly scope: WorkScope,
    lazy: boolean,
    executionId?: string,
    related?: RelatedRefs,
  ) {
    if (executionId) (this as { executionId?: string }).executionId = executionId;
    if (related) (this as { related?: RelatedRefs }).related = related;
    if (!lazy) void this.signal;
  }

  get logger(): Logger {
    return this.actor.logger;
  }

  /**
   * The envelope's id. Another run of it comes before its deadline (the kernel drops a message
   * past it), or, for a keyed call (a stable id), while the kernel remembers handled ids.
   */
  get call(): ToolCallIdentity | undefined {
    const envelope = this.actor.envelope;
    if (!envelope) return undefined;
    const retriesForMs = isStableEnvelopeId(envelope.id)
      ? STABLE_CALL_RETRIES_MS
      : Math.max(1000, envelope.deadline - Date.now() + DEADLINE_MARGIN_MS);
    return { id: envelope.id, retriesForMs };
  }

  get signal(): AbortSignal {
    if (this.madeSignal) return this.madeSignal;
    const own = this.actor.signal;
    // After the call ended there is nothing left to stop: no registration that nobody releases.
    this.tracked = this.released ? undefined : this.services.work?.track(this.scope, own);
    this.madeSignal = this.tracked ? this.tracked.signal : own;
    return this.madeSignal;
  }

  /** The call is over: forget its registration (idempotent). */
  release(): void {
    this.released = true;
    this.tracked?.release();
  }
}
