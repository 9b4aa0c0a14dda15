import { createSecretKey } from 'node:crypto';
import { ClaimsSealer } from '../../actors/identity/sealed-claims';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Redis } from 'ioredis';
import { bearerSubject, memCall, UNAUTHORIZED, type MemAnswer } from './bare-mem';
import { onStopRequest } from '../support/child-ipc';
import { connectRaw, rawRequester } from '../support/raw-amqp';

/**
 * The ceiling of `bench:mcp`'s AMQP cases (the issue's "raw amqplib round trip with the same Redis
 * calls"): the bare handler split in two over RabbitMQ with nothing of ours on the way, and with
 * none of the guarantees of our transport.
 *
 * ROLE = 'front': bare.child's Express app, whose `POST /mcp` checks the bearer token, publishes
 *   `{sub, body}` to RAW_QUEUE (no publisher confirm, not persistent) with RabbitMQ's direct
 *   reply-to and a correlation id, and answers what comes back.
 * ROLE = 'worker': consumes RAW_QUEUE (classic, non-durable, deleted with its last consumer;
 *   prefetch 64, acked after the reply), does the Redis call of bare.child and replies.
 *
 * Both connect with `noDelay` (no Nagle delay on small frames). Env: AMQP_URL, RAW_QUEUE,
 * REDIS_URL, JWT_SECRET, BENCH_REDIS_PREFIX. IPC like service.child: `{event: 'ready', url?}`;
 * on `{cmd: 'stop'}` (or when the parent goes away) `{event: 'declared', queues}` and exit.
 */
const env = process.env;
const TIMEOUT_MS = 10_000;
const TIMED_OUT: MemAnswer = { status: 504, body: { success: false, code: 'TIMEOUT' } };

const connect = () => connectRaw(env.AMQP_URL!, `${env.RAW_QUEUE}:${env.ROLE}`);

async function worker(): Promise<() => Promise<void>> {
  const prefix = env.BENCH_REDIS_PREFIX ?? 'bench:mcp:raw:';
  const redis = new Redis(env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
    lazyConnect: true,
    enableAutoPipelining: true,
  });
  await redis.connect();
  const connection = await connect();
  const channel = await connection.createChannel();
  await channel.assertQueue(env.RAW_QUEUE!, { durable: false, autoDelete: true });
  await channel.prefetch(64);
  await channel.consume(env.RAW_QUEUE!, (msg) => {
    if (!msg) return;
    const { replyTo, correlationId } = msg.properties as { replyTo?: string; correlationId?: string };
    let request: { sub: string; body: unknown };
    try {
      request = JSON.parse(msg.content.toString()) as { sub: string; body: unknown };
    } catch {
      channel.ack(msg);
      return;
    }
    void memCall(redis, prefix, request.sub, request.body).then((answer) => {
      if (replyTo) channel.publish('', replyTo, Buffer.from(JSON.stringify(answer)), { correlationId });
      channel.ack(msg);
    });
  });
  return async () => {
    await connection.close().catch(() => undefined);
    await redis.quit().catch(() => undefined);
  };
}

async function front(): Promise<{ url: string; stop: () => Promise<void> }> {
  const key = createSecretKey(Buffer.from(env.JWT_SECRET ?? '', 'utf8'));
  const sealer = new ClaimsSealer(env.JWT_SECRET ?? '');
  const connection = await connect();
  const channel = await connection.createChannel();
  // Direct reply-to: no queue, consumed without acknowledgements on the publishing channel.
  const requester = await rawRequester(channel, env.RAW_QUEUE!, TIMEOUT_MS);
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '1mb' }));
  app.post('/mcp', (req, res) => {
    const sub = bearerSubject(req.headers.authorization, key, sealer);
    const reply = (answer: MemAnswer) => res.status(answer.status).json(answer.body);
    if (sub === undefined) return void reply(UNAUTHORIZED);
    const body = Buffer.from(JSON.stringify({ sub, body: req.body as unknown }));
    void requester.request(body).then((content) => {
      reply(content === undefined ? TIMED_OUT : (JSON.parse(content.toString()) as MemAnswer));
    });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await connection.close().catch(() => undefined);
    },
  };
}

async function main(): Promise<void> {
  let stop: () => Promise<void>;
  if (env.ROLE === 'worker') {
    stop = await worker();
    process.send?.({ event: 'ready' });
  } else {
    const served = await front();
    stop = served.stop;
    process.send?.({ event: 'ready', url: served.url });
  }
  onStopRequest(stop, {
    announce: () => ({ event: 'declared', queues: [env.RAW_QUEUE], exchanges: [] }),
    reportStopped: false,
  });
}

main().catch((err: unknown) => {
  process.stderr.write(
    `bench raw amqplib (${env.ROLE ?? 'front'}): ${String((err as Error)?.stack ?? err)}\n`,
  );
  process.exit(1);
});
