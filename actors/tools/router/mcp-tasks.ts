import type { Principal } from '../../../schemas/auth';
import type { ExecutionDocument } from '../../../schemas/documents/execution';
import { AppError, errors, isErrorCode } from '../../../schemas/errors';
import type { ResolvedAppDeps } from '../../../src/http/app.types';
import type { McpTask, McpTaskProvider, McpTaskStatus } from '../../../src/http/mcp/json-rpc';
import { newExecutionId, type ExecutionsService } from '../../executions/executions';
import { callerCancelledError, toolRouterOf, type ToolRouterRouteServices } from './tool-invoke';
import { MCP_TASK_SOURCE, TOOL_EXECUTION_TYPE, ToolTaskInputSchema } from './tool-task.runner';

/**
 * MCP tasks are executions (docs/tool-router.md, "MCP tasks"): `tools/call` as a task creates a
 * `TOOL_EXECUTION` through the `execution:<id>` actor (persisted before the answer), and every
 * `tasks/*` reads the execution back, so a task outlives its client and the node that took it.
 * The task id is the execution id. Only the caller that created a task (the same agent, or the
 * same account acting as itself) sees it through MCP; its account sees it in `/api/executions`.
 */

export interface McpTaskServices extends ToolRouterRouteServices {
  readonly executions?: ExecutionsService;
}

/** Built-in tools long enough to be worth a task: the sandbox and HTTP egress. */
const LONG_PLATFORM_TOOLS = new Set([
  'proc_execute',
  'net_http_get',
  'net_http_post',
  'net_http_put',
  'net_http_delete',
]);

/** How often a client should poll, in ms. */
export const TASK_POLL_INTERVAL_MS = 1000;

/** Whether a tool may run as a task: connector tools, skill capabilities and the long built-ins. */
export function isTaskTool(name: string): boolean {
  if (name.startsWith('mcp.') || name.startsWith('platform.skill.')) return true;
  return LONG_PLATFORM_TOOLS.has(name.startsWith('platform.') ? name.slice('platform.'.length) : name);
}

/** The mapping of execution states to task states (documented in docs/tool-router.md). */
const STATUS: Record<ExecutionDocument['status'], McpTaskStatus> = {
  QUEUED: 'working',
  RUNNING: 'working',
  PAUSED: 'working',
  COMPLETED: 'completed',
  FAILED: 'failed',
  CANCELLED: 'cancelled',
};

function statusMessageOf(doc: ExecutionDocument, tool: string): string {
  switch (doc.status) {
    case 'QUEUED':
      return `Queued: ${tool}`;
    case 'RUNNING':
      return `Running ${tool}`;
    case 'PAUSED':
      return `Paused (execution ${doc._id}): resume or cancel it in /api/executions`;
    case 'COMPLETED':
      return `${tool} completed`;
    case 'FAILED':
      return doc.failure ? `${doc.failure.code}: ${doc.failure.message}` : `${tool} failed`;
    case 'CANCELLED':
      return doc.stopped?.action === 'panic' ? 'Cancelled by panic' : 'Cancelled';
  }
}

/** A task as read from its execution (`tool` and `ttlMs` live in the execution's input). */
export function taskOf(doc: ExecutionDocument): McpTask {
  const input = ToolTaskInputSchema.safeParse(doc.input);
  const tool = input.success ? input.data.tool : doc.title;
  const status = STATUS[doc.status];
  const failure = doc.failure;
  const outcome =
    status === 'completed'
      ? { ok: true as const, value: doc.result ?? null }
      : status === 'failed' && failure
        ? {
            ok: false as const,
            error: isErrorCode(failure.code)
              ? new AppError(failure.code, failure.message)
              : new AppError('UNAVAILABLE', failure.message),
          }
        : undefined;
  return {
    taskId: doc._id,
    status,
    statusMessage: statusMessageOf(doc, tool),
    createdAt: doc.createdAt.toISOString(),
    lastUpdatedAt: doc.updatedAt.toISOString(),
    ttlMs: input.success ? input.data.ttlMs : null,
    pollIntervalMs: TASK_POLL_INTERVAL_MS,
    tool,
    ...(outcome ? { outcome } : {}),
  };
}

const isEnded = (doc: ExecutionDocument) => ['COMPLETED', 'FAILED', 'CANCELLED'].includes(doc.status);

