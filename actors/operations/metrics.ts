import type { Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { EXECUTION_STATUSES } from '../../schemas/documents/execution';

/**
 * The process's metrics (docs/operations.md, "Metrics"): Prometheus series in a registry of its
 * own (one per runtime, so several runtimes in one process stay apart), and the counts of the
 * last minute and hour that `GET /api/ops/metrics` summarises.
 *
 * The hot path (every HTTP request, every tool call) pays a timestamp, two nested map lookups for
 * the label set's children (created once per label set) and their increments: no label object,
 * no string built per request. Labels are bounded: the route's pattern (never the URL), the
 * method, the status code; the tool's name only when it is a registered tool, else its family.
 */

const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const TOOL_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);
const T0 = Symbol('metrics.t0');

/** What the gauges read at scrape time. */
export interface MetricsSources {
  /** Actors in memory, deliveries in flight, deferred works, requests waiting (system.status()). */
  actors(): { actors: number; inFlight: number; deferred: number; pendingRequests: number };
  /** The sandbox's threads and calls; absent on nodes without one. */
  sandbox?(): { threads: number; inFlight: number; queued: number };
  /** Executions per status (one count per status; cached briefly). */
  executionsByStatus(): Promise<Record<string, number>>;
  /** Whether a tool name is a registered tool (others are labelled by family). */
  isRegisteredTool(name: string): boolean;
}

interface HttpChild {
  count: { inc(): void };
  duration: { observe(v: number): void };
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
  private readonly httpCount: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  private readonly toolCount: Counter<'tool' | 'status'>;
  readonly toolDuration: Histogram<'tool' | 'status'>;
  private readonly httpChildren = new Map<string, Map<number, HttpChild>>();
  private readonly toolChildren = new Map<string, Map<string, HttpChild>>();
  /** Bound once: the `finish` listener of every response (no closure per request). */
  readonly onFinish: (this: Response) => void;

  constructor(private readonly sources: MetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.httpCount = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by method, route pattern and status code',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by method, route pattern and status code',
      labelNames: ['method', 'route', 'status'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.toolCount = new Counter({
      name: 'tool_calls_total',
      help: 'Tool calls run on this node by tool and outcome',
      labelNames: ['tool', 'status'],
      registers,
    });
    this.toolDuration = new Histogram({
      name: 'tool_call_duration_seconds',
      help: 'Tool call latency on this node by tool and outcome',
      labelNames: ['tool', 'status'],
      buckets: TOOL_BUCKETS,
      registers,
    });
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
    let byStatus = this.httpChildren.get(routeLabel);
    if (!byStatus) this.httpChildren.set(routeLabel, (byStatus = new Map()));
    const key = status * 8 + methodIndex(method);
    let child = byStatus.get(key);
    if (!child) {
      const labels = { method, route: routeLabel, status: String(status) };
      child = { count: this.httpCount.labels(labels), duration: this.httpDuration.labels(labels) };
      byStatus.set(key, child);
    }
    child.count.inc();
    child.duration.observe(ms / 1000);
    const now = Date.now();
    this.requests.add(now);
    if (status >= 500) this.serverErrors.add(now);
  }

  /** One tool call run on this node (its route record: tool, `ok`/`error`, duration in ms). */
  observeTool(tool: string, status: string, ms: number): void {
    const label = this.sources.isRegisteredTool(tool) ? tool : toolFamily(tool);
    let byStatus = this.toolChildren.get(label);
    if (!byStatus) this.toolChildren.set(label, (byStatus = new Map()));
    let child = byStatus.get(status);
    if (!child) {
      const labels = { tool: label, status: status === 'ok' ? 'ok' : 'error' };
      child = { count: this.toolCount.labels(labels), duration: this.toolDuration.labels(labels) };
      byStatus.set(status, child);
    }
    child.count.inc();
    child.duration.observe(ms / 1000);
    const now = Date.now();
    this.toolCalls.add(now);
    if (status !== 'ok') this.toolErrors.add(now);
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
