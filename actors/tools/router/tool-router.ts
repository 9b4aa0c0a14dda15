import type { ConnectorCatalog } from './mcp-connector-catalog';
import type { Config } from '../../../src/config/load-config';
import { defaultRateLimit } from '../../../src/config/rate-limits';
import type { ActorSystemApi } from '../../../src/kernel';
import type { Logger } from '../../../src/logging/logger';
import { createRateLimiter, type CachePort } from '../../../src/store/cache';
import type { DocumentStore } from '../../../src/store/mongo';
import { PLATFORM_TOOLS } from '../platform-tools';
import { PanicGate } from './panic-gate';
import { ReservingLimiter } from './reserving-limiter';
import type { RouteQueries } from './route-queries';
import { routeRecordsOn, type RouteRecorder, type RouteRecorderOptions } from './route-records';
import type { AnyToolDeclaration } from './tool-declaration';
import { toolDeadlineMs } from './tool-deadline';
import { ToolRegistry, type ExternalToolResolver, type ToolTarget } from './tool-registry';

/** Tuning of the tool router (`startRuntime(config, logger, { tools })`). */
export interface ToolRouterOptions {
  /** Calls per agent per window. Default 600 per 60 s. */
  rateLimit?: { points: number; durationSec: number };
  /** Batching of route records (default: every 500 ms or 200 records). */
  routeRecords?: RouteRecorderOptions;
  /** How long a workspace's panic flag is memoised per process, in ms. Default 1000. */
  panicMemoMs?: number;
  /** The built-in tools. Default `PLATFORM_TOOLS` (actors/tools/platform-tools.ts). */
  tools?: readonly AnyToolDeclaration[];
}

/** Default per-agent rate limit of tool calls (RATE_LIMIT_TOOL_CALLS_PER_AGENT's default; `startRuntime` passes the variable). */
export const DEFAULT_TOOL_RATE_LIMIT = defaultRateLimit('RATE_LIMIT_TOOL_CALLS_PER_AGENT');

/**
 * The tool router of one process, created once by `startRuntime` (`services.toolRouter`): the
 * registry (front door and workers), and the per-process parts the agent actors use (rate
 * limiter, panic gate, route recorder) plus the hooks for connector and skill tools.
 */
export interface ToolRouter {
  readonly registry: ToolRegistry;
  /** Per-agent call limit, shared through the cache, taken in chunks (reserving-limiter.ts). */
  readonly limiter: ReservingLimiter;
  readonly panic: PanicGate;
  readonly recorder: RouteRecorder;
  readonly routes: RouteQueries;
  /**
   * Resolvers of connector (`mcp.<server>.<tool>`) and skill (`platform.skill.…`) tools
   * (`buildServices` installs the connectors' and the skill store's).
   */
  readonly resolvers: {
    connector?: ExternalToolResolver;
    skill?: ExternalToolResolver;
    /** Connectors' resources, prompts and completions for `/mcp` (mcp-connector-catalog.ts). */
    connectorCatalog?: ConnectorCatalog;
  };
  /**
   * Deadline of a call to `target`, in ms: REQUEST_TIMEOUT_MS, raised for tools that may run
   * longer (the declaration's or the resolver's `maxDurationMs` + slack; tool-deadline.ts).
   */
  deadlineMs(target: ToolTarget): number;
  /** Writes the buffered route records and stops listening to broadcasts. */
  close(): Promise<void>;
}

export interface ToolRouterDeps {
  config: Config;
  logger: Logger;
  documents: DocumentStore;
  cache: CachePort;
  system: Pick<ActorSystemApi, 'onBroadcast'>;
}

export function createToolRouter(deps: ToolRouterDeps, options: ToolRouterOptions = {}): ToolRouter {
  const registry = new ToolRegistry(options.tools ?? PLATFORM_TOOLS);
  const rate = options.rateLimit ?? DEFAULT_TOOL_RATE_LIMIT;
  const limiter = new ReservingLimiter(
    createRateLimiter(deps.cache, { keyPrefix: 'rl:tool-call', ...rate }),
    rate.points,
  );
  const panic = new PanicGate(deps.cache, deps.system, options.panicMemoMs);
  const { recorder, queries } = routeRecordsOn(
    deps.documents,
    deps.logger.child({ component: 'route-records' }),
    options.routeRecords,
  );
  const base = deps.config.REQUEST_TIMEOUT_MS;
  const resolvers: ToolRouter['resolvers'] = {};
  return {
    registry,
    limiter,
    panic,
    recorder,
    routes: queries,
    resolvers,
    deadlineMs: (target) => toolDeadlineMs(target, base, resolvers),
    close: async () => {
      panic.close();
      await recorder.close();
    },
  };
}
