/**
 * A worker node (ROLE=worker) in a child process, for the crew test: a whole runtime on the AMQP
 * transport, Redis and a shared document store, configured by its environment. It offers one more
 * duty, `probe`, every 100 ms, which reports each run over IPC (`{event: 'duty', nodeId}`): the
 * test sees on which node the duty runs. Reports `{event: 'ready', nodeId}` once consuming.
 */
import { startRuntime } from '../../../../src/boot/runtime';
import { loadConfig } from '../../../../src/config/load-config';
import { silentLogger } from '../../../../src/logging/logger';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const nodeId = config.NODE_ID!;
  const probe = {
    name: 'probe',
    intervalMs: 100,
    run: async () => {
      process.send?.({ event: 'duty', nodeId, at: Date.now() });
      return 1;
    },
  };
  const runtime = await startRuntime(config, silentLogger, { crew: { duties: [probe] } });
  process.send?.({ event: 'ready', nodeId });
  process.on('disconnect', () => {
    void runtime.stop().then(() => process.exit(0));
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
