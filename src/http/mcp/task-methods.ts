import { isAppError } from '../../../schemas/errors';
import { isObject, JSON_RPC_ERRORS, rpcError, type JsonRpcResponse } from './json-rpc-messages';
import { toolError, toolResult } from './tool-results';

/**
 * MCP tasks, in both wire forms (docs/tool-router.md, "MCP tasks"): the 2025-11-25 form (the
 * client asks with `params.task`; `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel`) and
 * the Tasks extension of 2026-07-28 (`io.modelcontextprotocol/tasks`: the client declares it in
 * the request's `_meta` capabilities and the server decides; `tasks/get` carries the result;
 * `tasks/update`, `tasks/cancel`; no `tasks/result`, no `tasks/list`). Protocol only: what a task
 * is (a persisted execution), the provider says.
 */

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const CLIENT_CAPABILITIES_META = 'io.modelcontextprotocol/clientCapabilities';
const RELATED_TASK_META = 'io.modelcontextprotocol/related-task';
/** -32003: the request needs a capability the client did not declare (2026-07-28). */
const MISSING_CLIENT_CAPABILITY = -32003;

/** The states of a task (both forms); `failed` is a tool error in the 2025 form only. */
export type McpTaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** One task as the provider reads it. */
export interface McpTask {
  taskId: string;
  status: McpTaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs: number;
  /** The tool's name (to shape its result). */
  tool: string;
  /** When completed: the tool's result; when failed: the tool's error (an AppError). */
  outcome?: { ok: true; value: unknown } | { ok: false; error: unknown };
}

/** What the router provides for tasks (absent: no task capability, `tasks/*` answer -32601). */
export interface McpTaskProvider {
  /** Whether `tools/call` of this tool may become a task (`execution.taskSupport: 'optional'`). */
  supports(tool: string): boolean;
  /** Persists the call as a task and starts it; rejects like a tool call (unknown tool, refused). */
  create(tool: string, args: Record<string, unknown>, ttlMs: number | null): Promise<McpTask>;
  /** Rejects with an AppError NOT_FOUND for an unknown, foreign or expired task. */
  get(taskId: string): Promise<McpTask>;
  /** The task once it ended (bounded wait: then the task as it is). */
  settled(taskId: string): Promise<McpTask>;
  list(cursor: string | undefined): Promise<{ tasks: McpTask[]; nextCursor?: string }>;
  /** Cancels the task and aborts its call; CONFLICT when it already ended. */
  cancel(taskId: string): Promise<McpTask>;
}

/** Whether a request's `_meta` declares the Tasks extension (2026-07-28 per-request capabilities). */
export function declaresTasksExtension(meta: Record<string, unknown> | undefined): boolean {
  const caps = meta?.[CLIENT_CAPABILITIES_META];
  return isObject(caps) && isObject(caps.extensions) && isObject(caps.extensions[TASKS_EXTENSION]);
}

/** The capabilities that announce tasks in each era. */
export function taskCapabilities(stateless: boolean): Record<string, unknown> {
  return stateless
    ? { extensions: { [TASKS_EXTENSION]: {} } }
    : { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };
}

/** `execution.taskSupport` on the tools that may run as tasks. */
export function withTaskSupport(tools: readonly unknown[], provider: McpTaskProvider): unknown[] {
  return tools.map((t) =>
    isObject(t) && typeof t.name === 'string' && provider.supports(t.name)
      ? { ...t, execution: { taskSupport: 'optional' } }
      : t,
  );
}

/** The task's result as a `CallToolResult` (a tool error when it failed or was cancelled). */
function callResultOf(task: McpTask): Record<string, unknown> {
  if (task.outcome?.ok) return toolResult(task.outcome.value, task.tool);
  if (task.outcome) return toolError(task.outcome.error);
  return { content: [{ type: 'text', text: `Task ${task.status}` }], isError: true };
}

/** A task on the wire: `ttl`/`pollInterval` in 2025-11-25, `ttlMs`/`pollIntervalMs` in 2026-07-28. */
function wireTask(task: McpTask, stateless: boolean): Record<string, unknown> {
  const base = {
    taskId: task.taskId,
    // The 2026 form reports a tool's error as a completed task whose result has isError.
    status: stateless && task.status === 'failed' ? 'completed' : task.status,
    ...(task.statusMessage ? { statusMessage: task.statusMessage } : {}),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
  };
  return stateless
    ? { ...base, ttlMs: task.ttlMs, pollIntervalMs: task.pollIntervalMs }
    : { ...base, ttl: task.ttlMs, pollInterval: task.pollIntervalMs };
}

/** A task as the 2026 extension shows it in `tasks/get` and `notifications/tasks`: the result inline once ended. */
export function detailedTask(task: McpTask): Record<string, unknown> {
  const ended = task.status === 'completed' || task.status === 'failed';
  return { ...wireTask(task, true), ...(ended ? { result: callResultOf(task) } : {}) };
}

const isTerminal = (s: McpTaskStatus) => s === 'completed' || s === 'failed' || s === 'cancelled';

