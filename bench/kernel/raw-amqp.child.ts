/**
 * The reference case for `/health` over AMQP, with nothing of ours on the path: raw amqplib.
 *
 * ROLE = 'responder': consumes QUEUE (a classic, non-durable queue it declares) and answers each
 *   message with BODY (JSON, a fresh timestamp) to its `replyTo`, with its `correlationId`; acks
 *   each message (prefetch 64).
 * ROLE = 'api': a bare Express app (the same shape as the bare case of http-server.child.ts) whose
 *   `GET /health` publishes a request to QUEUE with a `replyTo` and a `correlationId`, waits for the
 *   reply and returns its JSON. REPLY = 'direct' (RabbitMQ's direct reply-to, no queue) or 'queue'
 *   (a per-process reply queue REPLY_QUEUE, declared exclusive, auto-delete).
 *
 * Both connect with `noDelay: true` (no Nagle delay on the small frames of a round trip).
 * IPC: `{ event: 'ready', url? }` once serving; `{ cmd: 'stop' }` stops it.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { onStopRequest, tell } from './children';
import { connectRaw, DIRECT_REPLY_TO, rawRequester } from '../support/raw-amqp';

const env = process.env;
/** A request not answered by then fails with 504 (the broker or the responder is away). */
const TIMEOUT_MS = 10_000;

const connect = () => connectRaw(env.AMQP_URL!, `${env.QUEUE}:${env.ROLE}`);

async function responder(): Promise<void> {
  const body = JSON.parse(env.BODY || '{}') as Record<string, unknown>;
  const connection = await connect();
  const channel = await connection.createChannel();
  await channel.assertQueue(env.QUEUE!, { durable: false });
  await channel.prefetch(64);
  await channel.consume(env.QUEUE!, (msg) => {
    if (!msg) return;
    const { replyTo, correlationId } = msg.properties as { replyTo?: string; correlationId?: string };
    if (replyTo) {
      const answer = Buffer.from(JSON.stringify({ ...body, timestamp: new Date().toISOString() }));
      channel.publish('', replyTo, answer, { correlationId, contentType: 'application/json' });
    }
    channel.ack(msg);
  });
  onStopRequest(() => connection.close());
  await tell({ event: 'ready' });
}

async function api(): Promise<void> {
  const connection = await connect();
  const channel = await connection.createChannel();
  const direct = env.REPLY !== 'queue';
  const replyTo = direct ? DIRECT_REPLY_TO : env.REPLY_QUEUE!;
  if (!direct) await channel.assertQueue(replyTo, { exclusive: true, autoDelete: true, durable: false });
  // Direct reply-to requires no-ack consumption; the per-process queue uses it too (same cost model).
  const requester = await rawRequester(channel, env.QUEUE!, TIMEOUT_MS, replyTo);
  const app = express();
  app.disable('x-powered-by');
  app.get('/health', (_req, res) => {
    void requester.request(Buffer.from('{}')).then((content) => {
      if (content === undefined) res.status(504).json({ error: 'no reply', code: 'TIMEOUT' });
      else res.json(JSON.parse(content.toString()));
    });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  onStopRequest(async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    await connection.close();
  });
  await tell({ event: 'ready', url: `http://127.0.0.1:${port}` });
}

(env.ROLE === 'responder' ? responder() : api()).catch((err: unknown) => {
  process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
