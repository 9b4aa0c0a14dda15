import type { Request, Response } from 'express';
import type { Principal } from '../../../schemas/auth';
import type { ActorSystemApi } from '../../../src/kernel';
import { acceptsEventStream, McpEventStream } from '../../../src/http/mcp/event-stream';
import { isObject, JSON_RPC_ERRORS, rpcError } from '../../../src/http/mcp/json-rpc-messages';
import { FILES_CHANGED_BROADCAST } from '../../files/file-store';
import { callerAgentId } from './default-agent';
import { pathOfUri } from './mcp-catalog';

/**
 * Resource updates in the stateless form of 2026-07-28 (docs/tool-router.md, "MCP resource
 * subscriptions"): `subscriptions/listen {notifications: {resourceUris}}` is answered by an event
 * stream that stays open: `notifications/subscriptions/acknowledged` first, then a
 * `notifications/resources/updated {uri}` each time one of those files of the caller's file space
 * is written, renamed (both paths) or deleted, on any node (the file store's `files.changed`
 * broadcast), until the client closes it. No session: the stream is the subscription.
 */

export const LISTEN_METHOD = 'subscriptions/listen';
/** A comment line now and then keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 25_000;
const MAX_URIS = 100;

const bare = (path: string) => path.replace(/^\/+/, '');

/** Answers a `subscriptions/listen` message (a single message of its own request). */
export function listen(
  system: Pick<ActorSystemApi, 'onBroadcast'>,
  principal: Principal,
  message: Record<string, unknown>,
  req: Request,
  res: Response,
): void {
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
  for (const uri of uris as string[]) {
    try {
      paths.set(bare(pathOfUri(uri)), uri);
    } catch {
      return invalid(`Not a resource of this server: ${uri.slice(0, 200)}`);
    }
  }
  // The space `fs_*` (and so `resources/read`) use: the calling agent's.
  const ownerKey = `agent:${callerAgentId(principal)}`;
  const stream = new McpEventStream(res);
  stream.send({
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: { notifications: { resourceUris: [...paths.values()] } },
  });
  const off = system.onBroadcast(FILES_CHANGED_BROADCAST, (body) => {
    const b = body as { ownerKey?: unknown; paths?: unknown } | undefined;
    if (b?.ownerKey !== ownerKey || !Array.isArray(b.paths)) return;
    for (const p of b.paths) {
      if (typeof p !== 'string') continue;
      const uri = paths.get(bare(p));
      if (uri) stream.send({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } });
    }
  });
  const keepalive = setInterval(() => {
    if (!res.writableEnded) res.write(': keepalive\n\n');
  }, KEEPALIVE_MS);
  keepalive.unref();
  res.once('close', () => {
    off();
    clearInterval(keepalive);
  });
}
