import type { z } from 'zod';
import type { Effect, ExecutionDocument, LogLevel } from '../../schemas/documents/execution';
import type { StepOutcome } from '../../schemas/messages/executions';
import type { LogView } from '../../schemas/http/executions';
import type { InvokedByType, RelatedRefs } from '../../schemas/messages/tools';
import type { Services } from '../../src/boot/services';
import type { Logger } from '../../src/logging/logger';

/** Who makes a step's tool call, for the route records (default: a workflow). */
export interface CallToolOptions {
  readonly invokedByType?: InvokedByType;
  readonly related?: RelatedRefs;
}

/** Default time one step may take before its signal aborts (DEADLINE_EXCEEDED), in ms. */
export const DEFAULT_STEP_TIMEOUT_MS = 10 * 60_000;

/** What a step sees (docs/executions.md, "Adding an execution type"). */
export interface StepContext<I = unknown> {
  readonly executionId: string;
  /** The execution as stored when the step started (internal: ids here are never to be returned). */
  readonly execution: Readonly<ExecutionDocument>;
  /** The runner's input, parsed by its schema. */
  readonly input: I;
  /** 0-based index of this step. */
  readonly index: number;
  /** 1 on the first run of this step; more after a retry. */
  readonly attempt: number;
  /** Aborts on panic (and `work.abortAll` of the workspace), shutdown, or the step's deadline. */
  readonly signal: AbortSignal;
  readonly services: Services;
  readonly logger: Logger;
  /**
   * Sends a live item (e.g. a piece of a model's reply) to the request that started this step with
   * `execution.createAndFollow`, on its stream only (not stored, not broadcast); a no-op otherwise.
   */
  emit(item: unknown): void;
  /** Appends lines to the execution's log (numbered, streamed to watchers, secrets redacted). */
  log(level: LogLevel, message: string): Promise<LogView[]>;
  /**
   * Calls a tool through the tool router as the execution's owner (its agent, or the account's
   * default agent), `invokedByType: 'workflow'` unless `options` say who calls (a skill's
   * capability: `skill`, with `related.skills`), with this execution's id: the same checks as
   * `/mcp` (allowedTools, panic lockdown, rate limit) and route records. Rejects on abort.
   */
  callTool(tool: string, input: Record<string, unknown>, options?: CallToolOptions): Promise<unknown>;
}

/**
 * The work of one execution type. Steps run one at a time, outside the execution actor's turn;
 * between two steps the actor checks pause and cancel (a step boundary). A step resolves what it
 * did (`effects` are what rollback undoes, by kind) or rejects (the execution FAILS at that step;
 * a retry runs that step again). Register one per type: `services.executions.runners.register(runner)`.
 */
export interface StepRunner<I = unknown> {
  /** Upper case, e.g. CHAT_EXECUTION: the execution's `type`. */
  readonly type: string;
  /** Checks the input at creation (VALIDATION_ERROR when it fails) and before each step. */
  readonly input: z.ZodType<I>;
  /** Number of steps, when known from the input; else the runner ends with `last: true`. */
  totalSteps?(input: I): number | null;
  /** Name of step `index` before it runs (default `Step <n>`); a step may rename itself in its outcome. */
  stepName?(input: I, index: number): string;
  /** Deadline of one step in ms. Default DEFAULT_STEP_TIMEOUT_MS. */
  readonly stepTimeoutMs?: number;
  /** Runs step `ctx.index`. Respect `ctx.signal`. */
  step(ctx: StepContext<I>): Promise<StepOutcome>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyStepRunner = StepRunner<any>;

/** The execution types this process can run. */
export class StepRunners {
  private readonly runners = new Map<string, AnyStepRunner>();

  register(runner: AnyStepRunner): this {
    if (!/^[A-Z][A-Z0-9_]{0,63}$/.test(runner.type)) {
      throw new Error(`step runner type "${runner.type}" must be upper case (A-Z, 0-9, _)`);
    }
    if (this.runners.has(runner.type)) throw new Error(`step runner ${runner.type} is already registered`);
    this.runners.set(runner.type, runner);
    return this;
  }

  get(type: string): AnyStepRunner | undefined {
    return this.runners.get(type);
  }

  types(): string[] {
    return [...this.runners.keys()].sort();
  }
}

/** What an undoer sees. */
export interface UndoContext {
  readonly execution: Readonly<ExecutionDocument>;
  readonly services: Services;
  readonly signal: AbortSignal;
  /**
   * State shared by the undoers during one rollback (e.g. the version a path reached when an
   * earlier effect on it was undone). Key it by your kind.
   */
  readonly scratch: Map<string, unknown>;
}

/**
 * Undoes effects of one kind (`file`, `mem_set`, …). Resolves when the effect is undone (or was
 * already); rejects with an AppError whose message says why it cannot be (it is reported in
 * `notUndone`). Later domains register theirs: `services.executions.undoers.register(undoer)`.
 */
export interface EffectUndoer {
  readonly kind: string;
  undo(effect: Effect, ctx: UndoContext): Promise<void>;
}

export class EffectUndoers {
  private readonly undoers = new Map<string, EffectUndoer>();

  register(undoer: EffectUndoer): this {
    if (this.undoers.has(undoer.kind)) throw new Error(`effect undoer ${undoer.kind} is already registered`);
    this.undoers.set(undoer.kind, undoer);
    return this;
  }

  get(kind: string): EffectUndoer | undefined {
    return this.undoers.get(kind);
  }

  kinds(): string[] {
    return [...this.undoers.keys()].sort();
  }
}
