import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { startRuntime, type Runtime } from '../../../src/boot/runtime';
import { loadConfig } from '../../../src/config/load-config';
import { silentLogger } from '../../../src/logging/logger';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../../src/store/embedded-mongo';
import { eventually } from '../../support/async';
import { deleteClusterTopology } from '../../support/amqp-admin';
import { uniqueAmqpPrefix } from '../../support/amqp-cluster';
import { describeWithService } from '../../support/services';

/**
 * MCP cancellation across a cluster: the `tools/call` enters front door 1 and runs on a worker;
 * the `notifications/cancelled` enters front door 2. The cancellation is broadcast
 * (`tools.mcpCancelled`), front door 1 cancels its request through the kernel, and the worker's
 * sandbox stops the script.
 */
describeWithService('amqp', 'MCP cancellation over RabbitMQ (two front doors, one worker)', (amqpUrl) => {
  const prefix = uniqueAmqpPrefix();
  const dirs: string[] = [];
  let mongo: EmbeddedMongo;
  let worker: Runtime;
  let fronts: Runtime[] = [];

  const boot = (role: 'api' | 'worker', nodeId: string, shared: Record<string, string>) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ars-mcpc-${role}-`));
    dirs.push(dir);
    return startRuntime(
      loadConfig({ ...shared, ROLE: role, NODE_ID: nodeId, DATA_DIR: dir, PORT: '0' }),
      silentLogger,
      { identity: { bcryptCost: 4 } },
    );
  };

  beforeAll(async () => {
    const mongoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-mcpc-mongo-'));
    dirs.push(mongoDir);
    mongo = await startEmbeddedMongo({ dir: mongoDir });
    const suffix = randomBytes(4).toString('hex');
    const shared = {
      AMQP_URL: amqpUrl,
      AMQP_PREFIX: prefix,
      MONGODB_URL: `${mongo.url}mcpc_${suffix}`,
      JWT_SECRET: randomBytes(24).toString('hex'),
      SANDBOX_THREADS: '1',
    };
    worker = await boot('worker', `mcpc-w-${suffix}`, shared);
    fronts = [
      await boot('api', `mcpc-api1-${suffix}`, shared),
      await boot('api', `mcpc-api2-${suffix}`, shared),
    ];
  }, 90_000);

  afterAll(async () => {
    const kinds = worker?.system.status().kinds ?? [];
    const nodes = [worker, ...fronts].filter(Boolean).map((r) => r.config.NODE_ID);
    for (const runtime of [...fronts, worker]) await runtime?.stop();
    await mongo?.close();
    await deleteClusterTopology(amqpUrl, prefix, { kinds, nodeIds: nodes });
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const rpc = (i: 0 | 1, token: string, body: unknown) =>
    request(fronts[i].http!.url)
      .post('/mcp')
      .set('Authorization', `Bearer ${token}`)
      .set('Accept', 'application/json, text/event-stream')
      .send(body as object);

  it('a cancellation sent to another front door stops the call on the worker', async () => {
    const reg = await request(fronts[0].http!.url)
      .post('/register')
      .send({ name: `mcp-cancel ${randomBytes(3).toString('hex')}` });
    expect(reg.status).toBe(201);
    const token = reg.body.token as string;

    const pending = rpc(0, token, {
      jsonrpc: '2.0',
      id: 'spin',
      method: 'tools/call',
      params: {
        name: 'proc_execute',
        arguments: { language: 'javascript', code: 'for (;;) {}', timeout: 30_000 },
      },
    }).then((r) => r);
    await eventually(() => worker.work.inFlight() > 0, 15_000);

    const note = await rpc(1, token, {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'spin' },
    });
    expect(note.status).toBe(202);
    const res = await pending;
    expect(res.body.result).toMatchObject({ isError: true });
    expect(res.body.result.content[0].text).toMatch(/^UNAVAILABLE: Cancelled by the caller/);
    await eventually(() => worker.work.inFlight() === 0, 10_000);
  }, 60_000);
});
