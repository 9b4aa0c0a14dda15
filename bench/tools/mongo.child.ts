import { commandCounts, startEmbeddedMongo } from '../../src/store/embedded-mongo';

/**
 * The document server every service node of `bench:mcp` shares (api and workers must see the same
 * agents): the embedded MongoDB-wire server, memory only, on a free loopback port.
 * IPC: `{event: 'ready', url}`; `{cmd: 'counts', id}` → `{event: 'counts:<id>', counts}` (the commands
 * it ran, by name); stops on `{cmd: 'stop'}` or when the parent goes away.
 */
async function main(): Promise<void> {
  const server = await startEmbeddedMongo({ port: 0 });
  process.send?.({ event: 'ready', url: server.url });
  const stop = () => void server.close().finally(() => process.exit(0));
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
