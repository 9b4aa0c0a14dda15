import type { Channel } from 'amqplib';

/**
 * Names and arguments of everything the AMQP transport declares. All names start with a prefix
 * (default `ars`) so that several deployments, or test runs, can share one broker without meeting.
 *
 * | what                         | name                         | kind / arguments                                   |
 * |------------------------------|------------------------------|----------------------------------------------------|
 * | commands of an actor kind    | `<prefix>.actor.<kind>`      | durable quorum queue, delivery limit, DLX          |
 * | dead letters of a kind       | `<prefix>.dlq.<kind>`        | durable quorum queue bound to the DLX by `<kind>`  |
 * | dead-letter exchange         | `<prefix>.dlx`               | durable direct exchange                            |
 * | broadcasts                   | `<prefix>.broadcast`         | durable fanout exchange                            |
 * | a node's broadcast inbox     | `<prefix>.broadcast.<node>`  | classic queue, expires when unused                 |
 * | a node's replies             | `<prefix>.reply.<node>`      | classic queue, expires when unused                 |
 */
export class AmqpNames {
  constructor(readonly prefix: string) {
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(prefix)) throw new Error(`invalid AMQP names prefix: ${prefix}`);
  }

  commandQueue(kind: string): string {
    return `${this.prefix}.actor.${kind}`;
  }

  deadLetterQueue(kind: string): string {
    return `${this.prefix}.dlq.${kind}`;
  }

  get deadLetterExchange(): string {
    return `${this.prefix}.dlx`;
  }

  get broadcastExchange(): string {
    return `${this.prefix}.broadcast`;
  }

  broadcastQueue(nodeId: string): string {
    return `${this.prefix}.broadcast.${nodeId}`;
  }

  /** Deterministic, so `reply(nodeId)` routes through the default exchange without a lookup. */
  replyQueue(nodeId: string): string {
    return `${this.prefix}.reply.${nodeId}`;
  }
}

/** What one transport declared, so tests and tools can remove it again. */
export interface DeclaredNames {
  queues: Set<string>;
  exchanges: Set<string>;
}

export function emptyDeclaredNames(): DeclaredNames {
  return { queues: new Set(), exchanges: new Set() };
}

/**
 * Declares the queue of an actor kind with its dead-letter queue. Idempotent: the broker accepts a
 * re-declaration with the same arguments (and refuses, closing the channel, one with different
 * arguments: every node sharing a prefix must use the same delivery limit).
 *
 * The broker's `x-delivery-limit` counts *returns* (a message is dead-lettered when it has been
 * returned more than the limit), while our `deliveryLimit` counts *deliveries*; hence `- 1`, so that
 * a message is delivered exactly `deliveryLimit` times, whether its handler asked for a requeue or
 * its consumer died.
 *
 * Dead-lettering out of a quorum queue uses the default `at-most-once` strategy: the broker does not
 * confirm the move into the DLQ, so a broker crash during the move can lose that dead letter. The
 * `at-least-once` strategy would need `x-overflow: reject-publish` on every actor queue, which turns
 * a full queue into rejected sends; losing a rare dead letter is the lesser evil here.
 */
export async function declareKind(
  channels: [Channel, Channel],
  names: AmqpNames,
  kind: string,
  deliveryLimit: number,
  declared: DeclaredNames,
): Promise<void> {
  const dlq = names.deadLetterQueue(kind);
  const queue = names.commandQueue(kind);
  // Two independent chains on two channels (each channel runs one RPC at a time): the queue may
  // name its dead-letter exchange before that exchange exists. Halves a kind's first-use latency.
  const deadLetters = async (channel: Channel) => {
    await channel.assertExchange(names.deadLetterExchange, 'direct', { durable: true });
    await channel.assertQueue(dlq, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    await channel.bindQueue(dlq, names.deadLetterExchange, kind);
  };
  const commands = (channel: Channel) =>
    channel.assertQueue(queue, {
      durable: true,
      arguments: {
        'x-queue-type': 'quorum',
        'x-delivery-limit': deliveryLimit - 1,
        'x-dead-letter-exchange': names.deadLetterExchange,
        'x-dead-letter-routing-key': kind,
      },
    });
  // Recorded before asking: a declaration cut short by a lost connection may still have happened.
  declared.exchanges.add(names.deadLetterExchange);
  declared.queues.add(dlq);
  declared.queues.add(queue);
  await Promise.all([deadLetters(channels[0]), commands(channels[1])]);
}

/**
 * Declares a node's own queues: its reply queue and its broadcast inbox bound to the fanout
 * exchange. They are not exclusive, so that they outlive a dropped connection (replies and
 * broadcasts sent while the node reconnects wait for it), and they expire `expiresMs` after the
 * node's last consumer went away, so a node that died leaves nothing behind for long.
 */
export async function declareNode(
  channel: Channel,
  names: AmqpNames,
  nodeId: string,
  expiresMs: number,
  declared: DeclaredNames,
): Promise<{ replyQueue: string; broadcastQueue: string }> {
  const replyQueue = names.replyQueue(nodeId);
  const broadcastQueue = names.broadcastQueue(nodeId);
  declared.exchanges.add(names.broadcastExchange);
  declared.queues.add(replyQueue);
  declared.queues.add(broadcastQueue);
  await channel.assertExchange(names.broadcastExchange, 'fanout', { durable: true });
  await channel.assertQueue(replyQueue, { durable: false, arguments: { 'x-expires': expiresMs } });
  await channel.assertQueue(broadcastQueue, { durable: false, arguments: { 'x-expires': expiresMs } });
  await channel.bindQueue(broadcastQueue, names.broadcastExchange, '');
  return { replyQueue, broadcastQueue };
}
