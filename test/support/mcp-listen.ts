/**
 * `subscriptions/listen` (MCP 2026-07-28) on `POST /mcp`: opens the notification stream for
 * `resourceUris` with the given `Authorization` header value. Read it with `sseMessages`.
 */
export function listenForUpdates(
  url: string,
  authorization: string,
  resourceUris: string[],
  signal: AbortSignal,
): Promise<Response> {
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
      params: { notifications: { resourceUris } },
    }),
    signal,
  });
}
