import type { Request, Response, NextFunction } from 'express';
import { errors } from '../../schemas/errors';
import type { RouteModule } from '../../src/http/app.types';
import type { Histogram } from 'prom-client';
import { isOpsAdmin } from '../ops/health-view';
import type { ServiceMetrics } from './metrics';
import { createOpsAuth, type OpsAuthServices } from './ops-auth';

/** What the metrics routes read from the process's services. */
export interface MetricsRouteServices extends OpsAuthServices {
  readonly metrics: ServiceMetrics;
  readonly config: OpsAuthServices['config'] & { readonly METRICS_TOKEN?: string };
  readonly system: { status(): { nodeId: string; kinds: string[]; actors: number; inFlight: number } };
  readonly sandbox?: { stats(): { threads: number; inFlight: number; queued: number } };
}

/** Latency percentiles (ms, upper bound of the bucket that holds them) per label set of a histogram. */
async function percentiles(histogram: Histogram<string>, key: (labels: Record<string, unknown>) => string) {
  const { values } = await histogram.get();
  const byKey = new Map<string, { buckets: Array<[number, number]>; count: number }>();
  for (const v of values) {
    if (v.metricName?.endsWith('_bucket') !== true) continue;
    const { le, ...labels } = v.labels as Record<string, unknown>;
    const k = key(labels);
    const entry = byKey.get(k) ?? { buckets: [], count: 0 };
    const bound = le === '+Inf' ? Infinity : Number(le);
    entry.buckets.push([bound, v.value]);
    if (bound === Infinity) entry.count += v.value;
    byKey.set(k, entry);
  }
  const out: Record<
    string,
    { count: number; p50Ms: number | null; p95Ms: number | null; p99Ms: number | null }
  > = {};
  for (const [k, { buckets }] of byKey) {
    // Label sets that differ only by status are merged: sum the cumulative counts per bound.
    const merged = new Map<number, number>();
    for (const [bound, n] of buckets) merged.set(bound, (merged.get(bound) ?? 0) + n);
    const sorted = [...merged].sort((a, b) => a[0] - b[0]);
    const total = sorted.at(-1)?.[1] ?? 0;
    const at = (q: number) => {
      const found = sorted.find(([, n]) => n >= q * total);
      return !found || total === 0
        ? null
        : found[0] === Infinity
          ? null
          : Math.round(found[0] * 1000 * 100) / 100;
    };
    out[k] = { count: total, p50Ms: at(0.5), p95Ms: at(0.95), p99Ms: at(0.99) };
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

  router.use((_req: Request, res: Response, next: NextFunction) => {
    metrics.start(res);
    next();
  });

  router.get('/metrics', async (req, res) => {
    if (token && !isOpsAdmin(req.headers.authorization, token)) {
      throw errors.unauthorized('GET /metrics needs METRICS_TOKEN as bearer token');
    }
    const text = await metrics.registry.metrics();
    res.set('Content-Type', metrics.registry.contentType).send(text);
  });

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
    const settings = { scope: 'this node', prometheus: '/metrics', metricsTokenRequired: !!token };
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
        routes: await percentiles(metrics.httpDuration, (l) => `${String(l.method)} ${String(l.route)}`),
        tools: await percentiles(metrics.toolDuration, (l) => String(l.tool)),
        sandbox: services.sandbox?.stats() ?? null,
      },
      requiresAuthForDetails: false,
    });
  });
};
