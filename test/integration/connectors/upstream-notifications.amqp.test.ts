import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { startRuntime, type Runtime } from '../../../src/boot/runtime';
import { loadConfig } from '../../../src/config/load-config';
import { silentLogger } from '../../../src/logging/logger';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../../src/store/embedded-mongo';
import { deleteClusterTopology } from '../../support/amqp-admin';
import { uniqueAmqpPrefix } from '../../support/amqp-cluster';
import { signupBearer, tempDirs } from '../../support/cluster-fixtures';
import { listenForUpdates } from '../../support/mcp-listen';
import { sseMessages } from '../../support/sse-reader';
import { describeWithService } from '../../support/services';
import { eventually } from './support/connectors-harness';
import { startLiveUpstream, type LiveUpstream } from './support/live-upstream';

/**
 * Upstream notifications across nodes (actors/connectors/connector-relay.ts): an api node and a
 * worker node on RabbitMQ, sharing MongoDB and Redis. The connector's session, and so the server's
 * notifications, live on the worker (its connectors actor's pool); the `/mcp` requests and the
 * `subscriptions/listen` stream are on the api node, which hears the relayed update.
 */
describeWithService('amqp', 'connector upstream notifications across nodes', (amqpUrl) => {
  describeWithService('redis', 'with a shared Redis cache', (redisUrl) => {
    const prefix = uniqueAmqpPrefix();
    const suffix = randomBytes(4).toString('hex');
    const dirs = tempDirs('relay');
    const nodes: Runtime[] = [];
    let mongo: EmbeddedMongo;
    let upstream: LiveUpstream;
    let auth: string;
    let api: string;
    const NOTE = `connector://live/${encodeURIComponent('memo://note')}`;

    beforeAll(async () => {
      mongo = await startEmbeddedMongo({ dir: dirs.make('mongo') });
      upstream = await startLiveUpstream();
      const shared = {
        AMQP_URL: amqpUrl,
        AMQP_PREFIX: prefix,
        REDIS_URL: redisUrl,
        MONGODB_URL: `${mongo.url}relay_${suffix}`,
        JWT_SECRET: randomBytes(24).toString('hex'),
        SANDBOX_THREADS: '1',
        ALLOW_LOOPBACK_HTTP: 'true',
      };
      // The worker first: it hosts the actors the api node's sign-up needs.
      for (const role of ['worker', 'api'] as const) {
        nodes.push(
          await startRuntime(
            loadConfig({
              ...shared,
              ROLE: role,
              NODE_ID: `relay-${role}-${suffix}`,
              DATA_DIR: dirs.make(role),
              PORT: '0',
            }),
            silentLogger,
            { identity: { bcryptCost: 4 } },
          ),
        );
      }
      api = nodes[1].http!.url;
      auth = `Bearer ${await signupBearer(api, `relay-${suffix}@example.com`)}`;
      const res = await request(api)
        .post('/api/connectors')
        .set('Authorization', auth)
        .send({ slug: 'live', transport: 'http', url: upstream.url });
      if (res.status !== 201) throw new Error(`connector: ${res.status} ${JSON.stringify(res.body)}`);
    }, 120_000);

    afterAll(async () => {
      const kinds = nodes[0]?.system.status().kinds ?? [];
      for (const r of [...nodes].reverse()) await r.stop().catch(() => undefined);
      await upstream?.stop();
      await mongo?.close();
      await deleteClusterTopology(amqpUrl, prefix, { kinds, nodeIds: nodes.map((r) => r.config.NODE_ID) });
      dirs.removeAll();
    }, 60_000);

    const toolNames = async (): Promise<string[]> => {
      const res = await request(api)
        .post('/mcp')
        .set('Authorization', auth)
        .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      return ((res.body.result?.tools ?? []) as Array<{ name: string }>).map((t) => t.name);
    };

    it('a tool added upstream shows in tools/list at the api node', async () => {
      expect(await toolNames()).toContain('mcp.live.first');
      upstream.addTool('later');
      await eventually(async () => (await toolNames()).includes('mcp.live.later'), 30_000);
    }, 60_000);

    it('a resource update heard on the worker reaches the listen stream open at the api node', async () => {
      const client = new AbortController();
      try {
        const res = await listenForUpdates(api, auth, [NOTE], client.signal);
        const messages = sseMessages(res, 30_000);
        expect(await messages.next()).toMatchObject({ method: 'notifications/subscriptions/acknowledged' });
        expect(upstream.subscribed).toContain('memo://note');
        await upstream.updated('memo://note');
        expect(await messages.next()).toEqual({
          jsonrpc: '2.0',
          method: 'notifications/resources/updated',
          params: { uri: NOTE },
        });
      } finally {
        client.abort();
      }
    }, 60_000);
  });
});
