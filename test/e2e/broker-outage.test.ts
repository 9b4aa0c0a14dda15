import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startRuntime, type Runtime } from '../../src/boot/runtime';
import { loadConfig } from '../../src/config/load-config';
import { silentLogger } from '../../src/logging/logger';
import { deleteClusterTopology } from '../support/amqp-admin';
import { uniqueAmqpPrefix } from '../support/amqp-cluster';
import { eventually } from '../support/async';
import { describeWithService } from '../support/services';
import { startTcpProxyTo, type TcpProxy } from '../support/tcp-proxy';

/**
 * The whole service while RabbitMQ is unreachable: requests that need an actor fail fast with 503
 * UNAVAILABLE (never hang), and service resumes by itself when the broker is back, without a
 * restart of the process.
 */
describeWithService('amqp', 'the runtime through a broker outage', (amqpUrl) => {
  const prefix = uniqueAmqpPrefix();
  let proxy: TcpProxy;
  let runtime: Runtime;
  let dir: string;

  beforeAll(async () => {
    proxy = await startTcpProxyTo(amqpUrl, 5672);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-outage-'));
    runtime = await startRuntime(
      loadConfig({ DATA_DIR: dir, PORT: '0', AMQP_URL: proxy.url(amqpUrl), AMQP_PREFIX: prefix }),
      silentLogger,
    );
  });
  afterAll(async () => {
    const kinds = runtime?.system.status().kinds ?? [];
    const nodeId = runtime?.config.NODE_ID;
    await runtime?.stop();
    await proxy?.close();
    await deleteClusterTopology(amqpUrl, prefix, { kinds, nodeIds: nodeId ? [nodeId] : [] });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const health = () => fetch(`${runtime.http!.url}/health`);

  it('answers 503 at once while the broker is away and 200 again once it is back', async () => {
    expect((await health()).status).toBe(200);

    await proxy.cut();
    // The cut is seen when the connection drops; from then on every request fails fast.
    const down = await eventually(async () => {
      const started = Date.now();
      const res = await health();
      return res.status === 503 ? { res, ms: Date.now() - started } : undefined;
    }, 10_000);
    expect(down.ms).toBeLessThan(2000);
    expect(down.res.headers.get('retry-after')).toBeTruthy();
    const body = (await down.res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ code: 'UNAVAILABLE' });
    expect(JSON.stringify(body)).not.toContain('guest');

    await proxy.restore();
    const back = await eventually(async () => ((await health()).status === 200 ? true : undefined), 20_000);
    expect(back).toBe(true);
  }, 40_000);
});
