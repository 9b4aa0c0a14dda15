import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { deleteClusterTopology } from '../../support/amqp-admin';
import { uniqueAmqpPrefix } from '../../support/amqp-cluster';
import { describeWithService } from '../../support/services';
import { eventually, startRouterHarness, type RouterHarness } from './support/router-harness';
import { subjectOf } from '../../support/token-claims';

/**
 * The router on the production stores and transport: every message through RabbitMQ (principal,
 * input and deferred replies over the wire), and the memory and event tools on Redis (SCAN-based
 * listing, the Redis rate limiter). Skipped when the service does not answer.
 */

/** Internal ids of the agents a scenario created (their cache keys are removed afterwards). */
const created: string[] = [];
const subOf = (h: RouterHarness, token: string) => subjectOf(token, h.runtime.secrets.jwtSecret);

/** The same scenario on whatever the harness runs on. */
async function scenario(h: RouterHarness): Promise<void> {
  const a = await h.agent();
  const b = await h.agent();
  created.push(subOf(h, a.token), subOf(h, b.token));
  expect((await h.call(a.token, 'mem_set', { key: 'p/1', value: { x: 1 } })).body).toEqual({
    success: true,
    result: true,
  });
  await h.call(a.token, 'mem_set', { key: 'p/2', value: 2 });
  expect((await h.call(a.token, 'platform.mem_get', { key: 'p/1' })).body.result).toEqual({
    value: { x: 1 },
    found: true,
  });
  expect((await h.call(a.token, 'mem_list', { prefix: 'p/' })).body.result).toEqual({
    keys: ['p/1', 'p/2'],
    truncated: false,
  });
  expect((await h.call(b.token, 'mem_list', {})).body.result).toEqual({ keys: [], truncated: false });
  expect((await h.call(a.token, 'mem_incr', { key: 'n', by: 2 })).body.result).toEqual({ value: 2 });
  await h.call(a.token, 'events_publish', { topic: 'own', payload: 'hello' });
  expect((await h.call(a.token, 'events_subscribe', { topic: 'own' })).body.result).toMatchObject({
    cursor: 1,
    events: [{ seq: 1, payload: 'hello' }],
  });
  const proc = await h.call(a.token, 'proc_execute', {
    language: 'js',
    code: 'console.log("TOKEN=abc"); 1 + 1',
  });
  expect(proc.body.result).toMatchObject({ stdout: 'TOKEN=[redacted]\n', result: 2 });

  const transport = new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${a.token}` } },
  });
  const client = new Client({ name: 'services-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const got = await client.callTool({ name: 'mem_get', arguments: { key: 'p/2' } });
    expect(got.structuredContent).toEqual({ value: 2, found: true });
  } finally {
    await client.close();
  }

  const me = await h.http().get('/agent/me').set('Authorization', `Bearer ${a.token}`);
  expect(me.body.totalCalls).toBe(9);
  await eventually(async () => {
    const res = await h.http().get('/api/ffp/routes').set('Authorization', `Bearer ${a.token}`);
    return res.body.routes?.length === 9;
  });
}

describeWithService('amqp', 'tool router over RabbitMQ', (amqpUrl) => {
  let h: RouterHarness;
  const prefix = uniqueAmqpPrefix();

  beforeAll(async () => {
    h = await startRouterHarness({}, { AMQP_URL: amqpUrl, AMQP_PREFIX: prefix });
  });
  afterAll(async () => {
    const kinds = h?.runtime.system.status().kinds ?? [];
    const nodeId = h?.runtime.config.NODE_ID;
    await h?.stop();
    await deleteClusterTopology(amqpUrl, prefix, { kinds, nodeIds: nodeId ? [nodeId] : [] });
  });

  it('routes calls through the agent actor over the wire', async () => {
    await scenario(h);
  });

  it("answers an agent's quick call while its slow tool runs", async () => {
    const { token } = await h.agent();
    const slow = h.call(token, 'proc_execute', {
      language: 'js',
      code: 'const t = Date.now(); while (Date.now() - t < 1200) {} 1',
    });
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    expect((await h.call(token, 'mem_get', { key: 'k' })).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(600);
    expect((await slow).body.result).toMatchObject({ outcome: 'ok' });
  });
});

describeWithService('redis', 'tool router with Redis as the cache', (redisUrl) => {
  let h: RouterHarness;

  beforeAll(async () => {
    h = await startRouterHarness({}, { REDIS_URL: redisUrl });
  });
  afterAll(async () => {
    // Remove what the scenario wrote: only the keys of its own agents (Redis may be shared).
    const cache = h?.runtime.cache;
    for (const id of cache ? created : []) {
      for (const prefix of [`tools:mem:${id}:`, `tools:events:${id}:`, `tools:events-subs:${id}:`]) {
        for (const key of await cache!.list(prefix)) await cache!.delete(key);
      }
    }
    await h?.stop();
  });

  it('runs the memory and event tools on Redis', async () => {
    await scenario(h);
  });

  it('rate-limits per agent on Redis', async () => {
    const limited = await startRouterHarness(
      { rateLimit: { points: 3, durationSec: 60 } },
      { REDIS_URL: redisUrl, NODE_ID: `rl-${randomBytes(4).toString('hex')}` },
    );
    try {
      const { token } = await limited.agent();
      for (let i = 0; i < 3; i++)
        expect((await limited.call(token, 'mem_get', { key: 'k' })).status).toBe(200);
      const res = await limited.call(token, 'mem_get', { key: 'k' });
      expect(res.status).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.stop();
    }
  });
});
