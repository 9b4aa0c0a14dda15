import type { ConnectorsOptions } from '../../actors/connectors/connectors';
import type { AnyStepRunner } from '../../actors/executions/step-runners';
import type { IdentityOptions } from '../../actors/identity/identity-options';
import type { SkillsOptions } from '../../actors/skills/skills.service';
import type { Duty } from '../../actors/operations/operations';
import type { PrivateDatabasesOptions } from '../../actors/tools/db';
import type { ToolRouterOptions } from '../../actors/tools/router/tool-router';
import { actorDefinitions, collectionDefinitions, routeModules } from '../../actors/registry';
import type { VaultOptions } from '../../actors/vault/vault';
import { AppError } from '../../schemas/errors';
import type { Config } from '../config/load-config';
import { resolveSecrets, type Secrets } from '../config/secrets';
import { buildApp, listen, type HttpServerHandle, type RouteModule } from '../http';
import { createActorSystem, type ActorSystem } from '../kernel';
import type { Logger } from '../logging/logger';
import { createCache, type CachePort } from '../store/cache';
import { openDocuments, type DocumentStore } from '../store/mongo';
import { redactUrl } from '../store/redact-url';
import { buildServices } from './build-services';
import { consoleDir } from './console-dir';
import { createDedupeStore } from './dedupe-factory';
import { createHttpAuth } from './http-auth';
import { createIdempotency } from './idempotency-factory';
import { startMetricsListener } from './metrics-listener';
import { createTransport } from './transport-factory';
import type { WorkAborter } from './work-aborter';

/** A running process of the service, whatever its role. */
export interface Runtime {
  readonly config: Config;
  readonly secrets: Secrets;
  readonly system: ActorSystem;
  readonly documents: DocumentStore;
  readonly cache: CachePort;
  /** Present when the role serves HTTP (`all`, `api`). */
  readonly http?: HttpServerHandle;
  /** The listener of `METRICS_PORT` (`http://host:port`), when set. */
  readonly metricsUrl?: string;
  /** Tool calls in flight on this node and their cancellation (the panic button). */
  readonly work: WorkAborter;
  /** Graceful stop, in reverse order of start: HTTP, actors and transport, cache, documents. */
  stop(graceMs?: number): Promise<void>;
}

/** Tuning of a runtime beyond its configuration (tests, benchmarks). */
export interface RuntimeOptions {
  /** Accounts and sessions: bcrypt cost, rate limits, mailer (defaults in identity-options.ts). */
  identity?: IdentityOptions;
  /** The tool router: per-agent rate limit, route record batching, … (actors/tools/router/tool-router.ts). */
  tools?: ToolRouterOptions;
  /** MCP connectors: session pool limits and timeouts (actors/connectors/connector-pool.ts). */
  connectors?: ConnectorsOptions;
  /** Private databases of the `db_*` tools: statement limits, name prefix, pools (actors/tools/db). */
  privateDatabases?: PrivateDatabasesOptions;
  /** The vault: clock, app permission checker, sweep interval (actors/vault/vault.ts). */
  vault?: VaultOptions;
  /** Executions: extra execution types this node runs (a test's or a benchmark's step runners). */
  executions?: { runners?: readonly AnyStepRunner[] };
  /** The skill store: its seed catalog (actors/skills/skills.service.ts). */
  skills?: SkillsOptions;
  /**
   * Extra route modules this node serves (a benchmark's reference route), registered right after
   * the first of the service's own (the metrics layer, which then times them too) and before the
   * others, so that a request to them walks as few router layers as the earliest routes.
   */
  routes?: readonly RouteModule[];
  /** The crew: extra background duties this node offers (a test's). */
  crew?: { duties?: readonly Duty[] };
}

/**
 * Starts the parts of the service this process's ROLE runs. Every dependency is created here and
 * passed down; nothing below reads the environment.
 */
