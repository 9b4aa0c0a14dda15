import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { startRuntime, type Runtime } from '../../../src/boot/runtime';
import { loadConfig } from '../../../src/config/load-config';
import { silentLogger } from '../../../src/logging/logger';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../../src/store/embedded-mongo';
import { deleteClusterTopology } from '../../support/amqp-admin';
import { uniqueAmqpPrefix } from '../../support/amqp-cluster';
import { signupBearer, tempDirs } from '../../support/cluster-fixtures';
import { sseMessages } from '../../support/sse-reader';
import { describeWithService } from '../../support/services';

/**
 * 2025-era resource subscriptions across nodes (mcp-resource-subscriptions.ts): two nodes sharing
 * RabbitMQ, MongoDB and Redis; the subscribe lands on node 1, the session's GET stream is open on
 * node 2, the write goes through node 1, and node 2's stream tells of it.
 */
describeWithService('amqp', 'MCP resources/subscribe across nodes', (amqpUrl) => {
  describeWithService('redis', 'with a shared Redis cache', (redisUrl) => {
    const prefix = uniqueAmqpPrefix();
    const suffix = randomBytes(4).toString('hex');
    const dirs = tempDirs('mcps');
    const nodes: Runtime[] = [];
    let mongo: EmbeddedMongo;
    let token: string;

    const tmp = dirs.make;

    beforeAll(async () => {
      mongo = await startEmbeddedMongo({ dir: tmp('mongo') });
      const shared = {
        AMQP_URL: amqpUrl,
        AMQP_PREFIX: prefix,
        REDIS_URL: redisUrl,
        MONGODB_URL: `${mongo.url}mcps_${suffix}`,
        JWT_SECRET: randomBytes(24).toString('hex'),
        SANDBOX_THREADS: '1',
      };
      for (const n of [1, 2]) {
        nodes.push(
          await startRuntime(
            loadConfig({ ...shared, NODE_ID: `mcps-${n}-${suffix}`, DATA_DIR: tmp(`n${n}`), PORT: '0' }),
            silentLogger,
            { identity: { bcryptCost: 4 } },
          ),
        );
      }
      token = await signupBearer(nodes[0].http!.url, `mcps-${suffix}@example.com`);
    }, 90_000);

    afterAll(async () => {
      const kinds = nodes[0]?.system.status().kinds ?? [];
      for (const r of nodes) await r.stop().catch(() => undefined);
      await mongo?.close();
      await deleteClusterTopology(amqpUrl, prefix, { kinds, nodeIds: nodes.map((r) => r.config.NODE_ID) });
      dirs.removeAll();
    }, 60_000);

    it('a subscribe at node 1 is heard on the session stream open at node 2', async () => {
      const init = await request(nodes[0].http!.url)
        .post('/mcp')
        .set('Authorization', `Bearer ${token}`)
        .send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } });
      const session = init.headers['mcp-session-id'] as string;
      expect(session).toMatch(/^mcps_/);
      const client = new AbortController();
      const stream = await fetch(`${nodes[1].http!.url}/mcp`, {
        headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream', 'Mcp-Session-Id': session },
        signal: client.signal,
      });
      const messages = sseMessages(stream, 20_000);
      const sub = await request(nodes[0].http!.url)
        .post('/mcp')
        .set('Authorization', `Bearer ${token}`)
        .set('Mcp-Session-Id', session)
        .send({ jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'file:///x/n.txt' } });
      expect(sub.body.result).toEqual({});
      const write = await request(nodes[0].http!.url)
        .post('/mcp')
        .set('Authorization', `Bearer ${token}`)
        .send({ tool: 'fs_write', input: { path: 'x/n.txt', content: 'hi' } });
      expect(write.status).toBe(200);
      expect(await messages.next()).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { uri: 'file:///x/n.txt' },
      });
      client.abort();
      await messages.cancel();
    }, 60_000);
  });
});
