import { randomBytes } from 'node:crypto';
import { startRuntime, type Runtime } from '../../../src/boot/runtime';
import { loadConfig } from '../../../src/config/load-config';
import { silentLogger } from '../../../src/logging/logger';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../../src/store/embedded-mongo';
import { deleteClusterTopology } from '../../support/amqp-admin';
import { uniqueAmqpPrefix } from '../../support/amqp-cluster';
import { tempDirs } from '../../support/cluster-fixtures';
import { describeWithService } from '../../support/services';
import { startTestMcpServer, type TestMcpServer } from '../connectors/support/test-mcp-server';
import { clientScenarios, type ScenarioTarget } from './support/mcp-client-scenarios';
import { addConnector, signupAccount, startSlowUpstream } from './support/mcp-sdk-clients';

/**
 * The official SDK clients over RabbitMQ: two front doors (api) and one worker sharing a document
 * store. The clients connect to front door 1, the tools run on the worker, and the client that
 * fetches a task later connects to front door 2. The scenarios: support/mcp-client-scenarios.ts.
 */
describeWithService('amqp', 'SDK clients over RabbitMQ (two front doors, one worker)', (amqpUrl) => {
  const prefix = uniqueAmqpPrefix();
  const suffix = randomBytes(4).toString('hex');
  const dirs = tempDirs('mcpsdk');
  const runtimes: Runtime[] = [];
  let mongo: EmbeddedMongo;
  let server: TestMcpServer;
  let slow: Awaited<ReturnType<typeof startSlowUpstream>>;
  let target: ScenarioTarget;

  beforeAll(async () => {
    mongo = await startEmbeddedMongo({ dir: dirs.make('mongo') });
    const shared = {
      AMQP_URL: amqpUrl,
      AMQP_PREFIX: prefix,
      MONGODB_URL: `${mongo.url}mcpsdk_${suffix}`,
      JWT_SECRET: randomBytes(24).toString('hex'),
      SANDBOX_THREADS: '1',
      ALLOW_LOOPBACK_HTTP: 'true',
    };
    const boot = async (role: 'api' | 'worker', nodeId: string) => {
      const runtime = await startRuntime(
        loadConfig({ ...shared, ROLE: role, NODE_ID: nodeId, DATA_DIR: dirs.make(role), PORT: '0' }),
        silentLogger,
        { identity: { bcryptCost: 4 } },
      );
      runtimes.push(runtime);
      return runtime;
    };
    const worker = await boot('worker', `mcpsdk-w-${suffix}`);
    const front1 = await boot('api', `mcpsdk-api1-${suffix}`);
    const front2 = await boot('api', `mcpsdk-api2-${suffix}`);
    server = await startTestMcpServer();
    slow = await startSlowUpstream();
    const { token } = await signupAccount(front1.http!.url);
    await addConnector(front1.http!.url, token, 'memo', server.url);
    target = {
      url: front1.http!.url,
      laterUrl: front2.http!.url,
      token,
      slowUrl: slow.url,
      connector: 'memo',
      busy: () => worker.work.inFlight() > 0,
    };
  }, 120_000);

  afterAll(async () => {
    const kinds = runtimes.find((r) => r.config.ROLE === 'worker')?.system.status().kinds ?? [];
    const nodeIds = runtimes.map((r) => r.config.NODE_ID);
    for (const r of runtimes) await r.stop().catch(() => undefined);
    await mongo?.close();
    await server?.stop().catch(() => undefined);
    await slow?.close();
    await deleteClusterTopology(amqpUrl, prefix, { kinds, nodeIds });
    dirs.removeAll();
  }, 60_000);

  jest.setTimeout(90_000);

  describe('SDK v2 client pinned to 2026-07-28', () => clientScenarios('v2-pinned', () => target));
  describe('SDK v2 client negotiating', () => clientScenarios('v2-auto', () => target));
  describe('SDK v1 client (2025-11-25)', () => clientScenarios('v1', () => target));
});