const expired = (doc: ExecutionDocument, now: number) => {
  const input = ToolTaskInputSchema.safeParse(doc.input);
  return input.success && input.data.ttlMs !== null && doc.createdAt.getTime() + input.data.ttlMs < now;
};

/** Whether `doc` is an MCP task of this caller (the same agent, or the account as itself). */
function ownedBy(doc: ExecutionDocument, caller: Principal): boolean {
  if (doc.type !== TOOL_EXECUTION_TYPE || doc.sourceType !== MCP_TASK_SOURCE) return false;
  if (doc.runAs.subjectType !== caller.subjectType) return false;
  return caller.subjectType !== 'agent' || doc.runAs.agentId === caller.agentId;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The task provider of one request's caller, or undefined when the caller cannot have tasks (a
 * self-registered agent has no account, executions belong to accounts) or this node has no
 * executions service.
 */
export function mcpTasks(
  deps: ResolvedAppDeps<McpTaskServices>,
  principal: Principal,
): McpTaskProvider | undefined {
  const svc = deps.services?.executions;
  const accountId = principal.accountId;
  if (!svc || !accountId) return undefined;
  const timeoutMs = deps.config.REQUEST_TIMEOUT_MS;

  const cancelExecution = async (doc: ExecutionDocument): Promise<void> => {
    await deps.system.ask(
      `execution:${doc._id}`,
      'execution.act',
      { action: 'cancel', via: 'actions' },
      { auth: principal, timeoutMs },
    );
    // A cancel lets the step finish; a task's cancel stops the call now, as panic does.
    await svc.abortStep(doc._id, callerCancelledError());
  };

  /** The caller's task, fresh; expired ones are gone (and stopped when still running). */
  const load = async (taskId: string): Promise<ExecutionDocument> => {
    const notFound = () => errors.notFound(`Task not found: ${taskId.slice(0, 100)}`);
    const doc = await svc.queries.get(accountId, taskId).catch(() => {
      throw notFound();
    });
    if (!ownedBy(doc, principal)) throw notFound();
    if (expired(doc, Date.now())) {
      if (!isEnded(doc)) await cancelExecution(doc).catch(() => undefined);
      throw errors.notFound(`Task expired: ${taskId.slice(0, 100)}`);
    }
    return doc;
  };

  return {
    supports: isTaskTool,
    async create(tool, args, ttlMs) {
      // An unknown name is refused now, as a plain call would be (-32602), not as a failed task.
      toolRouterOf(deps).registry.resolve(tool);
      const id = newExecutionId();
      await deps.system.ask(
        `execution:${id}`,
        'execution.create',
        {
          type: TOOL_EXECUTION_TYPE,
          title: `MCP task: ${tool}`.slice(0, 500),
          sourceType: MCP_TASK_SOURCE,
          input: { tool, input: args, ttlMs },
        },
        { auth: principal, timeoutMs },
      );
      // Read back from the store: the answer names a task that `tasks/get` finds.
      return taskOf(await svc.queries.get(accountId, id));
    },
    get: async (taskId) => taskOf(await load(taskId)),
    async settled(taskId) {
      // `tasks/result` waits for the end, within the request's time (then answers "still working").
      const until = Date.now() + Math.max(1000, timeoutMs - 2000);
      let delay = 100;
      for (;;) {
        const doc = await load(taskId);
        if (isEnded(doc) || Date.now() + delay > until) return taskOf(doc);
        await sleep(delay);
        delay = Math.min(delay * 2, 1000);
      }
    },
    async list(cursor) {
      const runAs =
        principal.subjectType === 'agent'
          ? { 'runAs.subjectType': 'agent', 'runAs.agentId': principal.agentId }
          : { 'runAs.subjectType': principal.subjectType };
      const page = await svc.queries
        .list(
          accountId,
          { type: TOOL_EXECUTION_TYPE, sourceType: MCP_TASK_SOURCE, limit: 50, cursor },
          runAs as Record<string, unknown>,
        )
        .catch((err: unknown) => {
          throw err instanceof AppError ? err : errors.validation('Invalid cursor');
        });
      const now = Date.now();
      return {
        tasks: page.docs.filter((d) => !expired(d, now)).map(taskOf),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      };
    },
    async cancel(taskId) {
      const doc = await load(taskId);
      if (isEnded(doc)) throw errors.conflict(`The task already ended (${STATUS[doc.status]})`);
      await cancelExecution(doc);
      return taskOf(await load(taskId));
    },
  };
}
