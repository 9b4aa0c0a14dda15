import { callerAgentId } from './default-agent';
import type { ToolRouter } from './tool-router';
import type { Principal } from '../../../schemas/auth';
import { AppError, errors } from '../../../schemas/errors';
import type { AgentInvokeToolMessage, AgentInvokeToolReply } from '../../../schemas/messages/tools';
import type { ResolvedAppDeps } from '../../../src/http/app.types';

/** What the tool router's routes read from the process's services. */
export interface ToolRouterRouteServices {
  readonly toolRouter: ToolRouter;
}

/** One tool call as the front door received it (either dialect of `POST /mcp`). */
export interface ToolCall {
  tool: string;
  input: Record<string, unknown>;
  server?: string;
  /**
   * The caller gave up (an MCP `notifications/cancelled`, a client that disconnected): the call is
   * cancelled wherever it runs (the kernel's cancel, which aborts the tool's signal) and rejects.
   */
  signal?: AbortSignal;
}

/** What a call cancelled by its caller rejects with (503 like a panic's: it may have run in part). */
export function callerCancelledError(): AppError {
  return new AppError(
    'UNAVAILABLE',
    'Cancelled by the caller',
    { reason: 'cancelled', mayHaveRun: true },
    { retryable: false },
  );
}

/**
 * `ask` that can be called off: the request goes as a one-reply stream, whose unsubscribe is the
 * kernel's cancel (broadcast to every node, it aborts the handler's signal where it runs).
 */
function askUntil<T>(
  system: ResolvedAppDeps['system'],
  signal: AbortSignal,
  args: Parameters<ResolvedAppDeps['system']['stream']>,
): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(callerCancelledError());
    let value: T | undefined;
    let settled = false;
    const done = () => {
      settled = true;
      signal.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      if (settled) return;
      done();
      subscription.unsubscribe();
      reject(callerCancelledError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const subscription = system.stream<T>(...args).subscribe({
      next: (v) => (value = v),
      error: (err: unknown) => {
        done();
        reject(err as Error);
      },
      complete: () => {
        done();
        resolve(value);
      },
    });
  });
}

/** The process's tool router; a front door built without services has none (503). */
export function toolRouterOf(deps: ResolvedAppDeps<ToolRouterRouteServices>): ToolRouter {
  const router = deps.services?.toolRouter;
  if (!router) throw errors.unavailable('The tool router is not available');
  return router;
}

/**
 * One tool call from the front door: the name is resolved here (unknown: 404 without a message),
 * then the call is a single request to the calling agent's actor, `agent.invokeTool`, which
 * authorises, counts and runs it. Resolves with the (redacted) result.
 */
export async function invokeTool(
  deps: ResolvedAppDeps<ToolRouterRouteServices>,
  principal: Principal,
  call: ToolCall,
  options: { envelopeId?: string } = {},
): Promise<unknown> {
  const router = toolRouterOf(deps);
  const target = router.registry.resolve(call.tool, call.server);
  const message: AgentInvokeToolMessage = {
    tool: target.name,
    kind: target.kind,
    input: call.input,
    invokedByType: principal.subjectType === 'agent' ? 'agent' : 'account',
  };
  const to = `agent:${callerAgentId(principal)}`;
  const askOptions = {
    auth: principal,
    // A stable id (a keyed call) makes a retry a duplicate the agent's dedupe record answers.
    ...(options.envelopeId !== undefined ? { id: options.envelopeId } : {}),
    timeoutMs: router.deadlineMs(target),
    alone: target.kind === 'platform' && target.declaration.heavy === true,
  };
  const reply = call.signal
    ? await askUntil<AgentInvokeToolReply>(deps.system, call.signal, [
        to,
        'agent.invokeTool',
        message,
        askOptions,
      ])
    : await deps.system.ask<AgentInvokeToolReply>(to, 'agent.invokeTool', message, askOptions);
  return reply?.result ?? null;
}
