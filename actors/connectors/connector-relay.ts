import type { ConnectorDocument, ConnectorDocumentInput } from '../../schemas/documents/connector';
import { CONNECTOR_RESOURCE_UPDATED_BROADCAST } from '../../schemas/messages/connectors';
import type { ActorSystemApi } from '../../src/kernel';
import type { Logger } from '../../src/logging/logger';
import type { Repository } from '../../src/store/mongo';
import type { ConnectorPool } from './connector-pool';
import { Rediscovery, type UpstreamListener } from './connector-upstream';
import { discoveredUpdate } from './connectors.collection';

/** Limit of one re-discovery after a `tools/list_changed`, ms. */
const REDISCOVERY_TIMEOUT_MS = 20_000;

/**
 * What this process does with its connectors' unasked notifications (connector-upstream.ts): a
 * changed tool list is listed again on the same session and stored in the connector's document,
 * where `/mcp`'s `tools/list` reads it (the catalog is never served stale past that write); a
 * resource update goes to every node (`connector.resource-updated`), where the `/mcp` streams of
 * the account's subscribers relay it as `connector://<slug>/<uri>`.
 */
export function upstreamRelay(deps: {
  pool: ConnectorPool;
  system: Pick<ActorSystemApi, 'broadcast'>;
  /** Absent in processes without documents (none today): the tool list is then not re-stored. */
  repo?: Repository<ConnectorDocument, ConnectorDocumentInput>;
  logger: Logger;
}): UpstreamListener {
  const { pool, system, repo, logger: log } = deps;
  const rediscovery = new Rediscovery(async (spec) => {
    if (!repo) return;
    try {
      const found = await pool.discover(spec, { signal: AbortSignal.timeout(REDISCOVERY_TIMEOUT_MS) });
      await repo.findOneAndUpdate({ _id: spec.id, accountId: spec.accountId }, discoveredUpdate(found));
      log.debug({ connector: spec.slug, tools: found.tools.length }, 'connector tools listed again');
    } catch (err) {
      // The stored list stays as it was; the next refresh or notification tries again.
      log.warn(
        { connector: spec.slug, err: err instanceof Error ? err.message : String(err) },
        'connector tools not listed again after tools/list_changed',
      );
    }
  });
  return (spec, notification) => {
    switch (notification.method) {
      case 'notifications/tools/list_changed':
        void rediscovery.request(spec);
        return;
      case 'notifications/resources/updated':
        system
          .broadcast(CONNECTOR_RESOURCE_UPDATED_BROADCAST, {
            accountId: spec.accountId,
            slug: spec.slug,
            uri: notification.uri,
          })
          .catch((err: unknown) =>
            log.warn({ connector: spec.slug, err: String(err) }, 'connector resource update not relayed'),
          );
        return;
      default:
        // Resources and prompts are asked for at each listing: nothing is cached to drop.
        log.debug({ connector: spec.slug, method: notification.method }, 'connector catalog changed');
    }
  };
}
