/**
 * An HTTP server of the benchmark in its own process, so that autocannon (in the parent) does not
 * share its event loop.
 *
 * MODE = 'bare': a bare Express app whose `GET /health` returns BODY (JSON) with a fresh timestamp.
 * MODE = 'runtime': the real service, `startRuntime(loadConfig(BENCH_CONFIG))` (BENCH_CONFIG is the
 *   JSON of the variables to use: ROLE, DATA_DIR, PORT, AMQP_URL, AMQP_PREFIX...; nothing else of
 *   this process's environment is read), with a real logger at `warn` (no line per request).
 *
 * IPC: `{ event: 'ready', url?, kinds, nodeId }` once serving; `{ cmd: 'stop' }` stops it.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { startRuntime } from '../../src/boot/runtime';
import { loadConfig } from '../../src/config/load-config';
import { createLogger } from '../../src/logging/logger';
import { onStopRequest, tell } from './children';

async function bare(): Promise<void> {
  const body = JSON.parse(process.env.BODY || '{}') as Record<string, unknown>;
  const app = express();
  app.disable('x-powered-by');
  app.get('/health', (_req, res) => {
    res.json({ ...body, timestamp: new Date().toISOString() });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  onStopRequest(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  await tell({ event: 'ready', url: `http://127.0.0.1:${port}`, kinds: [], nodeId: 'bare' });
}

async function runtime(): Promise<void> {
  const config = loadConfig(JSON.parse(process.env.BENCH_CONFIG || '{}') as Record<string, string>);
  const logger = createLogger({ level: 'warn', nodeId: config.NODE_ID });
  const rt = await startRuntime(config, logger);
  onStopRequest(() => rt.stop(3000));
  await tell({
    event: 'ready',
    url: rt.http?.url,
    kinds: rt.system.status().kinds,
    nodeId: rt.system.nodeId,
  });
}

(process.env.MODE === 'bare' ? bare() : runtime()).catch((err: unknown) => {
  process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
