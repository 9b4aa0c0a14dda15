import { randomBytes } from 'node:crypto';
import path from 'node:path';
import request from 'supertest';
import { executionsCollection } from '../../../actors/executions/executions.collection';
import { startRuntime, type Runtime } from '../../../src/boot/runtime';
import { loadConfig } from '../../../src/config/load-config';
import { silentLogger } from '../../../src/logging/logger';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../../src/store/embedded-mongo';
import { deleteClusterTopology } from '../../support/amqp-admin';
import { uniqueAmqpPrefix } from '../../support/amqp-cluster';
import { eventually } from '../../support/async';
import { killAllChildren, startChild } from '../../support/child-process';
import { signupBearer, tempDirs } from '../../support/cluster-fixtures';
import { listenForUpdates } from '../../support/mcp-listen';
import { sseMessages } from '../../support/sse-reader';
import { describeWithService } from '../../support/services';

const WORKER = path.join(__dirname, '../executions/support/runtime-worker.child.ts');

/**
 * MCP tasks over RabbitMQ: two front doors and workers sharing a document store. A task created
 * through front door 1 is read, waited for and cancelled through front door 2 (the cancel reaches
 * the worker's sandbox by broadcast); a task whose worker is killed with -9 is failed by the
 * sweeper of a worker started afterwards, and `tasks/get` says so.
 */
