import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../src/logging/logger';
import type { ConnectorSpec } from './mcp-session';

/**
 * What a connector's server tells us unasked (docs/connectors.md, "Upstream notifications"): the
 * four notifications an MCP server sends when its catalog or a subscribed resource changes. The
 * session hands them to the pool's listener (connectors.ts wires it): a changed tool list is
 * discovered again and stored, so the next `tools/list` of `/mcp` is fresh; a resource update is
 * broadcast to every node, whose `/mcp` streams tell the subscribers of `connector://<slug>/<uri>`.
 * Resources and prompts are not cached (every `/mcp` listing asks the server), so their
 * `list_changed` needs nothing more.
 *
 * The pool also keeps the upstream URIs subscribed through it, per connector, so that a session
 * opened again (after a failure, or on another start) subscribes to them again, and so that a
 * session with subscriptions is not closed for being idle (its updates would stop).
 */

export type UpstreamNotification =
  | { method: 'notifications/tools/list_changed' }
  | { method: 'notifications/resources/list_changed' }
  | { method: 'notifications/prompts/list_changed' }
  | { method: 'notifications/resources/updated'; uri: string };

export type UpstreamListener = (spec: ConnectorSpec, notification: UpstreamNotification) => void;

/** Most upstream URIs one connector keeps subscribed. */
export const MAX_UPSTREAM_SUBSCRIPTIONS = 1000;

/** Installs the handlers on a session's SDK client (before `connect`: nothing may be missed). */
export function listenUpstream(
  client: Client,
  spec: ConnectorSpec,
  listener: UpstreamListener | undefined,
): void {
  if (!listener) return;
  const tell = (n: UpstreamNotification) => {
    // A listener's failure must not break the session's message loop.
    try {
      listener(spec, n);
    } catch {
      // reported by the listener itself
    }
  };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () =>
    tell({ method: 'notifications/tools/list_changed' }),
  );
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () =>
    tell({ method: 'notifications/resources/list_changed' }),
  );
  client.setNotificationHandler(PromptListChangedNotificationSchema, () =>
    tell({ method: 'notifications/prompts/list_changed' }),
  );
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    if (typeof n.params.uri === 'string' && n.params.uri.length <= 4096)
      tell({ method: 'notifications/resources/updated', uri: n.params.uri });
  });
}

/** The upstream URIs subscribed through this process's pool, per connector id. */
export class UpstreamSubscriptions {
  private readonly byConnector = new Map<string, Set<string>>();

  add(connectorId: string, uri: string): void {
    const set = this.byConnector.get(connectorId) ?? new Set<string>();
    if (set.size >= MAX_UPSTREAM_SUBSCRIPTIONS && !set.has(uri)) return;
    set.add(uri);
    this.byConnector.set(connectorId, set);
  }

  remove(connectorId: string, uri: string): void {
    const set = this.byConnector.get(connectorId);
    set?.delete(uri);
    if (set?.size === 0) this.byConnector.delete(connectorId);
  }

  /** Forgets a connector (removed or disabled). */
  drop(connectorId: string): void {
    this.byConnector.delete(connectorId);
  }

  has(connectorId: string): boolean {
    return (this.byConnector.get(connectorId)?.size ?? 0) > 0;
  }

  /** Subscribes a freshly opened session to what the connector had (best effort, logged). */
  async renew(client: Client, spec: ConnectorSpec, timeoutMs: number, log: Logger): Promise<void> {
    const uris = [...(this.byConnector.get(spec.id) ?? [])];
    for (const uri of uris) {
      await client
        .subscribeResource({ uri }, { timeout: timeoutMs })
        .catch((err: unknown) =>
          log.warn(
            { connector: spec.slug, err: err instanceof Error ? err.message : String(err) },
            'upstream resource subscription not renewed',
          ),
        );
    }
  }
}

/**
 * Coalesces re-discoveries: one runs at a time per connector, and notifications that arrive while it
 * runs make one more run after it (a server that sends a burst costs two listings, not a burst).
 */
export class Rediscovery {
  private readonly running = new Map<string, { again: boolean }>();

  constructor(private readonly work: (spec: ConnectorSpec) => Promise<void>) {}

  request(spec: ConnectorSpec): Promise<void> {
    const current = this.running.get(spec.id);
    if (current) {
      current.again = true;
      return Promise.resolve();
    }
    const state = { again: false };
    this.running.set(spec.id, state);
    return (async () => {
      try {
        do {
          state.again = false;
          await this.work(spec);
        } while (state.again);
      } finally {
        this.running.delete(spec.id);
      }
    })();
  }
}
