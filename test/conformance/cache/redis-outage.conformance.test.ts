import net from 'node:net';
import { RedisCache } from '../../../src/store/cache/redis.cache';
import { createRateLimiter } from '../../../src/store/cache/rate-limiter';
import { describeWithService } from '../../support/services';
import { sleep } from './cache-factories';

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A TCP proxy in front of Redis that the test can cut, pause (hold bytes, like a stuck server) and restore. */
class Proxy {
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private held: (() => void)[] = [];
  private paused = false;

  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  async start(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.on('data', (chunk) => this.forward(() => upstream.write(chunk)));
      upstream.on('data', (chunk) => this.forward(() => client.write(chunk)));
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    for (const write of this.held.splice(0)) write();
  }

  private forward(write: () => void): void {
    if (this.paused) this.held.push(write);
    else write();
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

describe('redis cache when Redis is unreachable', () => {
  it('starts down and fails fast with UNAVAILABLE, for the cache and the rate limiter', async () => {
    const started = Date.now();
    const cache = await RedisCache.connect(`redis://:s3cret-pass@127.0.0.1:${await freePort()}`);
    try {
      expect(Date.now() - started).toBeLessThan(2500);
      const callStarted = Date.now();
      const err = await cache.get('x').catch((e: unknown) => e);
      expect(Date.now() - callStarted).toBeLessThan(100);
      expect(err).toMatchObject({ code: 'UNAVAILABLE', status: 503, retryable: true });
      await expect(cache.set('x', 'y')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
      const limiter = createRateLimiter(cache, { keyPrefix: 'outage', points: 1, durationSec: 1 });
      await expect(limiter.consume('k')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
      const status = await cache.status();
      expect(status.state).toBe('down');
      expect(JSON.stringify([status, err])).not.toContain('s3cret-pass');
    } finally {
      await cache.close();
    }
  });
});

describeWithService('redis', 'redis cache through a proxy that fails', (url) => {
  const target = { host: new URL(url).hostname || '127.0.0.1', port: Number(new URL(url).port) || 6379 };
  let proxy: Proxy;
  let cache: RedisCache;
  const key = `test:outage:${process.pid}:${Date.now()}`;

  beforeAll(async () => {
    proxy = new Proxy(await freePort(), target);
    await proxy.start();
    const auth = new URL(url);
    auth.hostname = '127.0.0.1';
    auth.port = String(proxy.port);
    cache = await RedisCache.connect(auth.toString(), { commandTimeoutMs: 300, maxReconnectDelayMs: 200 });
  });

  afterAll(async () => {
    proxy.resume();
    await cache.delete(key).catch(() => undefined);
    await cache.close();
    await proxy.stop();
  });

  it('fails fast while the connection is down and recovers by itself', async () => {
    await cache.set(key, 'v');
    await proxy.stop();
    await sleep(50);
    const started = Date.now();
    await expect(cache.get(key)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    await expect(
      createRateLimiter(cache, { keyPrefix: key, points: 5, durationSec: 1 }).consume('k'),
    ).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
    expect(Date.now() - started).toBeLessThan(200);
    expect((await cache.status()).state).toBe('down');

    await proxy.start();
    const deadline = Date.now() + 5000;
    while ((await cache.status()).state !== 'up' && Date.now() < deadline) await sleep(50);
    expect(await cache.get(key)).toBe('v');
  });

  it('a server that stops answering fails the call after commandTimeoutMs, not never', async () => {
    proxy.pause();
    const started = Date.now();
    await expect(cache.get(key)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(Date.now() - started).toBeLessThan(1000);
    proxy.resume();
    // The late reply is matched to the timed-out command, so the connection stays usable.
    expect(await cache.get(key)).toBe('v');
  });
});
