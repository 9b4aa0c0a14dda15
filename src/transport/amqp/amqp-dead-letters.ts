import type { ChannelModel } from 'amqplib';
import type { Envelope } from '../../../schemas/envelope';
import { decodeCommandMessage } from './amqp-codec';

/** A message read from a dead-letter queue; `envelope` is absent when it was malformed. */
export interface DeadLetter {
  envelope?: Envelope;
  raw: string;
}

/**
 * Runs `fn` on a throwaway channel: a missing queue (404) closes only that channel, and closing it
 * without acknowledging returns every message read back to its queue.
 */
async function withChannel<T>(
  model: ChannelModel,
  missing: T,
  fn: (channel: ChannelLike) => Promise<T>,
): Promise<T> {
  const channel = await model.createChannel();
  channel.on('error', () => undefined);
  try {
    return await fn(channel);
  } catch (err) {
    if ((err as { code?: number }).code === 404) return missing;
    throw err;
  } finally {
    await channel.close().catch(() => undefined);
  }
}

type ChannelLike = Awaited<ReturnType<ChannelModel['createChannel']>>;

/** Messages ready in a queue (0 when it does not exist). */
export function countMessages(model: ChannelModel, queue: string): Promise<number> {
  return withChannel(model, 0, async (channel) => (await channel.checkQueue(queue)).messageCount);
}

/**
 * Reads up to `max` messages of a queue without removing them. A message holding a batch of
 * commands yields one dead letter per command (so the result may hold more than `max`).
 */
export function peekMessages(model: ChannelModel, queue: string, max: number): Promise<DeadLetter[]> {
  const out: DeadLetter[] = [];
  return withChannel(model, out, async (channel) => {
    for (let i = 0; i < max; i++) {
      const message = await channel.get(queue, { noAck: false });
      if (!message) break;
      const command = decodeCommandMessage(message.content);
      if (!command.batch) {
        const { decoded } = command;
        out.push({
          envelope: decoded.ok ? decoded.envelope : undefined,
          raw: message.content.toString('utf8'),
        });
        continue;
      }
      // A whole batch dead-lettered by the broker itself (its consumers kept dying): one per envelope.
      for (const item of command.items) {
        out.push(
          item.ok
            ? { envelope: item.envelope, raw: JSON.stringify(item.envelope) }
            : { raw: JSON.stringify(item.raw) },
        );
      }
    }
    return out;
  });
}
