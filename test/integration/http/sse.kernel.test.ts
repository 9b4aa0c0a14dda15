import { z } from 'zod';
import { buildApp } from '../../../src/http/app';
import type { RouteModule } from '../../../src/http/app.types';
import { listen, type HttpServerHandle } from '../../../src/http/listen';
import { writeSse } from '../../../src/http/sse';
import { createActorSystem, defineActor, type ActorSystem } from '../../../src/kernel';
import { loadConfig } from '../../../src/config/load-config';
import { silentLogger } from '../../../src/logging/logger';
import { InProcessBus, InProcessTransport } from '../../../src/transport/in-process.transport';
import { openSse, parseSse } from './support/sse-client';

/** A stream from an actor, through the real kernel, to an SSE client that then goes away. */
describe('SSE from system.stream through the in-process kernel', () => {
  let system: ActorSystem;
  let server: HttpServerHandle;
  let aborted: Promise<void>;

  beforeAll(async () => {
    let markAborted: () => void = () => undefined;
    aborted = new Promise((resolve) => (markAborted = resolve));
    const ticker = defineActor({
      kind: 'ticker',
      messages: { 'ticker.run': z.object({ everyMs: z.number().int().positive() }) },
      handlers: {
        'ticker.run': (ctx, { everyMs }) =>
          ctx.defer(async (signal) => {
            for (let n = 1; !signal.aborted; n += 1) {
              ctx.next({ n });
              await new Promise((r) => setTimeout(r, everyMs));
            }
            markAborted();
          }),
      },
    });
    system = createActorSystem({
      transport: new InProcessTransport('node-a', new InProcessBus()),
      logger: silentLogger,
    });
    await system.register(ticker);
    await system.start();

    const tickRoute: RouteModule = (router, deps) => {
      router.get('/t/ticks', (req, res) => {
        void writeSse(
          req,
          res,
          deps.system.stream<{ n: number }>('ticker:1', 'ticker.run', { everyMs: 10 }),
          {
            eventOf: () => 'tick',
          },
        );
      });
    };
    const app = buildApp({ config: loadConfig({}), logger: silentLogger, system, routes: [tickRoute] });
    server = await listen(app, { host: '127.0.0.1', port: 0 });
  });

  afterAll(async () => {
    await server.close(1000);
    await system.stop(1000);
  });

  it('streams the actor items, and the client leaving aborts the handler', async () => {
    const conn = await openSse(`${server.url}/t/ticks`);
    await conn.until((t) => parseSse(t).events.length >= 3);
    const events = parseSse(conn.text()).events.slice(0, 3);
    expect(events.map((e) => [e.id, e.event, JSON.parse(e.data).n])).toEqual([
      ['1', 'tick', 1],
      ['2', 'tick', 2],
      ['3', 'tick', 3],
    ]);
    conn.abort();
    await aborted;
  });
});
