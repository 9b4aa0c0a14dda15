import net from 'node:net';

/**
 * The URL if it points to this machine and something answers on its port, else undefined. A URL
 * naming another host is refused: the benchmarks load, cut and clean up what they use, which is
 * only acceptable on a machine of one's own.
 */
export async function localService(
  raw: string,
  defaultPort: number,
  bench: string,
): Promise<string | undefined> {
  const url = new URL(raw);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
    throw new Error(`${bench} runs against this machine only; refusing ${url.hostname}`);
  }
  const port = Number(url.port) || defaultPort;
  const up = await new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: url.hostname.replace(/[[\]]/g, ''), port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1500, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
  return up ? raw : undefined;
}

/** A loopback port nobody listens on right now (the OS's pick), for a server that must keep it across restarts. */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Redis (required) and RabbitMQ (optional: undefined when nothing answers) of this machine, from
 * REDIS_URL and AMQP_URL or their loopback defaults, for the benchmark named `bench`.
 */
export async function localRedisAndBroker(bench: string): Promise<{ redisUrl: string; amqpUrl?: string }> {
  const redisUrl = await localService(process.env.REDIS_URL || 'redis://127.0.0.1:6379', 6379, bench);
  const amqpUrl = await localService(
    process.env.AMQP_URL || 'amqp://guest:guest@127.0.0.1:5672',
    5672,
    bench,
  );
  if (!redisUrl) throw new Error(`${bench} needs Redis (REDIS_URL, default redis://127.0.0.1:6379)`);
  return { redisUrl, amqpUrl };
}
