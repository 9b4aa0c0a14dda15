import type { Principal } from '../../schemas/auth';
import { EXECUTION_LIMITS, type Effect, type ExecutionDocument } from '../../schemas/documents/execution';
import { AppError, errors, isAppError } from '../../schemas/errors';
import type { StepOutcome } from '../../schemas/messages/executions';
import { AgentInvokeToolReplySchema } from '../../schemas/messages/tools';
import type { Services } from '../../src/boot/services';
import type { WorkAborter } from '../../src/boot/work-aborter';
import type { Logger } from '../../src/logging/logger';
import { defaultAgentIdOf } from '../tools/router/default-agent';
import type { StepLeases } from './execution-leases';
import type { ExecutionLogs } from './executions.repo';
import { DEFAULT_STEP_TIMEOUT_MS, type AnyStepRunner, type StepContext } from './step-runners';

/** How long a panic is remembered for steps that start late, in ms. */
const STOPPED_MEMORY_MS = 15 * 60_000;

/**
 * The steps in flight on this node, with their abort controllers: panic (and the deadline of a
 * step, and shutdown) abort them here. Each step is also tracked in the process's work registry
 * (`services.work`, by account and workspace), so `work.abortAll(reason, {workspaceId})` stops it
 * together with the tool calls, HTTP calls and connector calls of that workspace.
 */
export class StepWork {
  private readonly running = new Map<string, { controller: AbortController; release: () => void }>();
  /**
   * Executions stopped by panic (id → when): a step decided before that moment but not started
   * yet on this node (its `execution.step` was in flight) starts aborted.
   */
  private readonly stopped = new Map<string, { at: number; reason: AppError }>();

  constructor(private readonly work?: Pick<WorkAborter, 'track'>) {}

  /**
   * Registers the step of `executionId` now starting; its signal fires on abort or after
   * `timeoutMs`. Call `done` when the step is over.
   */
  begin(
    executionId: string,
    scope: { accountId: string; workspaceId: string },
    timeoutMs: number,
    decidedAt: Date = new Date(),
  ): { signal: AbortSignal; done: () => void } {
    this.running.get(executionId)?.controller.abort(errors.unavailable('Superseded by a newer step'));
    const controller = new AbortController();
    const stop = this.stopped.get(executionId);
    if (stop && stop.at >= decidedAt.getTime()) controller.abort(stop.reason);
    const timer = setTimeout(
      () => controller.abort(errors.deadline(`The step did not finish within ${timeoutMs} ms`)),
      timeoutMs,
    );
    timer.unref();
    const tracked = this.work?.track(scope, controller.signal);
    const entry = {
      controller,
      release: () => {
        clearTimeout(timer);
        tracked?.release();
      },
    };
    this.running.set(executionId, entry);
    return {
      // The tracked signal follows ours and also fires on a matching `work.abortAll`.
      signal: tracked ? tracked.signal : controller.signal,
      done: () => {
        entry.release();
        if (this.running.get(executionId) === entry) this.running.delete(executionId);
      },
    };
  }

  /**
   * Aborts the steps of these executions running on this node, and those decided before `at`
   * that start later (for STOPPED_MEMORY_MS); resolves how many were running.
   */
  abort(executionIds: Iterable<string>, reason: AppError, at: number = Date.now()): number {
    const now = Date.now();
    for (const [id, stop] of this.stopped) if (now - stop.at > STOPPED_MEMORY_MS) this.stopped.delete(id);
    let n = 0;
    for (const id of executionIds) {
      this.stopped.set(id, { at, reason });
      const entry = this.running.get(id);
      if (!entry || entry.controller.signal.aborted) continue;
      entry.controller.abort(reason);
      n += 1;
    }
    return n;
  }

  /** Aborts everything (shutdown). */
  abortAll(reason: AppError): number {
    return this.abort([...this.running.keys()], reason);
  }

  inFlight(): number {
    return this.running.size;
  }
}

/** The principal tools are called as: the creating agent, or the account (its default agent). */
export function runAsPrincipal(doc: ExecutionDocument): { agentId: string; principal: Principal } {
  const { runAs } = doc;
  const scopes = runAs.scopes ? { scopes: runAs.scopes } : {};
  if (runAs.subjectType === 'agent' && runAs.agentId) {
    return {
      agentId: runAs.agentId,
      principal: {
        subjectType: 'agent',
        accountId: runAs.accountId,
        agentId: runAs.agentId,
        via: 'bearer',
        ...scopes,
      },
    };
  }
  return {
    agentId: defaultAgentIdOf(runAs.accountId),
    principal: { subjectType: 'account', accountId: runAs.accountId, via: 'bearer', ...scopes },
  };
}

