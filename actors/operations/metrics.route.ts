import type { Request, Response, NextFunction } from 'express';
import { errors } from '../../schemas/errors';
import type { RouteModule } from '../../src/http/app.types';
import { openStreams } from '../../src/http/open-streams';
import { isOpsAdmin } from '../ops/health-view';
import type { HotHistogram, HotSeries } from './hot-histogram';
import type { ServiceMetrics } from './metrics';
import { createOpsAuth, type OpsAuthServices } from './ops-auth';

/** What the metrics routes read from the process's services. */
export interface MetricsRouteServices extends OpsAuthServices {
  readonly metrics: ServiceMetrics;
  readonly config: OpsAuthServices['config'] & {
    readonly METRICS: 'on' | 'off';
    readonly METRICS_TOKEN?: string;
  };
  readonly system: { status(): { nodeId: string; kinds: string[]; actors: number; inFlight: number } };
  readonly sandbox?: { stats(): { threads: number; inFlight: number; queued: number } };
}

/** Latency percentiles (ms: the upper bound of the bucket that holds them) per key of the series. */
function percentiles(histogram: HotHistogram, key: (labels: readonly string[]) => string) {
  const groups = new Map<string, HotSeries[]>();
  for (const series of histogram.series) {
    const k = key(series.labels);
    groups.set(k, [...(groups.get(k) ?? []), series]);
  }
  const ms = (seconds: number | null) => (seconds === null ? null : Math.round(seconds * 100_000) / 100);
  const out: Record<
    string,
    { count: number; p50Ms: number | null; p95Ms: number | null; p99Ms: number | null }
  > = {};
  for (const [k, series] of groups) {
    out[k] = {
      count: series.reduce((n, s) => n + s.count, 0),
      p50Ms: ms(histogram.quantile(series, 0.5)),
      p95Ms: ms(histogram.quantile(series, 0.95)),
      p99Ms: ms(histogram.quantile(series, 0.99)),
    };
  }
  return out;
}

/**
 * Metrics (docs/operations.md, "Metrics"): every request is timed from here (this module is
 * registered first, so its layer sees every routed request); `GET /metrics` is the Prometheus
 * scrape (bearer METRICS_TOKEN when set); `GET /api/ops/metrics` (no auth) is the summary, with
 * details for ops admins.
 */
export const metricsRoute: RouteModule<MetricsRouteServices> = (router, deps) => {
  const services = deps.services;
  if (!services) return;
  const { metrics } = services;
  const auth = createOpsAuth(services, deps);
  const token = services.config.METRICS_TOKEN;

  const on = services.config.METRICS === 'on';
  // METRICS=off: no layer, no scrape route (404 like any unknown path).
  if (on) {
    router.use((req: Request, res: Response, next: NextFunction) => {
      metrics.start(res);
      // The app's open SSE streams, known from its first request on (one check per request).
      if (!metrics.sseStreams) {
        const streams = openStreams(req.app);
        metrics.sseStreams = () => streams.size;
      }
      next();
    });
    router.get('/metrics', async (req, res) => {
      if (token && !isOpsAdmin(req.headers.authorization, token)) {
        throw errors.unauthorized('GET /metrics needs METRICS_TOKEN as bearer token');
      }
      res.set('Content-Type', metrics.registry.contentType).send(await metrics.render());
    });
  }

  router.get('/api/ops/metrics', async (req, res) => {
    const admin = await auth.isAdmin(req, res);
    const now = Date.now();
    const requestsHour = metrics.requests.sum(now, 60);
    const toolsHour = metrics.toolCalls.sum(now, 60);
    let executions: Record<string, number> | null = null;
    let status: 'ok' | 'degraded' = 'ok';
    try {
      executions = await metrics.executionsByStatus();
    } catch {
      status = 'degraded';
    }
    const summary = {
      status,
      uptimeSeconds: Math.round((now - metrics.startedAt) / 1000),
      requests: { lastMinute: metrics.requests.sum(now, 1), lastHour: requestsHour },
      toolCalls: { lastMinute: metrics.toolCalls.sum(now, 1), lastHour: toolsHour },
      errorRate: {
        requests: requestsHour ? metrics.serverErrors.sum(now, 60) / requestsHour : 0,
        toolCalls: toolsHour ? metrics.toolErrors.sum(now, 60) / toolsHour : 0,
      },
      executions,
    };
    const settings = {
      enabled: on,
      scope: 'this node',
      prometheus: on ? '/metrics' : null,
      metricsTokenRequired: !!token,
    };
    if (!admin) {
      res.json({ summary, settings, metrics: null, requiresAuthForDetails: true });
      return;
    }
    const system = services.system.status();
    res.json({
      summary,
      settings,
      metrics: {
        node: {
          nodeId: system.nodeId,
          kinds: system.kinds,
          actorsActive: system.actors,
          inFlight: system.inFlight,
        },
        routes: percentiles(metrics.http, ([method, route]) => `${method} ${route}`),
        tools: percentiles(metrics.tools, ([tool]) => tool),
        sandbox: services.sandbox?.stats() ?? null,
      },
      requiresAuthForDetails: false,
    });
  });
};
