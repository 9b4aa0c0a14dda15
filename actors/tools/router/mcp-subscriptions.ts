import type { Request, Response } from 'express';
import type { Principal } from '../../../schemas/auth';
import { isAppError } from '../../../schemas/errors';
import type { ActorSystemApi } from '../../../src/kernel';
import { acceptsEventStream, McpEventStream } from '../../../src/http/mcp/event-stream';
import { isObject, JSON_RPC_ERRORS, rpcError } from '../../../src/http/mcp/json-rpc-messages';
import {
  declaresTasksExtension,
  detailedTask,
  TASKS_EXTENSION,
  type McpTaskProvider,
} from '../../../src/http/mcp/json-rpc';
import { onExecutionEvents } from '../../executions/executions';
import { FILES_CHANGED_BROADCAST } from '../../files/file-store';
import { callerAgentId } from './default-agent';
import { pathOfUri } from './mcp-catalog';
import { onConnectorUpdates, type UpstreamSubscribe } from './mcp-connector-updates';

/**
 * Resource updates in the stateless form of 2026-07-28 (docs/tool-router.md, "MCP resource
 * subscriptions"): `subscriptions/listen {notifications: {resourceUris}}` is answered by an event
 * stream that stays open: `notifications/subscriptions/acknowledged` first, then a
 * `notifications/resources/updated {uri}` each time one of those files of the caller's file space
 * is written, renamed (both paths) or deleted, on any node (the file store's `files.changed`
 * broadcast), until the client closes it. No session: the stream is the subscription.
 *
 * `notifications.taskIds` (the Tasks extension, declared in the request's `_meta`): the caller's
 * tasks among them are acknowledged, and each change of their execution (the `execution.event`
 * broadcast) sends `notifications/tasks` with the task as `tasks/get` would answer it.
 */

export const LISTEN_METHOD = 'subscriptions/listen';
/** A comment line now and then keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 25_000;
const MAX_URIS = 100;

const bare = (path: string) => path.replace(/^\/+/, '');

/** Answers a `subscriptions/listen` message (a single message of its own request). */
export async function listen(
  system: Pick<ActorSystemApi, 'onBroadcast'>,
  principal: Principal,
  message: Record<string, unknown>,
  req: Request,
  res: Response,
  tasks: McpTaskProvider | undefined,
  /** Subscribes upstream to a `connector://` URI (mcp-connector-updates.ts); false for others. */
  upstream?: UpstreamSubscribe,
): Promise<void> {
  const id = message.id as string | number;
  const params = isObject(message.params) ? message.params : {};
  const wanted = isObject(params.notifications) ? params.notifications : {};
  const uris = wanted.resourceUris ?? [];
  const invalid = (why: string) =>
    void res.status(200).json(rpcError(id, JSON_RPC_ERRORS.invalidParams, why));
  if (!acceptsEventStream(req.headers.accept)) {
    return void res
      .status(400)
      .json(
        rpcError(
          id,
          JSON_RPC_ERRORS.invalidRequest,
          `${LISTEN_METHOD} answers with text/event-stream: accept it`,
        ),
      );
  }
  if (!Array.isArray(uris) || uris.length > MAX_URIS || !uris.every((u) => typeof u === 'string')) {
    return invalid(`params.notifications.resourceUris must be at most ${MAX_URIS} URIs`);
  }
  const paths = new Map<string, string>();
  const federated = new Set<string>();
  for (const uri of uris as string[]) {
    try {
      if (upstream && (await upstream(uri))) federated.add(uri);
      else paths.set(bare(pathOfUri(uri)), uri);
    } catch (err) {
      // A reachable connector that could not subscribe says why (down, refused…).
      const why = isAppError(err) && err.code !== 'NOT_FOUND' ? `: ${err.message.slice(0, 300)}` : '';
      return invalid(`Not a resource of this server: ${uri.slice(0, 200)}${why}`);
    }
  }
  const taskIds = wanted.taskIds ?? [];
  if (!Array.isArray(taskIds) || taskIds.length > MAX_URIS || !taskIds.every((t) => typeof t === 'string')) {
    return invalid(`params.notifications.taskIds must be at most ${MAX_URIS} task ids`);
  }
  if (taskIds.length > 0 && !declaresTasksExtension(isObject(params._meta) ? params._meta : undefined)) {
    return void res.status(200).json(
      rpcError(id, -32003, 'Missing required client capability', {
        requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
      }),
    );
  }
  // Only the caller's own tasks (tasks/get's rule); others are left out of the acknowledgement.
  const followed = new Set<string>();
  for (const taskId of taskIds as string[]) {
    if (
      tasks &&
      (await tasks.get(taskId).then(
        () => true,
        () => false,
      ))
    )
      followed.add(taskId);
  }
  // The space `fs_*` (and so `resources/read`) use: the calling agent's.
  const ownerKey = `agent:${callerAgentId(principal)}`;
  const stream = new McpEventStream(res);
  stream.send({
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: {
      notifications: {
        resourceUris: [...paths.values(), ...federated],
        ...(taskIds.length > 0 ? { taskIds: [...followed] } : {}),
      },
    },
  });
  const sent = new Map<string, string>();
  const taskChanged = (executionId: string) => {
    if (!followed.has(executionId) || !tasks) return;
    void tasks.get(executionId).then(
      (task) => {
        // One write makes several events: one notification per state the client has not seen.
        const seen = `${task.status}|${task.lastUpdatedAt}`;
        if (sent.get(executionId) === seen) return;
        sent.set(executionId, seen);
        stream.send({ jsonrpc: '2.0', method: 'notifications/tasks', params: detailedTask(task) });
      },
      () => undefined,
    );
  };
  const offTasks =
    followed.size === 0 || !tasks
      ? () => undefined
      : onExecutionEvents(system, taskChanged, (executionId) => followed.has(executionId));
  const off = system.onBroadcast(FILES_CHANGED_BROADCAST, (body) => {
    const b = body as { ownerKey?: unknown; paths?: unknown } | undefined;
    if (b?.ownerKey !== ownerKey || !Array.isArray(b.paths)) return;
    for (const p of b.paths) {
      if (typeof p !== 'string') continue;
      const uri = paths.get(bare(p));
      if (uri) stream.send({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } });
    }
  });
  const offConnectors =
    federated.size === 0
      ? () => undefined
      : onConnectorUpdates(system, principal.accountId, (uri) => {
          if (federated.has(uri))
            stream.send({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } });
        });
  const keepalive = setInterval(() => {
    if (!res.writableEnded) res.write(': keepalive\n\n');
  }, KEEPALIVE_MS);
  keepalive.unref();
  res.once('close', () => {
    off();
    offTasks();
    offConnectors();
    clearInterval(keepalive);
  });
}