function providerError(id: string | number, err: unknown): JsonRpcResponse {
  if (isAppError(err) && err.status < 500) return rpcError(id, JSON_RPC_ERRORS.invalidParams, err.message);
  return rpcError(id, JSON_RPC_ERRORS.internal, 'Internal error');
}

/**
 * A `tools/call` that becomes a task, or undefined when it runs as a plain call: in 2025-11-25
 * when the client asked (`params.task`), in 2026-07-28 when the client declared the extension and
 * the tool is a long one.
 */
export async function maybeTaskCall(
  id: string | number,
  name: string,
  args: Record<string, unknown>,
  params: Record<string, unknown>,
  provider: McpTaskProvider | undefined,
  stateless: boolean,
): Promise<JsonRpcResponse | undefined> {
  const meta = isObject(params._meta) ? params._meta : undefined;
  if (!provider) return undefined;
  let ttlMs: number | null = null;
  if (stateless) {
    // The legacy `task` parameter means nothing in this era (the extension ignores it).
    if (!declaresTasksExtension(meta) || !provider.supports(name)) return undefined;
  } else {
    if (params.task === undefined) return undefined;
    if (!isObject(params.task))
      return rpcError(id, JSON_RPC_ERRORS.invalidParams, 'params.task must be an object');
    const ttl = params.task.ttl;
    if (
      ttl !== undefined &&
      ttl !== null &&
      (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl <= 0)
    ) {
      return rpcError(id, JSON_RPC_ERRORS.invalidParams, 'params.task.ttl must be a positive integer (ms)');
    }
    if (!provider.supports(name)) {
      return rpcError(
        id,
        JSON_RPC_ERRORS.methodNotFound,
        `Tool ${name.slice(0, 200)} does not run as a task`,
      );
    }
    ttlMs = typeof ttl === 'number' ? ttl : null;
  }
  const task = await provider.create(name, args, ttlMs);
  const result = stateless
    ? { resultType: 'task', ...wireTask(task, true) }
    : { task: wireTask(task, false) };
  return { jsonrpc: '2.0', id, result };
}

/** `tasks/*`; undefined: not one of them (or the provider is absent: -32601 by the caller). */
export async function taskRequest(
  id: string | number,
  method: string,
  params: Record<string, unknown>,
  provider: McpTaskProvider | undefined,
  stateless: boolean,
): Promise<JsonRpcResponse | undefined> {
  if (!provider || !method.startsWith('tasks/')) return undefined;
  const ok = (result: Record<string, unknown>): JsonRpcResponse => ({
    jsonrpc: '2.0',
    id,
    result: stateless ? { resultType: 'complete', ...result } : result,
  });
  const meta = isObject(params._meta) ? params._meta : undefined;
  // The extension answers only clients that declare it.
  if (
    stateless &&
    !declaresTasksExtension(meta) &&
    ['tasks/get', 'tasks/update', 'tasks/cancel'].includes(method)
  ) {
    return rpcError(id, MISSING_CLIENT_CAPABILITY, 'Missing required client capability', {
      requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
    });
  }
  const taskId = params.taskId;
  const needsId = method !== 'tasks/list';
  if (needsId && (typeof taskId !== 'string' || taskId === '')) {
    return rpcError(id, JSON_RPC_ERRORS.invalidParams, `${method}: params.taskId must be a non-empty string`);
  }
  try {
    switch (method) {
      case 'tasks/get': {
        const task = await provider.get(taskId as string);
        // The 2026 form inlines the result of an ended task.
        return ok(stateless ? detailedTask(task) : wireTask(task, false));
      }
      case 'tasks/result': {
        if (stateless) return undefined; // removed by the extension: -32601
        const task = await provider.settled(taskId as string);
        if (!isTerminal(task.status)) {
          return rpcError(id, JSON_RPC_ERRORS.internal, 'The task is still working: ask again', {
            status: task.status,
          });
        }
        const result = callResultOf(task);
        const own = isObject(result._meta) ? result._meta : {};
        return ok({ ...result, _meta: { ...own, [RELATED_TASK_META]: { taskId: task.taskId } } });
      }
      case 'tasks/list': {
        if (stateless) return undefined; // not part of the extension
        if (params.cursor !== undefined && typeof params.cursor !== 'string') {
          return rpcError(id, JSON_RPC_ERRORS.invalidParams, 'tasks/list: params.cursor must be a string');
        }
        const page = await provider.list(params.cursor);
        return ok({
          tasks: page.tasks.map((t) => wireTask(t, false)),
          ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
        });
      }
      case 'tasks/cancel': {
        const task = await provider.cancel(taskId as string);
        return ok(stateless ? {} : wireTask(task, false));
      }
      case 'tasks/update': {
        if (!stateless) return undefined;
        // These tasks never ask for input: nothing to deliver, but the task must exist.
        await provider.get(taskId as string);
        return rpcError(id, JSON_RPC_ERRORS.invalidParams, 'tasks/update: the task is not waiting for input');
      }
      default:
        return undefined;
    }
  } catch (err) {
    return providerError(id, err);
  }
}
