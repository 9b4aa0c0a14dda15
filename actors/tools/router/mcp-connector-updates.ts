import type { Principal } from '../../../schemas/auth';
import { errors } from '../../../schemas/errors';
import {
  CONNECTOR_RESOURCE_UPDATED_BROADCAST,
  ConnectorResourceUpdatedBroadcastSchema,
} from '../../../schemas/messages/connectors';
import type { ActorSystemApi } from '../../../src/kernel';
import {
  connectorUri,
  parseConnectorUri,
  slugsOfListing,
  type ConnectorCatalog,
} from './mcp-connector-catalog';

/**
 * Updates of connector resources on `/mcp` (docs/connectors.md, "Upstream notifications"): a
 * subscription to `connector://<slug>/<uri>` (`resources/subscribe` of the 2025 eras, or
 * `subscriptions/listen` of 2026-07-28) subscribes the connector's session to `<uri>` upstream
 * (`connectors.forward`, as the caller, only for a connector its agent may reach); the server's
 * `notifications/resources/updated` then comes back as the `connector.resource-updated` broadcast
 * (actors/connectors/connector-relay.ts), heard by the account's streams on every node.
 */

/**
 * Subscribes upstream for a connector URI; resolves false for any other URI (nothing done).
 * `listing` is the caller's `tools/list` (its `mcp.<slug>.*` names say which connectors it reaches).
 */
export type UpstreamSubscribe = (uri: string) => Promise<boolean>;

export function upstreamSubscriber(
  catalog: ConnectorCatalog | undefined,
  principal: Principal,
  listing: () => Promise<readonly unknown[]>,
): UpstreamSubscribe {
  return async (uri) => {
    const target = parseConnectorUri(uri);
    if (!target) return false;
    const accountId = principal.accountId;
    if (!catalog || !accountId || !slugsOfListing(await listing()).includes(target.slug)) {
      throw errors.notFound(`No such connector: ${target.slug.slice(0, 100)}`);
    }
    await catalog.forward(accountId, target.slug, 'resources/subscribe', { uri: target.uri }, principal);
    return true;
  };
}

/** Calls `send` with the federated URI of each resource update of `accountId`'s connectors. */
export function onConnectorUpdates(
  system: Pick<ActorSystemApi, 'onBroadcast'>,
  accountId: string | undefined,
  send: (uri: string) => void,
): () => void {
  if (!accountId) return () => undefined;
  return system.onBroadcast(CONNECTOR_RESOURCE_UPDATED_BROADCAST, (body) => {
    const parsed = ConnectorResourceUpdatedBroadcastSchema.safeParse(body);
    if (parsed.success && parsed.data.accountId === accountId) {
      send(connectorUri(parsed.data.slug, parsed.data.uri));
    }
  });
}