describeWithService('amqp', 'MCP tasks over RabbitMQ (two front doors)', (amqpUrl) => {
  const prefix = uniqueAmqpPrefix();
  const suffix = randomBytes(4).toString('hex');
  const dirs = tempDirs('mcpt');
  const runtimes: Runtime[] = [];
  let mongo: EmbeddedMongo;
  let shared: Record<string, string>;
  let fronts: Runtime[] = [];
  let token: string;
  let child: ReturnType<typeof startChild>;

  const tmp = dirs.make;
  const boot = async (role: 'api' | 'worker', nodeId: string, env: Record<string, string> = {}) => {
    const runtime = await startRuntime(
      loadConfig({ ...shared, ...env, ROLE: role, NODE_ID: nodeId, DATA_DIR: tmp(role), PORT: '0' }),
      silentLogger,
      { identity: { bcryptCost: 4 } },
    );
    runtimes.push(runtime);
    return runtime;
  };

  beforeAll(async () => {
    mongo = await startEmbeddedMongo({ dir: tmp('mongo') });
    shared = {
      AMQP_URL: amqpUrl,
      AMQP_PREFIX: prefix,
      MONGODB_URL: `${mongo.url}mcpt_${suffix}`,
      JWT_SECRET: randomBytes(24).toString('hex'),
      SANDBOX_THREADS: '1',
      // Short enough for the killed worker's task to fail quickly, long enough that a loaded machine
      // renews the leases of the live ones in time (800 ms lapsed under a full suite).
      EXECUTION_LEASE_MS: '2000',
    };
    // The only worker at first (the signup runs there too): a child process, killed by the first test.
    child = startChild(WORKER, {
      ...shared,
      ROLE: 'worker',
      NODE_ID: `mcpt-doomed-${suffix}`,
      DATA_DIR: tmp('doomed'),
      EXECUTION_SWEEP_INTERVAL_MS: '0',
      LOG_LEVEL: 'silent',
    });
    await child.waitForMessage<{ event: string }>((m) => m.event === 'ready', 'the worker child', 30_000);
    fronts = [await boot('api', `mcpt-api1-${suffix}`), await boot('api', `mcpt-api2-${suffix}`)];
    token = await signupBearer(fronts[0].http!.url, `mcpt-${suffix}@example.com`);
  }, 90_000);

  afterAll(async () => {
    await killAllChildren();
    const kinds = runtimes.find((r) => r.config.ROLE === 'worker')?.system.status().kinds ?? [];
    const nodeIds = [...runtimes.map((r) => r.config.NODE_ID), `mcpt-doomed-${suffix}`];
    for (const r of runtimes) await r.stop().catch(() => undefined);
    await mongo?.close();
    await deleteClusterTopology(amqpUrl, prefix, { kinds, nodeIds });
    dirs.removeAll();
  }, 60_000);

  let ids = 0;
  const rpc = (i: 0 | 1, method: string, params: Record<string, unknown>) =>
    request(fronts[i].http!.url)
      .post('/mcp')
      .set('Authorization', `Bearer ${token}`)
      .send({ jsonrpc: '2.0', id: ++ids, method, params });
  const proc = (code: string) => ({
    name: 'proc_execute',
    arguments: { language: 'javascript', code, timeout: 30_000 },
    task: {},
  });

  it('a task whose worker is killed -9 fails through the sweeper of another; tasks/get says why', async () => {
    const created = await rpc(0, 'tools/call', proc('for (;;) {}'));
    const { taskId } = created.body.result.task;
    const repo = fronts[0].documents.repository(executionsCollection);
    await eventually(
      async () => (await repo.findById(taskId))?.current?.leaseNode === `mcpt-doomed-${suffix}`,
      15_000,
    );
    await child.kill('SIGKILL');
    await boot('worker', `mcpt-w2-${suffix}`, { EXECUTION_SWEEP_INTERVAL_MS: '100' });
    await eventually(
      async () => (await rpc(1, 'tasks/get', { taskId })).body.result?.status === 'failed',
      20_000,
    );
    const task = (await rpc(1, 'tasks/get', { taskId })).body.result;
    expect(task.statusMessage).toMatch(/^UNAVAILABLE: .*the node running it stopped/);
    const result = await rpc(0, 'tasks/result', { taskId });
    expect(result.body.result).toMatchObject({ isError: true });
  }, 90_000);

  it('a task created at one front door is waited for and read at the other', async () => {
    const created = await rpc(
      0,
      'tools/call',
      proc('const t = Date.now(); while (Date.now() - t < 300) {} console.log(6 * 7)'),
    );
    const { taskId } = created.body.result.task;
    const result = await rpc(1, 'tasks/result', { taskId });
    // The whole body, so that a failure shows the JSON-RPC error it got instead.
    expect(result.body).toMatchObject({ result: { isError: false } });
    expect(JSON.stringify(result.body.result.structuredContent)).toContain('42');
    const listed = await rpc(1, 'tasks/list', {});
    expect(listed.body.result.tasks).toEqual(
      expect.arrayContaining([expect.objectContaining({ taskId, status: 'completed' })]),
    );
  }, 60_000);

  it('tasks/cancel at the other front door stops the call on the worker', async () => {
    const worker = runtimes.find((r) => r.config.NODE_ID === `mcpt-w2-${suffix}`)!;
    const created = await rpc(0, 'tools/call', proc('for (;;) {}'));
    const { taskId } = created.body.result.task;
    await eventually(() => worker.work.inFlight() > 0, 15_000);
    const cancelled = await rpc(1, 'tasks/cancel', { taskId });
    expect(cancelled.body.result).toMatchObject({ taskId, status: 'cancelled' });
    await eventually(() => worker.work.inFlight() === 0, 10_000);
  }, 60_000);

  it('a subscription at one front door hears of a write made through the other (run on the worker)', async () => {
    const client = new AbortController();
    const res = await listenForUpdates(
      fronts[1].http!.url,
      `Bearer ${token}`,
      ['file:///shared/n.txt'],
      client.signal,
    );
    const messages = sseMessages(res, 20_000);
    expect(await messages.next()).toMatchObject({ method: 'notifications/subscriptions/acknowledged' });
    const write = await request(fronts[0].http!.url)
      .post('/mcp')
      .set('Authorization', `Bearer ${token}`)
      .send({ tool: 'fs_write', input: { path: 'shared/n.txt', content: 'hi' } });
    expect(write.status).toBe(200);
    expect(await messages.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'file:///shared/n.txt' },
    });
    client.abort();
    await messages.cancel();
  }, 60_000);
});
