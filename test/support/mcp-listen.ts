/** What a `subscriptions/listen` asks to be told of: resource URIs, tasks, or both. */
export interface ListenFor {
  resourceUris?: string[];
  taskIds?: string[];
}

/**
 * `subscriptions/listen` (MCP 2026-07-28) on `POST /mcp`: opens the notification stream for
 * `subscribe` (resource URIs, or `{resourceUris, taskIds}`) with the given `Authorization` header
 * value, and `meta` as the request's `_meta` (the extensions a task subscription needs). Read it
 * with `sseMessages`.
 */
export function listenForUpdates(
  url: string,
  authorization: string,
  subscribe: string[] | ListenFor,
  signal: AbortSignal,
  meta?: Record<string, unknown>,
): Promise<Response> {
  const notifications = Array.isArray(subscribe) ? { resourceUris: subscribe } : subscribe;
  return fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      Authorization: authorization,
      Accept: 'application/json, text/event-stream',
      'Content-Type': 'application/json',
      'MCP-Protocol-Version': '2026-07-28',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 'sub',
      method: 'subscriptions/listen',
      params: { notifications, ...(meta ? { _meta: meta } : {}) },
    }),
    signal,
  });
}
