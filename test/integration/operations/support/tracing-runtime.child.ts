/**
 * A whole runtime (ROLE=all, embedded stores) in a child process, configured by its environment,
 * for the tracing test: reports `{event: 'ready', url, otelLoaded}` (whether the OpenTelemetry
 * SDK was loaded) and stops (flushing its spans) when the parent disconnects.
 */
import { startRuntime } from '../../../../src/boot/runtime';
import { loadConfig } from '../../../../src/config/load-config';
import { silentLogger } from '../../../../src/logging/logger';

async function main(): Promise<void> {
  const runtime = await startRuntime(loadConfig(process.env), silentLogger);
  // The SDK and the exporter (the API package alone is loaded by prom-client, whatever we do).
  const otelLoaded = Object.keys(require.cache).some((k) => /@opentelemetry[\\/](sdk-|exporter-)/.test(k));
  process.send?.({ event: 'ready', url: runtime.http!.url, otelLoaded });
  process.on('disconnect', () => {
    void runtime.stop().then(() => process.exit(0));
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
