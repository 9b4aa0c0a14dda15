import type { Services } from '../../src/boot/services';
import { CrewService, type Duty } from './crew.service';

export { CrewService, type Duty, type DutyRun, type CrewView } from './crew.service';

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
    'config' | 'system' | 'cache' | 'logger' | 'executions' | 'vault' | 'sandbox' | 'netEgress'
  >,
  options: { hostsActors: boolean; vaultSweepIntervalMs?: number; duties?: readonly Duty[] },
): CrewService {
  const { config, system, cache, logger, executions, vault } = services;
  const runtime = options.hostsActors
    ? [...(services.sandbox ? ['sandbox'] : []), ...(services.netEgress ? ['http-egress'] : []), 'connectors']
    : [];
  const crew = new CrewService({
    system,
    cache,
    logger: logger.child({ component: 'crew' }),
    role: config.ROLE,
    heartbeatMs: config.CREW_HEARTBEAT_MS,
    runtime,
    cluster: config.AMQP_PREFIX,
    offersDuties: options.hostsActors,
  });
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
  ];
  for (const duty of [...duties, ...(options.duties ?? [])]) crew.addDuty(duty);
  return crew;
}
