import packageJson from '../../package.json';
import {
  CONNECTOR_CLOSED_BROADCAST,
  ConnectorClosedBroadcastSchema,
} from '../../schemas/messages/connectors';
import type { Services } from '../../src/boot/services';
import type { Config } from '../../src/config/load-config';
import type { ActorSystemApi } from '../../src/kernel';
import type { AnyActorDefinition } from '../../src/kernel/actor-definition';
import type { Logger } from '../../src/logging/logger';
import { accountsCollection } from '../identity/accounts.repo';
import { ConnectorPool, type ConnectorPoolOptions } from './connector-pool';
import { ConnectorSealer } from './connector-secrets';
import { createConnectorTools, type ConnectorTools } from './connector-tools';
import { connectorsActor } from './connectors.actor';
import { connectorsCollection } from './connectors.collection';

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
  /** Closes every session (children end) and stops listening to broadcasts. */
  close(): Promise<void>;
}

declare module '../../src/boot/services' {
  interface Services {
    /** MCP connectors: pool and router functions (actors/connectors/connectors.ts). */
    readonly connectors?: ConnectorsService;
  }
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
): ConnectorsService {
  const pool = new ConnectorPool({
    ...options,
    logger: logger.child({ component: 'connectors' }),
    allowLoopback: config.ALLOW_LOOPBACK_HTTP,
    stdioAllowlist: config.MCP_STDIO_ALLOWLIST,
    clientVersion: options.clientVersion ?? packageJson.version,
  });
  // A connector removed or disabled anywhere: its sessions on this node end too.
  const off = system.onBroadcast(CONNECTOR_CLOSED_BROADCAST, (body) => {
    const parsed = ConnectorClosedBroadcastSchema.safeParse(body);
    if (parsed.success) void pool.close(parsed.data.connectorId);
  });
  const tools = createConnectorTools(system, {
    callTimeoutMs: pool.callTimeout(),
    maxCallTimeoutMs: pool.callTimeout(Number.MAX_SAFE_INTEGER),
  });
  return {
    pool,
    tools,
    close: async () => {
      off();
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
      sealer: new ConnectorSealer(services.secrets.vaultMasterKey),
      stdioAllowlist: services.config.MCP_STDIO_ALLOWLIST,
      planOf: async (accountId) => (await accounts.findById(accountId))?.plan,
      announceClosed: (connectorId) => services.system.broadcast(CONNECTOR_CLOSED_BROADCAST, { connectorId }),
    }),
  ];
}
