import fs from 'node:fs';

/** What a benchmark child needs of the runtime it started. */
interface BenchRuntime {
  readonly system: unknown;
  stop(): Promise<void>;
}

/** The AMQP queues and exchanges the runtime's transport declared (none in process). */
export function declaredNamesOf(runtime: BenchRuntime): { queues: string[]; exchanges: string[] } {
  const transport = (
    runtime.system as { transport?: { declaredNames?: () => { queues: string[]; exchanges: string[] } } }
  ).transport;
  return transport?.declaredNames?.() ?? { queues: [], exchanges: [] };
}

/**
 * Stops a benchmark child once, on `{cmd: 'stop'}`, on losing its parent or on SIGTERM: tells the
 * parent what it declared (`event`, for the clean-up), stops the runtime, removes its temporary
 * data directory and exits.
 */
export function stopWhenAsked(runtime: BenchRuntime, dir: string, event: string): void {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    if (process.connected) process.send?.({ event, ...declaredNamesOf(runtime) });
    void runtime
      .stop()
      .catch(() => undefined)
      .finally(() => {
        fs.rmSync(dir, { recursive: true, force: true });
        process.exit(0);
      });
  };
  process.on('message', (m: { cmd?: string }) => {
    if (m?.cmd === 'stop') stop();
  });
  process.on('disconnect', stop);
  process.on('SIGTERM', stop);
}
