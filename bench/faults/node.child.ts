import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startRuntime } from '../../src/boot/runtime';
import { loadConfig } from '../../src/config/load-config';
import { createLogger } from '../../src/logging/logger';
import { tell } from '../support/child-ipc';
import { stopWhenAsked } from '../support/runtime-child';

/**
 * One node of the cluster `bench:faults` loads and breaks: the service as configured by its
 * environment (ROLE api or worker, AMQP_URL and REDIS_URL through the bench's proxies, MONGODB_URL
 * the shared document server, JWT_SECRET, AMQP_PREFIX…), on DATA_DIR `BENCH_NODE_DIR` (or a
 * temporary one) and port 0, with
 * the per-agent tool-call limit lifted. Logs at LOG_LEVEL (warn) to its stdout, which the bench
 * writes to a file. IPC: `{event: 'ready', url?}`; on `{cmd: 'stop'}`, SIGTERM or the parent going
 * away it reports `{event: 'declared', queues, exchanges}` (the AMQP names to clean up) and stops.
 */
async function main(): Promise<void> {
  // Under the run's directory when the bench names one: a node killed with -9 cleans up nothing.
  const dir = process.env.BENCH_NODE_DIR || fs.mkdtempSync(path.join(os.tmpdir(), 'ars-bench-faults-node-'));
  fs.mkdirSync(dir, { recursive: true });
  const level = process.env.LOG_LEVEL || 'warn';
  const config = loadConfig({ ...process.env, DATA_DIR: dir, PORT: '0', LOG_LEVEL: level });
  const runtime = await startRuntime(config, createLogger({ level }), {
    tools: { rateLimit: { points: 1_000_000_000, durationSec: 60 } },
  });
  stopWhenAsked(runtime, dir, 'declared');
  await tell({ event: 'ready', url: runtime.http?.url });
}

main().catch((err: unknown) => {
  process.stderr.write(
    `bench:faults node (${process.env.ROLE ?? 'all'}): ${String((err as Error)?.stack ?? err)}\n`,
  );
  process.exit(1);
});
