import fs from 'node:fs';
import { onStopRequest } from './child-ipc';

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
  onStopRequest(
    async () => {
      await runtime.stop().catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
    { announce: () => ({ event, ...declaredNamesOf(runtime) }), reportStopped: false, onSigterm: true },
  );
}
