import type { Request, Response } from 'express';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { EXECUTION_STATUSES } from '../../schemas/documents/execution';
import { HotHistogram, type HotSeries } from './hot-histogram';
import { registerMoreSeries, type MoreSources } from './more-series';

/**
 * The process's metrics (docs/operations.md, "Metrics"): Prometheus series in a registry of its
 * own (one per runtime, so several runtimes in one process stay apart), and the counts of the
 * last minute and hour that `GET /api/ops/metrics` summarises.
 *
 * The hot path (every HTTP request, every tool call) pays a timestamp, two nested map lookups for
 * the label set's series (created once per label set) and a few increments in place: no label
 * object, no string built per request (hot-histogram.ts; prom-client serves the rest). Labels are bounded: the route's pattern (never the URL), the
 * method, the status code; the tool's name only when it is a registered tool, else its family.
 */

const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const TOOL_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);
const T0 = Symbol('metrics.t0');

/** What the gauges read at scrape time. */
export interface MetricsSources extends Omit<MoreSources, 'sseStreams'> {
  /** Actors in memory, deliveries in flight, deferred works, requests waiting (system.status()). */
  actors(): { actors: number; inFlight: number; deferred: number; pendingRequests: number };
  /** The sandbox's threads and calls; absent on nodes without one. */
  sandbox?(): { threads: number; inFlight: number; queued: number };
  /** Executions per status (one count per status; cached briefly). */
  executionsByStatus(): Promise<Record<string, number>>;
  /** Whether a tool name is a registered tool (others are labelled by family). */
  isRegisteredTool(name: string): boolean;
}

/** Counts per minute over the last hour (60 slots, each stamped with its minute). */
class MinuteWindow {
  private readonly minutes = new Float64Array(60);
  private readonly counts = new Float64Array(60);

  add(now: number, n = 1): void {
    const minute = Math.floor(now / 60_000);
    const i = minute % 60;
    if (this.minutes[i] !== minute) {
      this.minutes[i] = minute;
      this.counts[i] = 0;
    }
    this.counts[i] += n;
  }

  /** Sum over the last `minutes` minutes (the current one included). */
  sum(now: number, minutes: number): number {
    const current = Math.floor(now / 60_000);
    let total = 0;
    for (let i = 0; i < 60; i++) {
      if (current - this.minutes[i] < minutes) total += this.counts[i];
    }
    return total;
  }
}

export class ServiceMetrics {
  readonly registry = new Registry();
  readonly startedAt = Date.now();
  readonly requests = new MinuteWindow();
  readonly serverErrors = new MinuteWindow();
  readonly toolCalls = new MinuteWindow();
  readonly toolErrors = new MinuteWindow();
  readonly http = new HotHistogram(
    'http_request_duration_seconds',
    'http_requests_total',
    'HTTP requests by method, route pattern and status code',
    ['method', 'route', 'status'],
    HTTP_BUCKETS,
  );
  readonly tools = new HotHistogram(
    'tool_call_duration_seconds',
    'tool_calls_total',
    'Tool calls run on this node by tool and outcome',
    ['tool', 'status'],
    TOOL_BUCKETS,
  );
  private readonly httpSeries = new Map<string, Map<number, HotSeries>>();
  private readonly toolSeries = new Map<string, Map<string, HotSeries>>();
  /** SSE streams open on this node: set by the metrics route once it knows the app. */
  sseStreams: (() => number) | undefined;
  /** Bound once: the `finish` listener of every response (no closure per request). */
  readonly onFinish: (this: Response) => void;

