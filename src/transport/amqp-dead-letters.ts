import type { ChannelModel } from 'amqplib';
import type { Envelope } from '../../schemas/envelope';
import { decodeEnvelope } from './amqp-codec';

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

/** Reads up to `max` messages of a queue without removing them. */
export function peekMessages(model: ChannelModel, queue: string, max: number): Promise<DeadLetter[]> {
  const out: DeadLetter[] = [];
  return withChannel(model, out, async (channel) => {
    for (let i = 0; i < max; i++) {
      const message = await channel.get(queue, { noAck: false });
      if (!message) break;
      const decoded = decodeEnvelope(message.content);
      out.push({
        envelope: decoded.ok ? decoded.envelope : undefined,
        raw: message.content.toString('utf8'),
      });
    }
    return out;
  });
}
