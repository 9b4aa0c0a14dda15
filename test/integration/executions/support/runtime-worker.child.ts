/**
 * A worker node (ROLE=worker) in a child process, for the orphaned-step test: a whole runtime on
 * the AMQP transport and a shared document store, configured by the environment it is given (the
 * service's own variables). Reports `{event: 'ready', nodeId}` over IPC once consuming; the test
 * kills it with SIGKILL.
 */
import { startRuntime } from '../../../../src/boot/runtime';
import { loadConfig } from '../../../../src/config/load-config';
import { silentLogger } from '../../../../src/logging/logger';

async function main(): Promise<void> {
  const runtime = await startRuntime(loadConfig(process.env), silentLogger);
  process.send?.({ event: 'ready', nodeId: runtime.config.NODE_ID });
  process.on('disconnect', () => {
    void runtime.stop().then(() => process.exit(0));
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
