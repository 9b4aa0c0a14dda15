import { Observable, type Subscription } from 'rxjs';
import { z } from 'zod';
import { newExecutionId } from '../../../actors/executions/executions';
import { CHAT_EXECUTION_TYPE, type ChatOutput } from '../../../actors/studio/chat.runner';
import { CONFIRM_TOKEN_TTL_S, ConfirmTokens } from '../../../actors/studio/confirm-tokens';
import { runStudioCommand, studioEnvOf } from '../../../actors/studio/studio';
import { MAX_COMMAND_CHARS } from '../../../actors/studio/studio-grammar';
import type { Principal } from '../../../schemas/auth';
import { errors, isAppError } from '../../../schemas/errors';
import { ExecutionSummarySchema, type ExecutionSummary } from '../../../schemas/http/executions';
import type { ExecutionEvent } from '../../../schemas/messages/executions';
import type { ResolvedAppDeps, RouteModule } from '../app.types';
import { writeSse } from '../sse';
import { parseBody } from '../validation';
import { accountCaller, executionsOf } from './executions-common';

export const StudioCommandBodySchema = z.object({
  command: z.string().max(MAX_COMMAND_CHARS),
  confirmToken: z.string().max(200).optional(),
  advancedMode: z.boolean().default(false),
});

const Ref = z.string().min(1).max(200);
export const IntentStreamBodySchema = z.object({
  message: z.string().min(1).max(20_000),
  sessionId: Ref,
  workspaceId: Ref.optional(),
  projectId: Ref.optional(),
});

/** The events of `POST /api/studio/intent/stream`, in this order (docs/studio.md). */
export type IntentEvent =
  | { type: 'execution'; execution: ExecutionSummary }
  | {
      type: 'reply';
      executionId: string;
      final: true;
      text: string;
      /** The model that wrote `text` (the LLM path). */
      model?: string;
      command?: string;
      result?: unknown;
      /** A proposal waiting for approval: confirm it with `POST /api/studio/command`. */
      approval?: { command: string; confirmToken: string; expiresIn: number };
    }
  | { type: 'error'; executionId: string; error: string; code: string }
  | { type: 'done'; executionId: string; status: string };

/** Longest the stream follows one chat execution (its step has 120 s). */
const INTENT_WATCH_MS = 180_000;

function servicesOf(deps: ResolvedAppDeps) {
  if (!deps.services) throw errors.unavailable('The Studio is not available on this node');
  return deps.services;
}

/**
 * The events of one chat execution for the request that created it: `execution` (as created),
 * then, once it completes, fails or pauses for approval, `reply` and/or `error`, and `done` last.
 * The execution runs in its actor: the client leaving ends only this watch.
 */
function intentEvents(
  deps: ResolvedAppDeps,
  caller: Principal & { accountId: string },
  execution: ExecutionSummary,
): Observable<IntentEvent> {
  const executionId = execution.id;
  return new Observable<IntentEvent>((sub) => {
    let closed = false;
    let watchError: { error: string; code: string } | undefined;
    sub.next({ type: 'execution', execution });

    const finish = async () => {
      if (closed) return;
      const svc = executionsOf(deps);
      let status = 'UNKNOWN';
      try {
        const doc = await svc.queries.get(caller.accountId, executionId);
        status = doc.status;
        const last = doc.steps[doc.steps.length - 1];
        const output = last?.output as ChatOutput | undefined;
        if (output?.reply && (doc.status === 'COMPLETED' || doc.status === 'PAUSED')) {
          const reply: Extract<IntentEvent, { type: 'reply' }> = {
            type: 'reply',
            executionId,
            final: true,
            text: output.reply,
            ...(output.model ? { model: output.model } : {}),
            ...(output.command ? { command: output.command } : {}),
            ...(output.result !== undefined ? { result: output.result } : {}),
          };
          if (doc.status === 'PAUSED' && output.proposal && !doc.hold) {
            const confirmToken = await new ConfirmTokens(servicesOf(deps).cache).issue(
              caller,
              output.proposal.command,
              false,
            );
            reply.approval = {
              command: output.proposal.command,
              confirmToken,
              expiresIn: CONFIRM_TOKEN_TTL_S,
            };
          }
          if (!closed) sub.next(reply);
        } else if (doc.status === 'FAILED' || doc.status === 'CANCELLED') {
          const failure = doc.failure;
          if (!closed) {
            sub.next({
              type: 'error',
              executionId,
              error: failure?.message ?? watchError?.error ?? `The execution was ${doc.status.toLowerCase()}`,
              code: failure?.code ?? watchError?.code ?? doc.status,
            });
          }
        } else if (watchError && !closed) {
          sub.next({ type: 'error', executionId, ...watchError });
        }
      } catch (err) {
        const body = isAppError(err) ? err : errors.internal('Internal error');
        if (!closed) sub.next({ type: 'error', executionId, error: body.message, code: body.code });
      }
      if (!closed) {
        sub.next({ type: 'done', executionId, status });
        sub.complete();
      }
    };

    let watch: Subscription | undefined = undefined;
    let finishing = false;
    const end = () => {
      if (finishing) return;
      finishing = true;
      watch?.unsubscribe();
      void finish();
    };
    watch = deps.system
      .stream<ExecutionEvent>(
        `execution:${executionId}`,
        'execution.watch',
        {},
        {
          auth: caller,
          timeoutMs: INTENT_WATCH_MS,
        },
      )
      .subscribe({
        next: (event) => {
          if (event.type === 'error') watchError = { error: event.error, code: event.code };
          // Paused (for approval, or by someone): this request's turn ends; the execution stays.
          if (event.type === 'execution' && event.execution.status === 'PAUSED') end();
        },
        error: (err: unknown) => {
          const e = isAppError(err) ? err : errors.internal('Internal error');
          watchError = { error: e.message, code: e.code };
          end();
        },
        complete: end,
      });
    if (finishing) watch.unsubscribe();
    return () => {
      closed = true;
      watch?.unsubscribe();
    };
  });
}

/**
 * `POST /api/studio/command` (docs/studio.md): one strict Studio command. 200 with `kind` for
 * every command-level outcome (errors included); 400 for a malformed body; 401/403 for the caller
 * (a self-registered agent has no account: 403).
 *
 * `POST /api/studio/intent/stream`: one chat message, as a CHAT_EXECUTION, streamed as SSE.
 */
export const studioRoute: RouteModule = (router, deps) => {
  router.post('/api/studio/command', deps.requireAuth, async (req, res) => {
    const caller = accountCaller(res);
    const body = parseBody(StudioCommandBodySchema, req);
    res.json(await runStudioCommand(studioEnvOf(servicesOf(deps)), caller, body));
  });

  router.post('/api/studio/intent/stream', deps.requireAuth, async (req, res) => {
    const caller = accountCaller(res);
    const { message, sessionId, workspaceId, projectId } = parseBody(IntentStreamBodySchema, req);
    // Failures to create (400, 403 lockdown, 404 workspace) are HTTP errors: nothing is streamed yet.
    const reply = await deps.system.ask<{ execution: unknown }>(
      `execution:${newExecutionId()}`,
      'execution.create',
      {
        type: CHAT_EXECUTION_TYPE,
        title: message.slice(0, 180),
        sourceType: 'super_agent',
        input: projectId ? { message, projectId } : { message },
        sessionId,
        ...(workspaceId ? { workspaceId } : {}),
      },
      { auth: caller },
    );
    const execution = ExecutionSummarySchema.parse(reply.execution);
    await writeSse(req, res, intentEvents(deps, caller, execution), { eventOf: (e) => e.type });
  });
};
