import pino from 'pino';
import {
  createActorSystem,
  type ActorSystem,
  type ActorSystemOptions,
  type AnyActorDefinition,
} from '../../../src/kernel';
import { InProcessBus, InProcessTransport } from '../../../src/transport/in-process.transport';

/** A pino logger whose lines land in `lines` (parsed), to assert what the kernel logs. */
export function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

/** Actor systems on one in-process bus; `stopAll` in afterEach. */
export function inProcessNodes(bus = new InProcessBus({ prefetch: 64, deliveryLimit: 5 })) {
  const systems: ActorSystem[] = [];
  return {
    bus,
    async node(
      nodeId: string,
      definitions: AnyActorDefinition[] = [],
      options: Partial<Omit<ActorSystemOptions, 'transport'>> = {},
    ): Promise<{ system: ActorSystem; transport: InProcessTransport }> {
      const transport = new InProcessTransport(nodeId, bus);
      const system = createActorSystem({ transport, defaultTimeoutMs: 2000, ...options });
      for (const d of definitions) await system.register(d);
      await system.start();
      systems.push(system);
      return { system, transport };
    },
    async stopAll(): Promise<void> {
      await Promise.all(systems.map((s) => s.stop(500)));
    },
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function eventually(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await sleep(5);
  }
}
