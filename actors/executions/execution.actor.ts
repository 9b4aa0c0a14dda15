import { PrincipalSchema, type Principal } from '../../schemas/auth';
import type { ExecutionDocument } from '../../schemas/documents/execution';
import { errors } from '../../schemas/errors';
import type { ActionReply } from '../../schemas/http/executions';
import {
  ExecutionActMessageSchema,
  ExecutionCreateMessageSchema,
  ExecutionRunMessageSchema,
  ExecutionStepDoneMessageSchema,
  ExecutionStepFailedMessageSchema,
  ExecutionStepMessageSchema,
  ExecutionWatchMessageSchema,
} from '../../schemas/messages/executions';
import { defineActor, type ActorContext } from '../../src/kernel/actor-definition';
import { ExecutionCreateFollowMessageSchema, type FollowItem } from './execution-follow';
import { rollbackEffects } from './effect-undoers';
import { compact, decideAction, decideRun, isFinal, type Decision, type StepPlan } from './execution-machine';
import {
  decideRollbackDone,
  decideStepDone,
  decideStepFailed,
  decideStepNotStarted,
} from './execution-reports';
import { runStep } from './execution-steps';
import { executionSummary, executionView } from './execution-views';
import { createExecutionDocument, draftExecutionDocument } from './execution-create';
import type { ExecutionsService } from './executions.service';
import { DEFAULT_STEP_TIMEOUT_MS } from './step-runners';

interface State {
  /** Last known document (null before `execution.create`); every change is re-read and conditional. */
  doc: ExecutionDocument | null;
}
type Ctx = ActorContext<State>;

/** Slack on the deadline of the message that starts a step, beyond the step's own, in ms. */
const STEP_MESSAGE_SLACK_MS = 10_000;

function callerOf(ctx: Ctx): Principal & { accountId: string } {
  const parsed = PrincipalSchema.safeParse(ctx.auth);
  if (!parsed.success) throw errors.unauthorized();
  if (!parsed.data.accountId) {
    throw errors.forbidden('Executions belong to an operator account: use an account session or token');
  }
  return parsed.data as Principal & { accountId: string };
}

/**
 * `execution:<exe_id>`: one execution (docs/executions.md). Operators' actions and the reports of
 * its steps arrive here; each is a read-decide-write on the document (`ExecutionStore.mutate`),
 * so two nodes holding the same actor cannot both win. The work runs one step at a time outside
 * the turn (`execution.step` defers it) and reports back with `execution.stepDone` or
 * `execution.stepFailed`; between two steps the actor sees pause and cancel (the step boundary).
 */
