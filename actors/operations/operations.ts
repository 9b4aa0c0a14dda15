import type { Services } from '../../src/boot/services';
import { executionsCollection } from '../executions/executions.collection';
import { executionTransitions } from '../executions/execution-transitions';
import { EXECUTION_STATUSES } from '../../schemas/documents/execution';
import type { CollectionDefinition } from '../../src/store/mongo';
import { CrewDocumentsStore } from './crew-documents.store';
import { deleteOldNotifications } from './notification-retention';
import type { InstalledFeaturesSource } from './crew-installed';
import { CrewService, type Duty } from './crew.service';
import { ServiceMetrics } from './metrics';

export { CrewService, type Duty, type DutyRun, type CrewView } from './crew.service';
export { createInstalledFeatures } from './installed-features';

/** How often the notification retention duty runs, ms. */
const RETENTION_INTERVAL_MS = 60 * 60_000;

/** Default interval of the vault's sweep of expired grants, ms. */
const VAULT_SWEEP_INTERVAL_MS = 30_000;

/**
 * This process's crew membership, with the background duties of the domains that have one. A
 * duty runs only on its feature's active node (and from `POST /api/ops/crew/cron`); processes that
 * host no actors (ROLE=api) offer none. Add a domain's duty here, one entry each.
 */
export function createCrew(
  services: Pick<
    Services,
    'config' | 'system' | 'cache' | 'logger' | 'documents' | 'executions' | 'vault' | 'sandbox' | 'netEgress'
  >,
  options: {
    hostsActors: boolean;
    vaultSweepIntervalMs?: number;
    duties?: readonly Duty[];
    /** Every collection definition, for bootstrap's index declaration. */
    collections?: readonly CollectionDefinition[];
    /** Catalog seeds bootstrap runs again (the skill store's). */
    seeds?: Readonly<Record<string, () => Promise<unknown>>>;
    /** The installed catalog skills and apps, shown as features (installed-features.ts). */
    installed?: InstalledFeaturesSource;
  },
): CrewService {
  const { config, system, cache, logger, executions, vault } = services;
  const runtime = options.hostsActors
    ? [...(services.sandbox ? ['sandbox'] : []), ...(services.netEgress ? ['http-egress'] : []), 'connectors']
    : [];
  // Several processes (a broker) and no Redis: the records go to the document store, which every
  // process shares, so each sees the others and a duty still runs once per tick in the cluster.
  const shared = !!config.AMQP_URL && cache.kind === 'memory';
  const crew = new CrewService({
    system,
    cache,
    ...(shared
      ? {
          store: {
            kind: 'documents' as const,
            records: new CrewDocumentsStore(services.documents, `${config.AMQP_PREFIX}:`),
          },
        }
      : {}),
    logger: logger.child({ component: 'crew' }),
    role: config.ROLE,
    heartbeatMs: config.CREW_HEARTBEAT_MS,
    runtime,
    cluster: config.AMQP_PREFIX,
    offersDuties: options.hostsActors,
    seeds: options.seeds,
    installed: options.installed,
    declareIndexes: () => services.documents.ensureIndexes(options.collections ?? []),
  });
  if (shared) logger.info('crew: REDIS_URL is unset, so the crew keeps its records in the document store');
  // Every node can run the duties from cron (they need only the stores); only nodes hosting
  // actors offer them to the crew, to run on their timers when active.
  const duties: Duty[] = [
    {
      name: 'execution-lease-sweeper',
      intervalMs: executions.sweepIntervalMs,
      run: () => executions.sweeper.sweep(),
    },
    {
      name: 'vault-grant-expiry',
      intervalMs: options.vaultSweepIntervalMs ?? VAULT_SWEEP_INTERVAL_MS,
      run: () => vault.sweep(),
    },
    {
      name: 'notification-retention',
      // 0 days: kept forever, and the duty is not offered.
      intervalMs: config.NOTIFICATION_RETENTION_DAYS > 0 ? RETENTION_INTERVAL_MS : 0,
      run: () => deleteOldNotifications(services.documents, config.NOTIFICATION_RETENTION_DAYS),
    },
  ];
  for (const duty of [...duties, ...(options.duties ?? [])]) crew.addDuty(duty);
  return crew;
}

/** How long the executions' counts per status are reused between scrapes, ms. */
const EXECUTION_COUNTS_TTL_MS = 5000;
const PLATFORM_PREFIX = 'platform.';

/** The process's metrics over its services (actors/operations/metrics.ts). */
export function createMetrics(
  services: Pick<Services, 'system' | 'sandbox' | 'documents' | 'toolRouter' | 'cache'> & {
    readonly crew?: Services['crew'];
  },
): ServiceMetrics {
  const { system, sandbox, documents, toolRouter, cache } = services;
  let counts: { at: number; value: Promise<Record<string, number>> } | undefined;
  const countExecutions = async () => {
    const repo = documents.repository(executionsCollection);
    const values = await Promise.all(EXECUTION_STATUSES.map((status) => repo.count({ status })));
    return Object.fromEntries(EXECUTION_STATUSES.map((status, i) => [status, values[i]]));
  };
  return new ServiceMetrics({
    actors: () => system.status(),
    ...(sandbox ? { sandbox: () => sandbox.stats() } : {}),
    executionsByStatus: () => {
      const now = Date.now();
      if (!counts || now - counts.at > EXECUTION_COUNTS_TTL_MS) {
        const value = countExecutions();
        counts = { at: now, value };
        value.catch(() => (counts = undefined));
      }
      return counts.value;
    },
    turnCounts: () => system.turnCounts(),
    // The kinds of every live node (the crew's view), so a front door reports the workers' queues.
    queues: async () => {
      const kinds = new Set(system.status().kinds);
      for (const node of services.crew?.current().nodes ?? []) for (const k of node.kinds) kinds.add(k);
      return (await system.queueStats([...kinds].sort())) ?? [];
    },
    cacheReads: () => cache.reads,
    executionTransitions: () => executionTransitions,
    // Built-in tools are recorded as `platform.<name>`; the registry knows them by bare name.
    isRegisteredTool: (name) =>
      name.startsWith(PLATFORM_PREFIX) &&
      toolRouter.registry.get(name.slice(PLATFORM_PREFIX.length)) !== undefined,
  });
}
