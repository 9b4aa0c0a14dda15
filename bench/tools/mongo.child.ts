import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { commandCounts, startEmbeddedMongo } from '../../src/store/embedded-mongo';

/**
 * The document server every service node of a benchmark shares (api and workers must see the same
 * agents): the embedded MongoDB-wire server on a free loopback port. Memory only, unless
 * `BENCH_DOCUMENTS_JOURNAL=1`: then it keeps its journal in a temporary directory (removed when it
 * stops) and acknowledges a write once it is fsynced, as the in-process node does and as a real
 * MongoDB would (bench:streams, whose writes are its subject).
 * IPC: `{event: 'ready', url}`; `{cmd: 'counts', id}` → `{event: 'counts:<id>', counts}` (the commands
 * it ran, by name); stops on `{cmd: 'stop'}` or when the parent goes away.
 */
async function main(): Promise<void> {
  const dir =
    process.env.BENCH_DOCUMENTS_JOURNAL === '1'
      ? fs.mkdtempSync(path.join(os.tmpdir(), 'ars-bench-documents-'))
      : undefined;
  const server = await startEmbeddedMongo({ port: 0, dir });
  process.send?.({ event: 'ready', url: server.url });
  const stop = () =>
    void server.close().finally(() => {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    });
  process.on('message', (m: { cmd?: string; id?: string }) => {
    if (m?.cmd === 'stop') stop();
    if (m?.cmd === 'counts' && process.connected) {
      const counts = {
        turns: 0,
        commands: 0,
        replies: 0,
        broadcasts: 0,
        turnsByType: {},
        documents: { ...commandCounts },
      };
      process.send?.({ event: `counts:${m.id}`, counts });
    }
  });
  process.on('disconnect', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench document server: ${String(err)}\n`);
  process.exit(1);
});