const jsonSize = (value: unknown) => {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
};

/** Bounds what a step reports: oversized outputs are replaced, oversized undo data dropped. */
export function boundOutcome(outcome: StepOutcome): StepOutcome {
  const bounded = (v: unknown) =>
    v === undefined || jsonSize(v) <= EXECUTION_LIMITS.maxJsonChars ? v : { truncated: true };
  const effects = (outcome.effects ?? []).map((e): Omit<Effect, 'undoneAt'> => {
    if (!e.undo || jsonSize(e.undo) <= EXECUTION_LIMITS.maxUndoChars) return e;
    const { undo: _dropped, ...rest } = e;
    return rest; // too large to keep: reported as not undoable by a rollback
  });
  return { ...outcome, effects, output: bounded(outcome.output), result: bounded(outcome.result) };
}

/** What running one step needs from the process. */
export interface StepDeps {
  services: Services;
  /** Where the step's `ctx.log` lines go (the execution's log; a buffer for a step run at once). */
  logs: Pick<ExecutionLogs, 'append'>;
  work: StepWork;
  logger: Logger;
  /** Renews the step's lease while it runs (absent: no renewal). */
  leases?: StepLeases;
}

/**
 * Runs step `index` of `doc` with its runner, outside the actor's turn. Resolves what the actor
 * is told: the outcome, or the error (and whether the signal stopped it).
 */
export async function runStep(
  deps: StepDeps,
  runner: AnyStepRunner,
  doc: ExecutionDocument,
  index: number,
  emit?: (item: unknown) => void,
): Promise<
  | { ok: true; outcome: StepOutcome }
  | { ok: false; error: { code: string; message: string }; aborted: boolean }
> {
  const timeoutMs = runner.stepTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS;
  const { signal, done } = deps.work.begin(
    doc._id,
    { accountId: doc.accountId, workspaceId: doc.workspaceId },
    timeoutMs,
    doc.current?.startedAt,
  );
  const releaseLease = doc.current
    ? deps.leases?.hold(doc._id, doc.current.runId, doc.current.leaseUntil)
    : undefined;
  const { agentId, principal } = runAsPrincipal(doc);
  const system = deps.services.system;
  const ctx: StepContext = {
    executionId: doc._id,
    execution: doc,
    input: undefined,
    index,
    attempt: doc.steps[index]?.attempts ?? 1,
    signal,
    services: deps.services,
    logger: deps.logger,
    log: (level, message) => deps.logs.append(doc._id, [{ level, message }]),
    emit: (item) => {
      if (!signal.aborted) emit?.(item);
    },
    callTool: (tool, input, options) =>
      new Promise<unknown>((resolve, reject) => {
        if (signal.aborted) return reject(signal.reason as Error);
        // A stream, so that unsubscribing on abort cancels the call wherever it runs.
        const sub = system
          .stream(
            `agent:${agentId}`,
            'agent.invokeTool',
            {
              tool,
              input,
              invokedByType: options?.invokedByType ?? 'workflow',
              ...(options?.related ? { related: options.related } : {}),
              executionId: doc._id,
            },
            { auth: principal, timeoutMs },
          )
          .subscribe({
            next: (reply) => {
              signal.removeEventListener('abort', onAbort);
              resolve(AgentInvokeToolReplySchema.parse(reply).result);
            },
            error: (err: unknown) => {
              signal.removeEventListener('abort', onAbort);
              reject(err as Error);
            },
          });
        const onAbort = () => {
          sub.unsubscribe();
          reject(signal.reason as Error);
        };
        signal.addEventListener('abort', onAbort, { once: true });
      }),
  };
  try {
    const parsed = runner.input.safeParse(doc.input);
    if (!parsed.success) throw errors.validation(`Invalid input for ${doc.type}`);
    (ctx as { input: unknown }).input = parsed.data;
    const outcome = await runner.step(ctx);
    if (signal.aborted) throw signal.reason;
    return { ok: true, outcome: boundOutcome(outcome) };
  } catch (err) {
    const aborted = signal.aborted;
    const error =
      aborted && isAppError(signal.reason)
        ? signal.reason
        : isAppError(err)
          ? err
          : new AppError('INTERNAL_ERROR', 'The step failed with an internal error');
    if (!isAppError(err) && !aborted) deps.logger.error({ err, executionId: doc._id, index }, 'step defect');
    return { ok: false, error: { code: error.code, message: error.message.slice(0, 1000) }, aborted };
  } finally {
    releaseLease?.();
    done();
  }
}
