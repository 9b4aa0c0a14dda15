import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { idempotencyScope, requestFingerprint } from '../../../src/http/idempotency/idempotency-key';
import { stableEnvelopeId } from '../../../src/kernel';
import { waitFor } from '../../support/async';
import { describeWithService } from '../../support/services';
import { startRouterHarness, type RouterHarness } from './support/router-harness';

/**
 * A TCP proxy in front of Redis that loses the answer to one command: once a write of the client
 * names `marker`, nothing Redis sends back on that connection reaches the client, until
 * `dropConnection` resets it (what a cut does to a command in flight). New connections pass.
 */
class ReplyLosingProxy {
  port = 0;
  private readonly server: net.Server;
  private armed?: string;
  private swallowing?: { client: net.Socket; upstream: net.Socket };
  seen = false;

  constructor(target: { host: string; port: number }) {
    this.server = net.createServer((client) => {
      const upstream = net.connect(target);
      for (const s of [client, upstream]) s.on('error', () => undefined);
      client.on('data', (chunk: Buffer) => {
        if (this.armed && !this.swallowing && chunk.includes(this.armed)) {
          this.swallowing = { client, upstream };
          this.seen = true;
        }
        upstream.write(chunk);
      });
      upstream.on('data', (chunk: Buffer) => {
        if (this.swallowing?.client !== client) client.write(chunk);
      });
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  arm(marker: string): void {
    this.armed = marker;
    this.seen = false;
  }

  /** Resets the connection whose answers were lost, and passes everything again. */
  dropConnection(): void {
    const lost = this.swallowing;
    this.armed = undefined;
    this.swallowing = undefined;
    lost?.client.resetAndDestroy();
    lost?.upstream.destroy();
  }

  close(): Promise<void> {
    this.dropConnection();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * `mem_incr` whose answer from Redis is lost when the connection drops with the command in flight
 * (the increment is applied, the reply never comes; ioredis rejects the command, the tool fails
 * UNAVAILABLE, the agent actor retries it). The retry must not add again: found by bench:faults
 * (a Redis cut under load), where a keyed counter read one more than its acknowledged calls.
 */
describeWithService('redis', 'mem_incr when Redis loses its answer', (redisUrl) => {
  let proxy: ReplyLosingProxy;
  let h: RouterHarness;
  let redis: Redis;
  const used: string[] = [];

  beforeAll(async () => {
    const target = new URL(redisUrl);
    proxy = new ReplyLosingProxy({ host: target.hostname, port: Number(target.port || 6379) });
    await proxy.start();
    const through = new URL(redisUrl);
    through.hostname = '127.0.0.1';
    through.port = String(proxy.port);
    h = await startRouterHarness({}, { REDIS_URL: through.toString(), REDIS_RECONNECT_MAX_MS: '50' });
    redis = new Redis(redisUrl, { lazyConnect: true });
    await redis.connect();
  });

  afterAll(async () => {
    // The counters of the test (the marks of the increments expire by themselves).
    for (const memKey of used) {
      const [, keys] = await redis.scan('0', 'MATCH', `tools:mem:*:${memKey}`, 'COUNT', 100_000);
      if (keys.length > 0) await redis.del(...keys);
    }
    await h?.stop();
    await proxy?.close();
    await redis?.quit();
  });

  /** The stored value of an agent's mem key, read from Redis itself (its name holds the agent's id). */
  const stored = async (memKey: string): Promise<string | null> => {
    const [, keys] = await redis.scan('0', 'MATCH', `tools:mem:*:${memKey}`, 'COUNT', 100_000);
    return keys.length === 1 ? redis.get(keys[0]) : null;
  };

  /** Sends a mem_incr whose first answer from Redis is lost, after Redis applied it. */
  const incrWithLostAnswer = async (token: string, memKey: string, headers: Record<string, string>) => {
    used.push(memKey);
    proxy.arm(memKey);
    const answer = h
      .http()
      .post('/mcp')
      .set({ Authorization: `Bearer ${token}`, ...headers })
      .send({ tool: 'mem_incr', input: { key: memKey, by: 1 } });
    const done = answer.then((res) => res);
    await waitFor(async () => proxy.seen && (await stored(memKey)) === '1', 'Redis applying the increment');
    proxy.dropConnection();
    return done;
  };

  /** The agent's internal id, from the name of one of its keys in Redis. */
  const agentIdOf = async (memKey: string): Promise<string> => {
    const [, keys] = await redis.scan('0', 'MATCH', `tools:mem:*:${memKey}`, 'COUNT', 100_000);
    return keys[0].split(':')[2];
  };

  afterEach(async () => {
    // The next test starts on a connection that is up again.
    await waitFor(async () => (await h.runtime.cache.status()).state === 'up', 'the cache back');
  });

  it('without a key: 503 with mayHaveRun, and the counter moved once', async () => {
    const { token } = await h.agent();
    const memKey = `lost-${randomUUID()}`;
    const res = await incrWithLostAnswer(token, memKey, {});
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ success: false, code: 'UNAVAILABLE', mayHaveRun: true });
    expect(await stored(memKey)).toBe('1');
  });

  it('a retry with the same Idempotency-Key runs it again under the same id, and it is not added twice', async () => {
    const { token } = await h.agent();
    const memKey = `lost-keyed-${randomUUID()}`;
    const idempotencyKey = randomUUID();
    const call = () =>
      h
        .http()
        .post('/mcp')
        .set({ Authorization: `Bearer ${token}`, 'Idempotency-Key': idempotencyKey })
        .send({ tool: 'mem_incr', input: { key: memKey, by: 1 } });
    const first = await incrWithLostAnswer(token, memKey, { 'Idempotency-Key': idempotencyKey });
    expect(first.status).toBe(503);
    expect(first.body).toMatchObject({ code: 'UNAVAILABLE', mayHaveRun: true });
    expect(await stored(memKey)).toBe('1');

    // The front door's claim and the kernel's record of the first run could not be released while
    // the connection was down: their leases lapse (15 s and the deadline); here they are removed
    // at once. Neither knows the outcome, so the retry runs the call again, with the same id.
    await waitFor(async () => (await h.runtime.cache.status()).state === 'up', 'the cache back');
    const agentId = await agentIdOf(memKey);
    const [, claims] = await redis.scan('0', 'MATCH', `idempotency:agent:${agentId}:*`, 'COUNT', 100_000);
    const scope = idempotencyScope({ subjectType: 'agent', agentId, via: 'bearer' });
    const fingerprint = requestFingerprint(['tools/call', 'mem_incr', null, { key: memKey, by: 1 }]);
    const record = `kernel:dedupe:${stableEnvelopeId(`${scope}\n${idempotencyKey}\n${fingerprint}`)}`;
    await redis.del(record, ...claims);

    const retry = await call();
    expect(retry.body).toEqual({ success: true, result: { value: 1 } });
    expect(await stored(memKey)).toBe('1');
    // Without a key, another call is another increment.
    expect((await h.call(token, 'mem_incr', { key: memKey, by: 1 })).body.result).toEqual({ value: 2 });
  });
});
