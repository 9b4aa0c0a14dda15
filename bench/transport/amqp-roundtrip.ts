/**
 * Raw request/reply round trips through the AMQP transport (no kernel): the requester `send`s a
 * command (publisher confirm), a consumer of the kind replies to the requester's reply queue and
 * acknowledges. Prints throughput and latency percentiles.
 *
 *   node -r ./test/support/ts-register.js bench/transport/amqp-roundtrip.ts
 *
 * Environment: AMQP_URL (default amqp://guest:guest@127.0.0.1:5672), REQUESTS (20000),
 * CONCURRENCY (50), NODES (1: one node asks itself, like ROLE=all; 2: requester and worker nodes),
 * PREFETCH (64).
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import * as amqp from 'amqplib';
import type { Envelope } from '../../schemas/envelope';
import { AmqpTransport } from '../../src/transport/amqp/amqp.transport';

const url = process.env.AMQP_URL || 'amqp://guest:guest@127.0.0.1:5672';
const total = Number(process.env.REQUESTS || 20000);
const concurrency = Number(process.env.CONCURRENCY || 50);
const nodes = Number(process.env.NODES || 1);
const prefetch = Number(process.env.PREFETCH || 64);

async function main(): Promise<void> {
  const prefix = `bench.${randomBytes(4).toString('hex')}`;
  const requester = new AmqpTransport({ url, nodeId: 'requester', prefix, prefetch });
  const worker = nodes === 1 ? requester : new AmqpTransport({ url, nodeId: 'worker', prefix, prefetch });
  await requester.start();
  if (worker !== requester) await worker.start();

  await worker.consume('bench', async ({ envelope }) => {
    await worker.reply(envelope.replyTo!, {
      v: 1,
      id: `${envelope.id}.r`,
      type: 'bench.replied',
      to: envelope.from ?? 'bench:client',
      correlationId: envelope.id,
      deadline: envelope.deadline,
      attempt: 1,
      body: { kind: 'reply', value: envelope.body },
    });
    return 'ack';
  });

  const pending = new Map<string, () => void>();
  requester.onReply((e) => pending.get(e.correlationId!)?.());

  let seq = 0;
  const latencies: number[] = [];
  const ask = (): Promise<void> => {
    const id = `req-${seq++}`;
    const envelope: Envelope = {
      v: 1,
      id,
      type: 'bench.ping',
      to: `bench:${id}`,
      replyTo: requester.nodeId,
      deadline: Date.now() + 30000,
      attempt: 1,
      body: { n: seq },
    };
    const t0 = process.hrtime.bigint();
    return new Promise<void>((resolve, reject) => {
      pending.set(id, () => {
        pending.delete(id);
        latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
        resolve();
      });
      requester.send(envelope).catch(reject);
    });
  };

  const run = async (count: number) => {
    let issued = 0;
    const lane = async () => {
      while (issued < count) {
        issued++;
        await ask();
      }
    };
    await Promise.all(Array.from({ length: concurrency }, lane));
  };

  await run(Math.min(2000, total)); // warm-up (JIT, queue leader)
  latencies.length = 0;
  const started = Date.now();
  await run(total);
  const seconds = (Date.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  console.log(
    JSON.stringify({
      nodes,
      requests: total,
      concurrency,
      prefetch,
      perSecond: Math.round(total / seconds),
      p50ms: +pct(50).toFixed(2),
      p90ms: +pct(90).toFixed(2),
      p99ms: +pct(99).toFixed(2),
      maxMs: +latencies[latencies.length - 1].toFixed(2),
      // The machine may be shared: a high load average means other work competed for the cores.
      loadAverage1m: +loadavg()[0].toFixed(2),
    }),
  );

  const declared = [requester, worker].map((t) => t.declaredNames());
  await requester.stop(1000);
  if (worker !== requester) await worker.stop(1000);
  const connection = await amqp.connect(url);
  const channel = await connection.createChannel();
  for (const d of declared) for (const q of d.queues) await channel.deleteQueue(q).catch(() => undefined);
  for (const d of declared)
    for (const e of d.exchanges) await channel.deleteExchange(e).catch(() => undefined);
  await connection.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
