import packageJson from '../../package.json';
import {
  CONNECTOR_CLOSED_BROADCAST,
  ConnectorClosedBroadcastSchema,
} from '../../schemas/messages/connectors';
import type { Services } from '../../src/boot/services';
import type { Config } from '../../src/config/load-config';
import type { Secrets } from '../../src/config/secrets';
import type { ActorSystemApi } from '../../src/kernel';
import type { AnyActorDefinition } from '../../src/kernel/actor-definition';
import type { Logger } from '../../src/logging/logger';
import type { DocumentStore } from '../../src/store/mongo';
import { accountsCollection } from '../identity/accounts.collection';
import { ConnectorPool, type ConnectorPoolOptions } from './connector-pool';
import { rekeyConnectors, type ConnectorRekeyReport } from './connector-rekey';
import { ConnectorSealer } from './connector-secrets';
import { createConnectorTools, type ConnectorTools } from './connector-tools';
import { createConnectorCatalog, type ConnectorCatalogClient } from './connector-federation';
import { upstreamRelay } from './connector-relay';
import { connectorsActor } from './connectors.actor';
import { connectorsCollection } from './connectors.collection';
import { loggedRekeyPass } from '../vault/vault-rekey';

/** Collections of connectors (indexes ensured at boot). */
export const connectorsCollections = [connectorsCollection] as const;

/**
 * The connectors of this process: the MCP session pool (one per process: its sessions and child
 * processes belong to it) and the router-facing functions. Created by `startRuntime`, closed at stop.
 */
export interface ConnectorsService {
  readonly pool: ConnectorPool;
  /** `callConnectorTool`, `listConnectorTools` and the router's resolver hook (`resolve`). */
  readonly tools: ConnectorTools;
  /** The router's way to connectors' resources, prompts and completions (connector-federation.ts). */
  readonly catalog: ConnectorCatalogClient;
  /**
   * Starts the re-sealing pass of connector values under the current master key (nodes hosting
   * actors, at startup, beside the vault's: docs/connectors.md "Master key rotation"). Resolves
   * its report (`undefined` when it failed: values are then re-sealed as connectors are used);
   * `close()` waits for it.
   */
  startRekey(deps: { documents: DocumentStore; secrets: Secrets }): Promise<ConnectorRekeyReport | undefined>;
  /** Closes every session (children end) and stops listening to broadcasts. */
  close(): Promise<void>;
}

/** The connectors' sealer: the current master key, and the previous ones (rotation). */
export function connectorSealerOf(secrets: Secrets): ConnectorSealer {
  return new ConnectorSealer(secrets.vaultMasterKey, secrets.vaultPreviousMasterKeys ?? []);
}

/** Tuning beyond the configuration (tests). */
export type ConnectorsOptions = Partial<
  Omit<ConnectorPoolOptions, 'logger' | 'allowLoopback' | 'stdioAllowlist'>
>;

export function createConnectorsService(
  config: Config,
  logger: Logger,
  system: ActorSystemApi,
  options: ConnectorsOptions = {},
  /** Where a changed upstream tool list is stored again (connector-relay.ts). */
  documents?: DocumentStore,
): ConnectorsService {
  const pool = new ConnectorPool({
    ...options,
    logger: logger.child({ component: 'connectors' }),
    allowLoopback: config.ALLOW_LOOPBACK_HTTP,
    stdioAllowlist: config.MCP_STDIO_ALLOWLIST,
    clientVersion: options.clientVersion ?? packageJson.version,
  });
  // The servers' unasked notifications: tool lists stored again, resource updates relayed.
  pool.onUpstream(
    upstreamRelay({
      pool,
      system,
      repo: documents?.repository(connectorsCollection),
      logger: logger.child({ component: 'connectors' }),
    }),
  );
  // A connector removed or disabled anywhere: its sessions (and upstream subscriptions) on this node end too.
  const off = system.onBroadcast(CONNECTOR_CLOSED_BROADCAST, (body) => {
    const parsed = ConnectorClosedBroadcastSchema.safeParse(body);
    if (!parsed.success) return;
    pool.subscriptions.drop(parsed.data.connectorId);
    void pool.close(parsed.data.connectorId);
  });
  const tools = createConnectorTools(system, {
    callTimeoutMs: pool.callTimeout(),
    maxCallTimeoutMs: pool.callTimeout(Number.MAX_SAFE_INTEGER),
  });
  const log = logger.child({ component: 'connectors' });
  let rekeying: Promise<ConnectorRekeyReport | undefined> | undefined;
  return {
    pool,
    tools,
    catalog: createConnectorCatalog(system),
    startRekey: ({ documents, secrets }) => {
      const sealer = connectorSealerOf(secrets);
      // Once per process: the pass starts on the first call only.
      return (rekeying ??= loggedRekeyPass(
        rekeyConnectors(documents.repository(connectorsCollection), sealer, log),
        log,
        'connectors',
        sealer.keyId,
        'used',
      ));
    },
    close: async () => {
      off();
      await rekeying;
      await pool.closeAll();
    },
  };
}

/** The `connectors` actor, from the services (needs `services.connectors`). */
export function connectorsActors(services: Services): AnyActorDefinition[] {
  const connectors = services.connectors;
  if (!connectors) return [];
  const accounts = services.documents.repository(accountsCollection);
  return [
    connectorsActor({
      repo: services.documents.repository(connectorsCollection),
      pool: connectors.pool,
      sealer: connectorSealerOf(services.secrets),
      stdioAllowlist: services.config.MCP_STDIO_ALLOWLIST,
      planOf: async (accountId) => (await accounts.findById(accountId))?.plan,
      announceClosed: (connectorId) => services.system.broadcast(CONNECTOR_CLOSED_BROADCAST, { connectorId }),
    }),
  ];
}