export function executionActor(svc: ExecutionsService) {
  const { store, runners, undoers, services } = svc;

  const planOf = (doc: ExecutionDocument): StepPlan => {
    const runner = runners.get(doc.type);
    const parsed = runner?.input.safeParse(doc.input);
    const input: unknown = parsed?.success ? parsed.data : undefined;
    return {
      totalSteps: doc.progress.totalSteps,
      stepName: (i) =>
        runner?.stepName && input !== undefined ? runner.stepName(input, i) : `Step ${i + 1}`,
      stepTimeoutMs: runner?.stepTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS,
      leaseMs: svc.leases.leaseMs,
    };
  };

  /** The execution, if the caller's account owns it (another tenant's is NOT_FOUND). */
  async function owned(ctx: Ctx): Promise<ExecutionDocument> {
    const caller = callerOf(ctx);
    // Re-read: another node may hold this actor too and have changed it.
    const doc = (ctx.state.doc = await store.load(ctx.id));
    if (!doc || doc.accountId !== caller.accountId)
      throw errors.notFound('Execution not found', { id: ctx.id });
    return doc;
  }

  /** Internal messages come from the actor itself only. */
  function internal(ctx: Ctx): void {
    if (ctx.envelope.from !== ctx.address) throw errors.forbidden('Internal message');
  }

  async function apply(ctx: Ctx, decide: (doc: ExecutionDocument, now: Date) => Decision | null) {
    const result = await store.mutate(ctx.id, decide);
    ctx.state.doc = result.doc;
    const start = result.decision?.start;
    if (start) {
      const timeoutMs = planOf(result.doc).stepTimeoutMs + STEP_MESSAGE_SLACK_MS;
      await ctx.self.tell('execution.step', start, { timeoutMs });
    }
    return result;
  }

  /**
   * Runs step `index` of `doc` outside the turn and reports it to the actor (`stepDone` or
   * `stepFailed`); resolves once the report is sent. `emit` forwards what the step emits.
   */
  function stepWork(
    ctx: Ctx,
    doc: ExecutionDocument,
    runId: string,
    index: number,
    emit?: (item: unknown) => void,
  ): Promise<void> {
    const runner = runners.get(doc.type);
    const work = (async () => {
      const result = runner
        ? await runStep(
            { services, logs: store.logs, work: svc.steps, logger: ctx.logger, leases: svc.leases },
            runner,
            doc,
            index,
            emit,
          )
        : {
            ok: false as const,
            error: { code: 'INTERNAL_ERROR', message: `No runner for ${doc.type} on this node` },
            aborted: false,
          };
      if (result.ok) await ctx.self.tell('execution.stepDone', { runId, index, outcome: result.outcome });
      else
        await ctx.self.tell('execution.stepFailed', {
          runId,
          index,
          error: result.error,
          aborted: result.aborted,
        });
    })();
    work.catch((err: unknown) => ctx.logger.error({ err, executionId: ctx.id }, 'step report not sent'));
    return work;
  }

  return defineActor({
    kind: 'execution',
    messages: {
      'execution.create': ExecutionCreateMessageSchema,
      'execution.createAndFollow': ExecutionCreateFollowMessageSchema,
      'execution.act': ExecutionActMessageSchema,
      'execution.watch': ExecutionWatchMessageSchema,
      'execution.run': ExecutionRunMessageSchema,
      'execution.step': ExecutionStepMessageSchema,
      'execution.stepDone': ExecutionStepDoneMessageSchema,
      'execution.stepFailed': ExecutionStepFailedMessageSchema,
    },
    activate: async (ctx): Promise<State> => ({ doc: await store.load(ctx.id) }),
    handlers: {
      'execution.create': async (ctx, body) => {
        const caller = callerOf(ctx);
        const existing = ctx.state.doc ?? (await store.load(ctx.id));
        if (existing) {
          // A repeated create (same id) answers the same; another account's id is not shown.
          if (existing.accountId !== caller.accountId) throw errors.conflict('This execution id is taken');
          ctx.state.doc = existing;
          return { execution: executionView(existing) };
        }
        const doc = await createExecutionDocument(svc, ctx.id, caller, body);
        ctx.state.doc = doc;
        if (body.start) await ctx.self.tell('execution.run', {});
        return { execution: executionView(doc) };
      },

      'execution.act': async (ctx, { action, via }) => {
        const current = await owned(ctx);
        // Work does not start again in a locked-down workspace (releasing a hold is not work).
        const startsWork = action === 'retry' || (action === 'resume' && !current.hold);
        if (startsWork) await svc.assertNotLockedDown(current.workspaceId);
        const { doc, decision } = await apply(ctx, (d, now) => decideAction(d, action, via, planOf(d), now));
        if (!decision?.rollback) return { execution: executionView(doc) } satisfies ActionReply;
        // The undo runs outside the turn; the lock taken in the write keeps other actions out.
        // A promise, not a function: the kernel must not run a half-done rollback again.
        const work = (async (): Promise<ActionReply> => {
          const controller = new AbortController();
          let outcome: Awaited<ReturnType<typeof rollbackEffects>>;
          try {
            outcome = await rollbackEffects(doc, undoers, { services, signal: controller.signal });
          } catch (err) {
            ctx.logger.error({ err, executionId: ctx.id }, 'rollback defect');
            outcome = { report: { undone: [], notUndone: [] }, undone: [] };
          }
          const { report, undone } = outcome;
          const after = await apply(ctx, (d, now) => decideRollbackDone(d, report, undone, via, now));
          return { execution: executionView(after.doc), rollback: report };
        })();
        return ctx.defer(work);
      },

      'execution.watch': async (ctx) => {
        await owned(ctx);
        return ctx.defer(
          (signal) =>
            new Promise<void>((resolve) => {
              const finish = () => {
                sub.unsubscribe();
                signal.removeEventListener('abort', finish);
                resolve();
              };
              // Subscribed before the snapshot is read: no event falls in between.
              const sub = svc.hub.watch(ctx.id).subscribe({ next: (e) => ctx.next(e), complete: finish });
              signal.addEventListener('abort', finish, { once: true });
              store.load(ctx.id).then(
                (doc) => {
                  if (!doc) return finish();
                  ctx.next({ type: 'execution', execution: executionSummary(doc) });
                  if (isFinal(doc.status) || doc.hold) {
                    ctx.next({ type: 'done', executionId: doc._id, status: doc.status });
                    finish();
                  }
                },
                () => finish(),
              );
            }),
        );
      },

      'execution.run': async (ctx) => {
        internal(ctx);
        await apply(ctx, (d, now) => decideRun(d, planOf(d), now));
      },

      'execution.step': async (ctx, { runId, index }) => {
        internal(ctx);
        const doc = await store.load(ctx.id);
        if (!doc || doc.current?.runId !== runId) return; // stale
        if (doc.status !== 'RUNNING') {
          await apply(ctx, (d, now) => decideStepNotStarted(d, runId, index, now));
          return;
        }
        return ctx.defer(stepWork(ctx, doc, runId, index));
      },

      'execution.createAndFollow': async (ctx, body) => {
        // `execution.create` + `execution.run`, with the first step run here, in this request: what
        // it emits (`StepContext.emit`) travels on this stream to the requester's node only.
        const caller = callerOf(ctx);
        const existing = ctx.state.doc ?? (await store.load(ctx.id));
        if (existing) {
          // A redelivery: the first copy created it (and started it, unless it died before).
          if (existing.accountId !== caller.accountId) throw errors.conflict('This execution id is taken');
          ctx.next({ type: 'created', execution: executionView(existing) } satisfies FollowItem);
          if (existing.status === 'QUEUED' && !existing.current) await ctx.self.tell('execution.run', {});
          return;
        }
        // Created already started: one insert of the record (RUNNING, its first step decided) and
        // one of its first log lines, instead of an insert, then a read and a conditional update.
        const queued = await draftExecutionDocument(svc, ctx.id, caller, { ...body, start: true });
        const run = decideRun(queued, planOf(queued), queued.createdAt);
        const start = run?.start;
        if (!run || !start) {
          // A run that ends before any step (no step to run): the ordinary start decides it.
          const created = await createExecutionDocument(svc, ctx.id, caller, { ...body, start: true });
          ctx.state.doc = created;
          ctx.next({ type: 'created', execution: executionView(created) } satisfies FollowItem);
          await ctx.self.tell('execution.run', {});
          return;
        }
        const lines = [
          { level: 'info' as const, message: `Created (${body.type}, ${body.sourceType})` },
          ...run.logs,
        ];
        const doc = compact({ ...run.draft, logSeq: lines.length, version: 0 });
        if (!(await store.insertIfAbsent(doc))) {
          const other = await store.load(ctx.id);
          if (!other || other.accountId !== caller.accountId)
            throw errors.conflict('This execution id is taken');
          ctx.state.doc = other;
          ctx.next({ type: 'created', execution: executionView(other) } satisfies FollowItem);
          return;
        }
        await store.logs.write(ctx.id, 1, lines, queued.createdAt);
        ctx.state.doc = doc;
        ctx.next({ type: 'created', execution: executionView(doc) } satisfies FollowItem);
        const emit = (item: unknown) => ctx.next({ type: 'emit', item } satisfies FollowItem);
        // A promise: the client leaving cancels this stream (`next` becomes a no-op), not the step.
        return ctx.defer(stepWork(ctx, doc, start.runId, start.index, emit));
      },

      'execution.stepDone': async (ctx, body) => {
        internal(ctx);
        await apply(ctx, (d, now) => decideStepDone(d, body, planOf(d), now));
      },

      'execution.stepFailed': async (ctx, body) => {
        internal(ctx);
        await apply(ctx, (d, now) => decideStepFailed(d, body, now));
      },
    },
  });
}