  constructor(private readonly sources: MetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    const actorGauge = (
      name: string,
      help: string,
      pick: (s: ReturnType<MetricsSources['actors']>) => number,
    ) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(pick(sources.actors()));
        },
      });
    actorGauge('actors_active', 'Actors in memory on this node', (s) => s.actors);
    actorGauge(
      'actor_mailbox_in_flight',
      'Deliveries accepted and not yet acknowledged on this node',
      (s) => s.inFlight,
    );
    actorGauge('actor_deferred_works', 'Deferred works still running on this node', (s) => s.deferred);
    actorGauge(
      'actor_pending_requests',
      'Requests of this node waiting for a reply',
      (s) => s.pendingRequests,
    );
    const sandbox = sources.sandbox;
    if (sandbox) {
      new Gauge({
        name: 'sandbox_threads',
        help: 'Sandbox worker threads',
        registers,
        collect() {
          this.set(sandbox().threads);
        },
      });
      new Gauge({
        name: 'sandbox_calls_in_flight',
        help: 'Sandbox calls queued or running',
        registers,
        collect() {
          this.set(sandbox().inFlight);
        },
      });
      new Gauge({
        name: 'sandbox_queue_depth',
        help: 'Sandbox calls waiting for a thread',
        registers,
        collect() {
          this.set(sandbox().queued);
        },
      });
    }
    new Gauge({
      name: 'executions',
      help: 'Executions by status (the whole cluster, from the document store)',
      labelNames: ['status'],
      registers,
      async collect() {
        const counts = await sources.executionsByStatus();
        for (const status of EXECUTION_STATUSES) this.set({ status }, counts[status] ?? 0);
      },
    });

    registerMoreSeries(this.registry, { ...sources, sseStreams: () => this.sseStreams?.() ?? 0 });

    const observe = this.observeHttp.bind(this);
    this.onFinish = function (this: Response) {
      const t0 = (this as unknown as Record<symbol, number | undefined>)[T0];
      if (t0 !== undefined) observe(this.req, this.statusCode, performance.now() - t0);
    };
  }

  /** Marks a request's start (its `finish` records it). */
  start(res: Response): void {
    (res as unknown as Record<symbol, number>)[T0] = performance.now();
    res.on('finish', this.onFinish);
  }

  /** One HTTP request: its route pattern (`unmatched` when no route took it), status and latency. */
  observeHttp(req: Request, status: number, ms: number): void {
    const route = (req.route as { path?: unknown } | undefined)?.path;
    const routeLabel = typeof route === 'string' ? route : 'unmatched';
    const method = METHODS.has(req.method) ? req.method : 'OTHER';
    let byStatus = this.httpSeries.get(routeLabel);
    if (!byStatus) this.httpSeries.set(routeLabel, (byStatus = new Map()));
    const key = status * 8 + methodIndex(method);
    let series = byStatus.get(key);
    if (!series) byStatus.set(key, (series = this.http.create([method, routeLabel, String(status)])));
    this.http.observe(series, ms / 1000);
    const now = Date.now();
    this.requests.add(now);
    if (status >= 500) this.serverErrors.add(now);
  }

  /** One tool call run on this node (its route record: tool, `ok`/`error`, duration in ms). */
  observeTool(tool: string, status: string, ms: number): void {
    const label = this.sources.isRegisteredTool(tool) ? tool : toolFamily(tool);
    let byStatus = this.toolSeries.get(label);
    if (!byStatus) this.toolSeries.set(label, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (!series)
      byStatus.set(status, (series = this.tools.create([label, status === 'ok' ? 'ok' : 'error'])));
    this.tools.observe(series, ms / 1000);
    const now = Date.now();
    this.toolCalls.add(now);
    if (status !== 'ok') this.toolErrors.add(now);
  }

  /** The whole scrape: the registry's series (process, gauges) and the hot path's. */
  async render(): Promise<string> {
    return `${await this.registry.metrics()}${this.http.render()}${this.tools.render()}`;
  }

  executionsByStatus(): Promise<Record<string, number>> {
    return this.sources.executionsByStatus();
  }
}

const methodIndex = (m: string) =>
  m === 'GET'
    ? 0
    : m === 'POST'
      ? 1
      : m === 'PUT'
        ? 2
        : m === 'PATCH'
          ? 3
          : m === 'DELETE'
            ? 4
            : m === 'HEAD'
              ? 5
              : m === 'OPTIONS'
                ? 6
                : 7;

/** An unregistered tool's family: `mcp` (connector tools), `skill` (catalog skills), else `other`. */
function toolFamily(tool: string): string {
  if (tool.startsWith('mcp.')) return 'mcp';
  if (tool.startsWith('platform.skill.')) return 'skill';
  return 'other';
}
