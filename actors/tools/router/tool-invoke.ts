import { callerAgentId } from './default-agent';
import type { ToolProgress } from './tool-declaration';
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
  /** The caller follows the call's progress (with `signal` only: the call then goes as a stream). */
  onProgress?: (update: ToolProgress) => void;
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
  onProgress?: (update: ToolProgress) => void,
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
      next: (v) => {
        // A progress item (`{progress}`, agent-tools.ts `followProgress`) or the reply (`{result}`).
        const item = v as { progress?: unknown; result?: unknown } | undefined;
        if (onProgress && item && 'progress' in item && !('result' in item)) {
          onProgress(item.progress as ToolProgress);
        } else value = v;
      },
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
    // Not for a keyed call: its kernel record keeps one reply, which a streamed one would not have.
    ...(call.onProgress && call.signal && options.envelopeId === undefined ? { progress: true } : {}),
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
    ? await askUntil<AgentInvokeToolReply>(
        deps.system,
        call.signal,
        [to, 'agent.invokeTool', message, askOptions],
        call.onProgress,
      )
    : await deps.system.ask<AgentInvokeToolReply>(to, 'agent.invokeTool', message, askOptions);
  return reply?.result ?? null;
}
