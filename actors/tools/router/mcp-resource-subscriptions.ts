import { createHash, randomBytes } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Principal } from '../../../schemas/auth';
import { errors } from '../../../schemas/errors';
import type { ActorSystemApi } from '../../../src/kernel';
import type { CachePort } from '../../../src/store/cache';
import { McpEventStream } from '../../../src/http/mcp/event-stream';
import type { McpResourceProvider } from '../../../src/http/mcp/json-rpc';
import { FILES_CHANGED_BROADCAST } from '../../files/file-store';
import { callerAgentId } from './default-agent';
import { mcpCaller } from './mcp-cancellation';
import { onConnectorUpdates } from './mcp-connector-updates';
import { pathOfUri } from './mcp-catalog';

/**
 * `resources/subscribe` and `resources/unsubscribe` of the 2025 eras (docs/tool-router.md, "MCP
 * resource subscriptions"). The endpoint stays stateless: `initialize` hands out an
 * `Mcp-Session-Id` that nothing requires, and a subscription is a cache entry keyed by the caller
 * (agent and token, as cancellation keys them) and that session id, so a subscribe can land on any
 * node. The updates go out on the session's `GET /mcp` event stream, which may be open on any other
 * node: each node's stream hears the file store's `files.changed` broadcast for its caller's space
 * and looks the changed paths up in the cache. Two clients sharing a token are kept apart by
 * their session ids; a client that sends none shares the token's session-less set.
 */

export const SESSION_HEADER = 'mcp-session-id';
/** A subscription that nobody renews is forgotten after a day (a client that never unsubscribed). */
const SUBSCRIPTION_TTL_MS = 24 * 60 * 60 * 1000;
const KEEPALIVE_MS = 25_000;
const MAX_URI = 2048;
/** Visible ASCII, as Streamable HTTP requires of a session id. */
const SESSION_ID = /^[\x21-\x7e]{1,128}$/;

const hash = (s: string) => createHash('sha256').update(s).digest('base64url');
const bare = (path: string) => path.replace(/^\/+/, '');

/** A fresh session id for an `initialize` answer. */
export const newSessionId = (): string => `mcps_${randomBytes(18).toString('base64url')}`;

/** The request's session id ('' for none); a malformed one is a 400. */
export function sessionOf(req: Request): string {
  const raw = req.headers[SESSION_HEADER];
  if (raw === undefined) return '';
  if (typeof raw !== 'string' || !SESSION_ID.test(raw)) {
    throw errors.validation('Mcp-Session-Id must be 1-128 visible ASCII characters');
  }
  return raw;
}

/** What a subscription is stored under: a file's path (what changes report) or the URI itself. */
function watchKey(uri: string): string {
  try {
    return `path:${bare(pathOfUri(uri))}`;
  } catch {
    // Not a file: accepted (the spec asks only that it be tracked) but nothing ever changes it.
    return `uri:${uri}`;
  }
}

export class ResourceSubscriptions {
  constructor(private readonly cache: CachePort) {}

  private prefix(principal: Principal, session: string): string {
    return `mcp-subs:${hash(`${mcpCaller(principal)}\n${session}`)}:`;
  }

  private key(principal: Principal, session: string, watched: string): string {
    return `${this.prefix(principal, session)}${hash(watched)}`;
  }

  async subscribe(principal: Principal, session: string, uri: string): Promise<void> {
    if (uri.length > MAX_URI) throw errors.validation(`A resource URI is at most ${MAX_URI} characters`);
    await this.cache.set(this.key(principal, session, watchKey(uri)), uri, { ttlMs: SUBSCRIPTION_TTL_MS });
  }

  async unsubscribe(principal: Principal, session: string, uri: string): Promise<void> {
    await this.cache.delete(this.key(principal, session, watchKey(uri)));
  }

  /** Every subscription of a session (`DELETE /mcp`). */
  async drop(principal: Principal, session: string): Promise<void> {
    const keys = await this.cache.list(this.prefix(principal, session), { limit: 10_000 });
    await Promise.all(keys.map((k) => this.cache.delete(k)));
  }

  /** The subscribed URI of a changed path, if any. */
  uriOf(principal: Principal, session: string, path: string): Promise<string | null> {
    return this.cache.get(this.key(principal, session, `path:${bare(path)}`));
  }

  /** Whether the session subscribed to this URI, one that is not a file (a connector's). */
  async follows(principal: Principal, session: string, uri: string): Promise<boolean> {
    return (await this.cache.get(this.key(principal, session, `uri:${uri}`))) !== null;
  }
}

/** A resource provider with the session's `resources/subscribe` and `unsubscribe`. */
export function withSubscribe(
  provider: McpResourceProvider,
  subs: ResourceSubscriptions,
  principal: Principal,
  session: string,
): McpResourceProvider {
  return {
    ...provider,
    subscribe: (uri) => subs.subscribe(principal, session, uri),
    unsubscribe: (uri) => subs.unsubscribe(principal, session, uri),
  };
}

/**
 * `GET /mcp` with `Accept: text/event-stream`: the session's stream of
 * `notifications/resources/updated`, open until the client closes it. Without that Accept: 405.
 */
export function sessionStream(
  system: Pick<ActorSystemApi, 'onBroadcast'>,
  subs: ResourceSubscriptions,
  principalOf: (res: Response) => Principal,
): RequestHandler {
  return (req, res) => {
    if (!(req.headers.accept ?? '').includes('text/event-stream')) {
      res.setHeader('Allow', 'POST, GET, DELETE');
      res.status(405).json({ error: 'GET /mcp answers only text/event-stream', code: 'METHOD_NOT_ALLOWED' });
      return;
    }
    const principal = principalOf(res);
    const session = sessionOf(req);
    const ownerKey = `agent:${callerAgentId(principal)}`;
    const stream = new McpEventStream(res);
    // Headers now: a client waits for them before it counts the stream as open.
    stream.open();
    res.write(': subscribed resources of this session\n\n');
    const off = system.onBroadcast(FILES_CHANGED_BROADCAST, (body) => {
      const b = body as { ownerKey?: unknown; paths?: unknown } | undefined;
      if (b?.ownerKey !== ownerKey || !Array.isArray(b.paths)) return;
      for (const p of new Set(b.paths)) {
        if (typeof p !== 'string') continue;
        void subs.uriOf(principal, session, p).then(
          (uri) => {
            if (uri)
              stream.send({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } });
          },
          () => undefined,
        );
      }
    });
    // The account's connectors' resources (connector://…), relayed from their servers.
    const offConnectors = onConnectorUpdates(system, principal.accountId, (uri) => {
      void subs.follows(principal, session, uri).then(
        (followed) => {
          if (followed)
            stream.send({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } });
        },
        () => undefined,
      );
    });
    const keepalive = setInterval(() => {
      if (!res.writableEnded) res.write(': keepalive\n\n');
    }, KEEPALIVE_MS);
    keepalive.unref();
    res.once('close', () => {
      off();
      offConnectors();
      clearInterval(keepalive);
    });
  };
}

/** `DELETE /mcp`: the client ends its session; its subscriptions go. 204. */
export function endSession(
  subs: ResourceSubscriptions,
  principalOf: (res: Response) => Principal,
): RequestHandler {
  return async (req, res) => {
    await subs.drop(principalOf(res), sessionOf(req));
    res.status(204).end();
  };
}
