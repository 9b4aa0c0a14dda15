import { PLATFORM_TOOLS } from '../../../actors/tools/platform-tools';
import type { Envelope } from '../../../schemas/envelope';
import { createActorSystem, defineActor } from '../../../src/kernel';
import { InProcessBus, InProcessTransport } from '../../../src/transport/in-process.transport';
import type { SendHints } from '../../../src/transport/transport';
import { z } from 'zod';

/**
 * `RequestOptions.alone` reaches the transport as the `alone` send hint (the AMQP transport then
 * never batches the command, docs/transport-amqp.md "Command batches"); without it no hint goes.
 */
describe('send hints', () => {
  const echo = defineActor({
    kind: 'echo',
    messages: { 'echo.say': z.object({ text: z.string() }) },
    handlers: { 'echo.say': (_ctx, body) => body.text },
  });

  async function recordingSystem() {
    const bus = new InProcessBus({ prefetch: 64, deliveryLimit: 5 });
    const transport = new InProcessTransport('hints', bus);
    const sent: Array<{ type: string; hints?: SendHints }> = [];
    const original = transport.send.bind(transport);
    transport.send = (envelope: Envelope, hints?: SendHints) => {
      sent.push({ type: envelope.type, hints });
      return original(envelope);
    };
    const system = createActorSystem({ transport, defaultTimeoutMs: 2000 });
    await system.register(echo);
    await system.start();
    return { system, sent };
  }

  it('passes alone: true for asks, tells and streams that ask for it, and nothing otherwise', async () => {
    const { system, sent } = await recordingSystem();
    try {
      await expect(system.ask('echo:1', 'echo.say', { text: 'a' }, { alone: true })).resolves.toBe('a');
      await expect(system.ask('echo:1', 'echo.say', { text: 'b' })).resolves.toBe('b');
      await system.tell('echo:1', 'echo.say', { text: 'c' }, { alone: true });
      await new Promise<void>((resolve, reject) =>
        system.stream('echo:1', 'echo.say', { text: 'd' }, { alone: true }).subscribe({
          error: reject,
          complete: resolve,
        }),
      );
      const commands = sent.filter((s) => s.type === 'echo.say');
      expect(commands.map((s) => s.hints)).toEqual([
        { alone: true },
        undefined,
        { alone: true },
        { alone: true },
      ]);
    } finally {
      await system.stop(500);
    }
  });

  it('marks the sandbox tool heavy (sent alone) and no cache, database or file tool', () => {
    const heavy = PLATFORM_TOOLS.filter((t) => t.heavy === true).map((t) => t.name);
    expect(heavy).toEqual(['proc_execute']);
  });
});