export async function startRuntime(
  config: Config,
  logger: Logger,
  options: RuntimeOptions = {},
): Promise<Runtime> {
  if (config.ROLE !== 'all' && !config.AMQP_URL) {
    throw new AppError(
      'VALIDATION_ERROR',
      `ROLE=${config.ROLE} needs AMQP_URL: with the in-process transport a process can only talk to itself`,
    );
  }
  if (config.RATE_LIMITS === 'off') {
    logger.warn(
      'RATE_LIMITS=off: sign-in, sign-up, password reset, login links, session tokens and /register are not rate limited',
    );
  }
  const secrets = resolveSecrets(config);
  const hostsActors = config.ROLE !== 'api';
  const servesHttp = config.ROLE !== 'worker';

  const stack: Array<() => Promise<void>> = [];
  const unwind = async () => {
    for (const close of stack.reverse()) {
      await close().catch((err: unknown) => logger.error({ err }, 'shutdown step failed'));
    }
  };

  try {
    if (config.OTEL_EXPORTER_OTLP_ENDPOINT) {
      // Loaded only when tracing is on: without an endpoint no OpenTelemetry module is required.
      const { startTracing } =
        require('../telemetry/otel-tracing') as typeof import('../telemetry/otel-tracing');
      const tracing = startTracing({
        serviceName: config.OTEL_SERVICE_NAME,
        endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
      });
      stack.push(() => tracing.shutdown());
      logger.info(
        { endpoint: redactUrl(config.OTEL_EXPORTER_OTLP_ENDPOINT) },
        'tracing: spans exported over OTLP',
      );
    }
    const documents = await openDocuments(config, logger);
    stack.push(() => documents.close());
    // createCache names its own component in its log lines.
    const cache = await createCache(config, logger);
    stack.push(() => cache.close());

    const transport = createTransport(config, logger);
    // Shared with the other nodes when the cache is (Redis); closed after the system stops.
    const dedupe = createDedupeStore(cache, logger);
    if (dedupe) stack.push(async () => dedupe.close());
    const system = createActorSystem({
      transport,
      nodeId: config.NODE_ID,
      logger: logger.child({ component: 'kernel' }),
      defaultTimeoutMs: config.REQUEST_TIMEOUT_MS,
      idleMs: config.ACTOR_IDLE_MS,
      dedupe,
    });

    const services = buildServices(
      { config, secrets, logger, documents, cache, system, hostsActors },
      options,
      (close) => stack.push(close),
    );
    // Idempotent: every process may run it; the first creates, the others find them in place.
    await documents.ensureIndexes(collectionDefinitions);
    // Idempotent too: the seed catalogs of the skill store and the app store (built on its skills).
    await services.skills.seed();
    await services.apps.seed();
    // Revocations are durable in `revoked_tokens`; the cache (memory in embedded mode) gets them back.
    await services.tokens.warm();
    if (hostsActors) {
      for (const definition of actorDefinitions(services)) await system.register(definition);
    }
    await system.start();
    stack.push(() => system.stop());
    services.crew.start();

    let metricsUrl: string | undefined;
    if (config.METRICS_PORT > 0 && config.METRICS === 'on') {
      const listener = await startMetricsListener(services.metrics, {
        host: config.HOST,
        port: config.METRICS_PORT,
        token: config.METRICS_TOKEN,
        logger,
      });
      stack.push(() => listener.close());
      metricsUrl = listener.url;
      logger.info({ url: `${listener.url}/metrics` }, 'metrics listening');
    }

    let http: HttpServerHandle | undefined;
    if (servesHttp) {
      const auth = createHttpAuth(services);
      const idempotency = createIdempotency(cache, config, logger);
      stack.push(() => idempotency.close());
      const app = buildApp({
        config,
        logger,
        system,
        services,
        requireAuth: auth.requireAuth,
        optionalAuth: auth.optionalAuth,
        sessions: auth.session,
        idempotency: idempotency.keeper,
        routes: options.routes
          ? [...routeModules.slice(0, 1), ...options.routes, ...routeModules.slice(1)]
          : routeModules,
        console: { dir: consoleDir() },
        toolCount: () => services.toolRouter.registry.size,
      });
      http = await listen(app, { host: config.HOST, port: config.PORT });
      stack.push(() => http!.close());
      logger.info({ url: http.url, role: config.ROLE, transport: transport.name }, 'front door listening');
    } else {
      logger.info({ role: config.ROLE, transport: transport.name }, 'worker consuming');
    }

    let stopping: Promise<void> | undefined;
    return {
      config,
      secrets,
      system,
      documents,
      cache,
      http,
      metricsUrl,
      work: services.work,
      stop: () => (stopping ??= unwind()),
    };
  } catch (err) {
    await unwind();
    throw err;
  }
}
