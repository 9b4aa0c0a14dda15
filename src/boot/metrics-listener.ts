import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isOpsAdmin } from '../../actors/ops/health-view';
import type { ServiceMetrics } from '../../actors/operations/metrics';
import type { Logger } from '../logging/logger';

export interface MetricsListener {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * `GET /metrics` on a port of its own (`METRICS_PORT`): how Prometheus scrapes a worker, which has
 * no front door. Nothing else is served (404), `METRICS_TOKEN` is required as bearer when set
 * (401 otherwise), and the figures are this process's, as on the front door's `/metrics`.
 */
export async function startMetricsListener(
  metrics: ServiceMetrics,
  options: { host: string; port: number; token?: string; logger: Logger },
): Promise<MetricsListener> {
  const json = (res: http.ServerResponse, status: number, error: string, code: string) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error, code }));
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics') return json(res, 404, `No route ${path}`, 'NOT_FOUND');
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return json(res, 405, 'GET /metrics only', 'METHOD_NOT_ALLOWED');
    if (options.token && !isOpsAdmin(req.headers.authorization, options.token))
      return json(res, 401, 'GET /metrics needs METRICS_TOKEN as bearer token', 'UNAUTHORIZED');
    metrics.render().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      (err: unknown) => {
        options.logger.warn({ err }, 'metrics: scrape failed');
        json(res, 500, 'The metrics could not be collected', 'INTERNAL_ERROR');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
