import { Observable, ReplaySubject, type Subscription } from 'rxjs';
import type { Principal } from '../../schemas/auth';
import { errors, isAppError } from '../../schemas/errors';
import { ExecutionSummarySchema, type ExecutionSummary } from '../../schemas/http/executions';
import type { IntentStreamBody } from '../../schemas/http/studio';
import type { ExecutionEvent } from '../../schemas/messages/executions';
import type { ActorSystemApi } from '../../src/kernel/kernel.types';
import type { CachePort } from '../../src/store/cache';
import { newExecutionId, type ExecutionsService } from '../executions/executions';
import { FollowItemSchema } from '../executions/execution-follow';
import { CHAT_EXECUTION_TYPE, type ChatOutput } from './chat.runner';
import { CONFIRM_TOKEN_TTL_S, ConfirmTokens } from './confirm-tokens';
import { ReplyPieces, type CongestedClient } from './reply-pieces';

/** What an intent stream needs: the actor system, the executions' reads, the cache (confirm tokens). */
export interface IntentStreamDeps {
  readonly system: ActorSystemApi;
  readonly executions: Pick<ExecutionsService, 'queries'>;
  readonly cache: CachePort;
}

/** The events of `POST /api/studio/intent/stream`, in this order (docs/studio.md). */
export type IntentEvent =
  | { type: 'execution'; execution: ExecutionSummary }
  /** A piece of the model's reply, in order, before the final reply (several pieces may be coalesced). */
  | { type: 'reply'; executionId: string; final: false; delta: string }
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
/**
 * Reply text waiting for a slow client, in characters: pieces are coalesced into one event while
 * the socket is congested; past this bound further pieces are dropped (the final reply still
 * carries the whole text). The model's reply is at most 16,000 characters, so it is not reached.
 */
const MAX_PENDING_DELTA_CHARS = 64_000;
/** How long the final reply waits for the last pieces of the step's stream, in ms. */
const DELTAS_GRACE_MS = 2_000;

/** The pieces of the reply a chat step emits (`execution.createAndFollow` items), as text. */
function deltaOf(item: unknown): string | undefined {
  const parsed = FollowItemSchema.safeParse(item);
  if (!parsed.success || parsed.data.type !== 'emit') return undefined;
  const emitted = parsed.data.item as { type?: unknown; delta?: unknown } | null;
  return emitted?.type === 'delta' && typeof emitted.delta === 'string' ? emitted.delta : undefined;
}

/**
 * The first item of a stream (rejecting if it fails before one: an HTTP error can still be
 * answered), and the items after it, kept until they are read.
 */
function splitFirst(
  source: Observable<unknown>,
): Promise<{ first: unknown; rest: Observable<unknown>; stop: () => void }> {
  return new Promise((resolve, reject) => {
    // Replays to the SSE writer what came before it subscribed (moments); bounded all the same.
    const rest = new ReplaySubject<unknown>(1000);
    let got = false;
    const sub = source.subscribe({
      next: (item) => {
        if (got) return rest.next(item);
        got = true;
        resolve({ first: item, rest, stop: () => sub.unsubscribe() });
      },
      error: (err: unknown) => (got ? rest.error(err) : reject(err)),
      complete: () => (got ? rest.complete() : reject(errors.internal('The execution was not created'))),
    });
  });
}

/**
 * The events of one chat execution for the request that created it: `execution` (as created),
 * the pieces of the model's reply as they come (`reply` with `final: false`, from the items of the
 * `execution.createAndFollow` stream), then, once it completes, fails or pauses for approval,
 * `reply` (final) and/or `error`, and `done` last. The execution runs in its actor: the client
 * leaving ends only these streams.
 */
function intentEvents(
  deps: IntentStreamDeps,
  caller: Principal & { accountId: string },
  execution: ExecutionSummary,
  follow: { items: Observable<unknown>; stop: () => void; client: CongestedClient },
): Observable<IntentEvent> {
  const executionId = execution.id;
  return new Observable<IntentEvent>((sub) => {
    let closed = false;
    let watchError: { error: string; code: string } | undefined;
    sub.next({ type: 'execution', execution });

    // The reply's pieces, coalesced while the client is slow (bounded; never the final reply).
    const replyPieces = new ReplyPieces(
      follow.client,
      (delta) => sub.next({ type: 'reply', executionId, final: false, delta }),
      MAX_PENDING_DELTA_CHARS,
    );
    let followEnded!: () => void;
    const followDone = new Promise<void>((resolve) => (followEnded = resolve));
    const pieces = follow.items.subscribe({
      next: (item) => {
        const delta = deltaOf(item);
        if (delta !== undefined) replyPieces.push(delta);
      },
      error: () => followEnded(),
      complete: () => followEnded(),
    });

    const finish = async () => {
      if (closed) return;
      // The step's stream ends once its report is sent: its last pieces come before the reply.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([followDone, new Promise<void>((r) => (timer = setTimeout(r, DELTAS_GRACE_MS)))]);
      clearTimeout(timer);
      if (closed) return;
      replyPieces.flush(true);
      replyPieces.close();
      const svc = deps.executions;
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
            const confirmToken = await new ConfirmTokens(deps.cache).issue(
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
      replyPieces.close();
      watch?.unsubscribe();
      pieces.unsubscribe();
      follow.stop();
    };
  });
}

/**
 * One chat message as a CHAT_EXECUTION (docs/studio.md, "Intent stream"): created and started by
 * one stream request, whose handler runs the first step, so the pieces of the reply come back on
 * it, to this node only. Failures to create (400, 403 lockdown, 404 workspace) reject before any
 * event, so the route can still answer them as HTTP errors. Resolves with the stream's events.
 */
export async function openIntentStream(
  deps: IntentStreamDeps,
  caller: Principal & { accountId: string },
  { message, sessionId, workspaceId, projectId }: IntentStreamBody,
  client: CongestedClient,
): Promise<Observable<IntentEvent>> {
  const { first, rest, stop } = await splitFirst(
    deps.system.stream<unknown>(
      `execution:${newExecutionId()}`,
      'execution.createAndFollow',
      {
        type: CHAT_EXECUTION_TYPE,
        title: message.slice(0, 180),
        sourceType: 'super_agent',
        input: projectId ? { message, projectId } : { message },
        sessionId,
        ...(workspaceId ? { workspaceId } : {}),
      },
      { auth: caller, timeoutMs: INTENT_WATCH_MS },
    ),
  );
  const created = FollowItemSchema.safeParse(first);
  if (!created.success || created.data.type !== 'created') {
    stop();
    throw errors.internal('The execution was not created');
  }
  const execution = ExecutionSummarySchema.parse(created.data.execution);
  return intentEvents(deps, caller, execution, { items: rest, stop, client });
}
