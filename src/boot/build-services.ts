import { appInstallUndoer } from '../../actors/apps/app-install-undoer';
import { createAppsService } from '../../actors/apps/apps.service';
import { createConnectorsService } from '../../actors/connectors/connectors';
import { createExecutionsService } from '../../actors/executions/executions';
import { FileStore, FILES_CHANGED_BROADCAST } from '../../actors/files/file-store';
import { FilesApi } from '../../actors/files/files-api.service';
import { identityOptionsFor } from '../../actors/identity/identity-options';
import { RevokedTokensRepo } from '../../actors/identity/revoked-tokens.repo';
import { TokenService } from '../../actors/identity/token-service';
import { MemoryApi, memoryUndoer } from '../../actors/memory/memory';
import { skillUseRunner } from '../../actors/skills/skill-use.runner';
import { createSkillsService } from '../../actors/skills/skills.service';
import { createSocialService } from '../../actors/social/social.service';
import { collectionDefinitions } from '../../actors/collections';
import { createCrew, createInstalledFeatures, createMetrics } from '../../actors/operations/operations';
import { createStudioEnv, studioRunners } from '../../actors/studio/studio';
import { PLATFORM_TOOLS } from '../../actors/tools/platform-tools';
import { createToolRouter } from '../../actors/tools/router/tool-router';
import { toolTaskRunner } from '../../actors/tools/router/tool-task.runner';
import { createVaultService } from '../../actors/vault/vault';
import { InvitationsApi, WorkspacesApi } from '../../actors/workspaces/workspaces';
import { createLazyHttpEgress } from './egress-factory';
import { createLazyPrivateDatabases } from './private-db-factory';
import type { RuntimeOptions } from './runtime';
import { createLazySandbox } from './sandbox-factory';
import type { Services } from './services';
import { createWorkAborter } from './work-aborter';

/** What the services are built on: the plumbing `startRuntime` opened first. */
export interface ServiceFoundations extends Pick<
  Services,
  'config' | 'secrets' | 'logger' | 'documents' | 'cache' | 'system'
> {
  /** This process hosts actors (ROLE all or worker): sandbox, egress and databases exist here. */
  readonly hostsActors: boolean;
}

/** `Services` while it is being filled in, field by field, in dependency order. */
type Building = { -readonly [K in keyof Services]?: Services[K] };

/**
 * Builds every service of the process, in dependency order, and pushes each closer onto the
 * shutdown stack (closed in reverse). Domain services receive the services object itself and read
 * the other services they need when called, so the order here only has to respect what a
 * constructor reads at once (written next to each step).
 */
