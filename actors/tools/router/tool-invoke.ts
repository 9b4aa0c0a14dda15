import { callerAgentId } from './default-agent';
import type { ToolRouter } from './tool-router';
import type { Principal } from '../../../schemas/auth';
import { errors } from '../../../schemas/errors';
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
  const reply = await deps.system.ask<AgentInvokeToolReply>(
    `agent:${callerAgentId(principal)}`,
    'agent.invokeTool',
    message,
    {
      auth: principal,
      // A stable id (a keyed call) makes a retry a duplicate the agent's dedupe record answers.
      ...(options.envelopeId !== undefined ? { id: options.envelopeId } : {}),
      timeoutMs: router.deadlineMs(target),
      alone: target.kind === 'platform' && target.declaration.heavy === true,
    },
  );
  return reply?.result ?? null;
}
