import * as amqp from 'amqplib';
import type { Channel } from 'amqplib';
import { silentLogger } from '../../src/logging/logger';
import { RedisCache } from '../../src/store/cache';
import { AmqpNames } from '../../src/transport/amqp/amqp-topology';

/**
 * Everything the benchmark started or declared, undone in reverse order at the end (or on error):
 * children, systems, then the AMQP queues and exchanges of its prefix, the Redis keys of its
 * namespace, temporary directories.
 */
export class BenchCleanup {
  private readonly steps: Array<{ what: string; run: () => Promise<unknown> }> = [];
  private readonly kinds = new Set<string>();
  private readonly nodes = new Set<string>();
  private readonly queues = new Set<string>();

  constructor(
    readonly amqpUrl: string | undefined,
    readonly prefix: string,
  ) {}

  /** An actor kind whose queues (`<prefix>.actor.<kind>`, `<prefix>.dlq.<kind>`) must go. */
  kind(kind: string): void {
    this.kinds.add(kind);
  }

  /** A node whose reply and broadcast queues must go (normally removed by its own graceful stop). */
  node(nodeId: string): void {
    this.nodes.add(nodeId);
  }

  /** Any other queue the benchmark declared (the raw amqplib reference case's). */
  queue(name: string): void {
    this.queues.add(name);
  }

  step(what: string, run: () => Promise<unknown>): void {
    this.steps.push({ what, run });
  }

  /** Redis keys under `namespace` (only those: never a FLUSH). */
  redisKeys(url: string, namespace: string): void {
    this.step(`redis keys ${namespace}*`, async () => {
      const redis = await RedisCache.connect(url, { logger: silentLogger });
      try {
        const view = redis.namespace(namespace);
        for (let round = 0; round < 100; round++) {
          const keys = await view.list('', { limit: 10_000 });
          if (keys.length === 0) break;
          await Promise.all(keys.map((k) => view.delete(k)));
        }
      } finally {
        await redis.close();
      }
    });
  }

  async run(): Promise<void> {
    for (const { what, run } of this.steps.splice(0).reverse()) {
      try {
        await run();
      } catch (err) {
        process.stderr.write(`cleanup (${what}) failed: ${(err as Error)?.message ?? String(err)}\n`);
      }
    }
    if (this.amqpUrl && (this.kinds.size > 0 || this.nodes.size > 0 || this.queues.size > 0))
      await this.deleteTopology(this.amqpUrl);
  }

  private async deleteTopology(url: string): Promise<void> {
    const names = new AmqpNames(this.prefix);
    const queues = [
      ...[...this.kinds].flatMap((k) => [names.commandQueue(k), names.deadLetterQueue(k)]),
      ...[...this.nodes].flatMap((n) => [names.replyQueue(n), names.broadcastQueue(n)]),
      ...this.queues,
    ];
    const exchanges = [names.deadLetterExchange, names.broadcastExchange];
    const connection = await amqp.connect(url, {
      clientProperties: { connection_name: `${this.prefix}:cleanup` },
    });
    connection.on('error', () => undefined);
    try {
      // One channel per name: deleting something missing closes the channel it was asked on.
      const run = async (op: (channel: Channel) => Promise<unknown>) => {
        const channel = await connection.createChannel();
        channel.on('error', () => undefined);
        await op(channel).catch(() => undefined);
        await channel.close().catch(() => undefined);
      };
      await Promise.all(queues.map((q) => run((c) => c.deleteQueue(q))));
      await Promise.all(exchanges.map((e) => run((c) => c.deleteExchange(e))));
    } finally {
      await connection.close().catch(() => undefined);
    }
  }
}