export function buildServices(
  base: ServiceFoundations,
  options: RuntimeOptions,
  onClose: (close: () => Promise<void>) => void,
): Services {
  const { config, secrets, logger, documents, cache, system, hostsActors } = base;
  const s: Building = {
    config,
    secrets,
    logger,
    documents,
    cache,
    system,
    identity: identityOptionsFor(config, options.identity),
  };
  const services = s as Services;

  s.tokens = new TokenService(secrets.jwtSecret, cache, undefined, {
    revocations: new RevokedTokensRepo(documents),
    broadcasts: system,
    logger: logger.child({ component: 'tokens' }),
  });
  onClose(async () => s.tokens!.close());
  // One sandbox per worker process (started on first use); closed after the actors have stopped.
  s.sandbox = hostsActors ? createLazySandbox(config, logger) : undefined;
  if (s.sandbox) onClose(() => s.sandbox!.close());
  // Outbound HTTP (`net_*`) and the private databases (`db_*`), one each per worker process,
  // created on first use; the databases close after the actors have stopped.
  s.netEgress = hostsActors ? createLazyHttpEgress(config, logger) : undefined;
  s.privateDatabases = hostsActors
    ? createLazyPrivateDatabases(config, logger, options.privateDatabases)
    : undefined;
  if (s.privateDatabases) onClose(() => s.privateDatabases!.close());
  // Route records are flushed after the actors have stopped (their last calls included).
  s.toolRouter = createToolRouter(
    { config, logger, documents, cache, system },
    {
      rateLimit: config.RATE_LIMIT_TOOL_CALLS_PER_AGENT,
      // The social connector's tool is served only when it is enabled (docs/social.md).
      tools: config.SOCIAL_ENABLED ? PLATFORM_TOOLS : PLATFORM_TOOLS.filter((t) => t.name !== 'social_draft'),
      ...options.tools,
    },
  );
  onClose(() => s.toolRouter!.close());
  // MCP connector sessions (and their child processes) end after the actors have stopped.
  s.connectors = createConnectorsService(config, logger, system, options.connectors, documents);
  onClose(() => s.connectors!.close());
  s.toolRouter.resolvers.connector = s.connectors.tools;
  s.toolRouter.resolvers.connectorCatalog = s.connectors.catalog;
  s.work = createWorkAborter({ sandbox: s.sandbox, egress: s.netEgress, connectors: s.connectors.pool });
  // The app store before the vault and the skill store: it answers the vault's app permission
  // check and the apps of developer profiles; it reads `skills` only when called.
  s.apps = createAppsService(services);
  // The vault's cipher and credential checks (every node); sweep and panic listener (workers).
  // Its sweep of expired grants is a crew duty (below): it runs on the duty's active node only.
  // Apps may receive secrets as the app store's installations say.
  s.vault = createVaultService(
    { documents, system, secrets, logger, hostsActors },
    {
      ...options.vault,
      sweepIntervalMs: 0,
      appPermissions: options.vault?.appPermissions ?? s.apps.permissions,
    },
  );
  onClose(() => s.vault!.close());
  // Connector values under a previous master key move to the current one, as the vault's do.
  if (hostsActors) void s.connectors.startRekey({ documents, secrets });

  // Workspaces first: files, memory, executions and the vault ask it who is a member.
  s.workspaces = new WorkspacesApi(services);
  s.invitations = new InvitationsApi(s.workspaces);
  s.files = new FileStore(documents, {
    logger: logger.child({ component: 'files' }),
    // Every node hears of every change (MCP resource subscriptions, actors/tools/router).
    onChange: (ownerKey, paths) =>
      void services.system.broadcast(FILES_CHANGED_BROADCAST, { ownerKey, paths }).catch(() => undefined),
  });
  // Executions read `work` at once; the step runners and undoers read the rest when they run.
  s.executions = createExecutionsService(services);
  onClose(async () => s.executions!.close());
  s.filesApi = new FilesApi(services);
  s.memory = new MemoryApi(services);
  s.studio = createStudioEnv(services);
  s.skills = createSkillsService(services, {
    ...options.skills,
    apps: options.skills?.apps ?? s.apps.catalog,
  });
  // Installed skills' capabilities are tools `platform.skill.<slug>.<capability>` (docs/skills.md).
  s.toolRouter.resolvers.skill = s.skills.tools;
  // Effects and execution types of the domains that record their work as executions.
  s.executions.undoers.register(memoryUndoer).register(appInstallUndoer);
  for (const runner of [
    ...studioRunners,
    skillUseRunner,
    toolTaskRunner,
    ...(options.executions?.runners ?? []),
  ])
    s.executions.runners.register(runner);
  // Metrics: HTTP requests (metrics.route.ts), tool calls (route records), gauges read at scrape.
  s.metrics = createMetrics(services);
  if (config.METRICS === 'on') {
    s.toolRouter.recorder.observers.push((r) => s.metrics!.observeTool(r.tool, r.status, r.durationMs));
  }
  // The optional social connector: X calls through the same egress as the `net_*` tools (one of
  // its own on a front door without actors); its publisher is a crew duty (below).
  s.social = config.SOCIAL_ENABLED
    ? createSocialService(services, { egress: s.netEgress ?? createLazyHttpEgress(config, logger) })
    : undefined;
  // The crew: started by `startRuntime` once the actor kinds are registered; leaves it first.
  s.crew = createCrew(services, {
    hostsActors,
    vaultSweepIntervalMs: options.vault?.sweepIntervalMs,
    duties: [
      // Installations behind their app's latest version: marked, and their accounts notified.
      {
        name: 'app-update-refresh',
        intervalMs: config.APP_UPDATE_REFRESH_INTERVAL_MS,
        run: () => s.apps!.refreshUpdates(),
      },
      ...(s.social ? [s.social.duty] : []),
      ...(options.crew?.duties ?? []),
    ],
    collections: collectionDefinitions,
    seeds: { skills: () => s.skills!.seed(), apps: () => s.apps!.seed() },
    // The installed catalog skills and apps are features too, each needing the runtime functions
    // it uses (read from the installations on a heartbeat, every few beats).
    installed: createInstalledFeatures(documents),
  });
  onClose(() => s.crew!.stop());
  return Object.freeze(services);
}
