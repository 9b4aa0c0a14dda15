import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startRuntime } from '../../src/boot/runtime';
import { loadConfig } from '../../src/config/load-config';
import { snapshotWorkCounts } from '../../src/kernel';
import { createLogger } from '../../src/logging/logger';
import { embeddedCommandCounts } from '../../src/store/embedded-mongo';
import { frontDoorRoute } from './front-door.route';
import { benchLoopRunner, stepMarkers } from './loop-runner';
import { declaredNamesOf, stopWhenAsked } from '../support/runtime-child';

/**
 * One node of the service for `bench:streams` (api or worker, by ROLE), configured by its
 * environment (AMQP_URL, AMQP_PREFIX, REDIS_URL, MONGODB_URL, JWT_SECRET, NODE_ID) on a temporary
 * DATA_DIR and port 0, with the execution type `BENCH_LOOP` (./loop-runner.ts), the front door
 * reference route (./front-door.route.ts) and the signup limit per address raised (the benchmark
 * signs up a few accounts from 127.0.0.1).
 *
 * IPC: sends `{event: 'ready', url?}`; answers `{cmd: 'markers', id, since}` with
 * `{event: 'markers:<id>', report}` (the step markers of this process), and `{cmd: 'counts', id}`
 * with `{event: 'counts:<id>', counts}` (its kernel's and embedded document server's work counts). The AMQP names to clean up
 * are sent after `ready` (`{event: 'declared', queues, exchanges}`) and again on `{cmd: 'stop'}`
 * (`declared-at-stop`), before it stops (also when the parent goes away).
 */
async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-bench-streams-'));
  const config = loadConfig({ ...process.env, DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'error' });
  const runtime = await startRuntime(config, createLogger({ level: 'error' }), {
    identity: { bcryptCost: 4, limits: { signupPerIp: { points: 1000, durationSec: 600 } } },
    executions: { runners: [benchLoopRunner] },
    routes: [frontDoorRoute],
  });
  process.send?.({ event: 'ready', url: runtime.http?.url });
  // The names now (they are all declared at start), so that a node killed later is cleaned up too.
  process.send?.({ event: 'declared', ...declaredNamesOf(runtime) });

  process.on('message', (m: { cmd?: string; id?: string; since?: number }) => {
    if (m?.cmd === 'markers' && process.connected) {
      process.send?.({ event: `markers:${m.id}`, report: stepMarkers.report(m.since ?? 0) });
    }
    if (m?.cmd === 'counts' && process.connected) {
      const kernel = snapshotWorkCounts();
      // The embedded document server runs on a thread of its own: its counts are asked for.
      void embeddedCommandCounts().then((documents) => {
        if (process.connected) process.send?.({ event: `counts:${m.id}`, counts: { ...kernel, documents } });
      });
    }
  });
  stopWhenAsked(runtime, dir, 'declared-at-stop');
}

main().catch((err: unknown) => {
  process.stderr.write(
    `bench:streams node (${process.env.ROLE ?? 'all'}): ${String((err as Error)?.stack ?? err)}\n`,
  );
  process.exit(1);
});
