import type { ChannelModel } from 'amqplib';
import type { Envelope } from '../../../schemas/envelope';
import type { Message } from 'amqplib';
import { batchSlices } from './amqp-batch-slices';
import { DEAD_LETTER_DETAIL_HEADER, DEAD_LETTER_REASON_HEADER, decodeCommandMessage } from './amqp-codec';

/** A message read from a dead-letter queue; `envelope` is absent when it was malformed. */
export interface DeadLetter {
  envelope?: Envelope;
  raw: string;
  /**
   * Why it was dead-lettered, when it says: the transport's reason and detail
   * (`malformed: invalid UTF-8`), or the broker's (`x-death`: `rejected`, `delivery_limit`).
   */
  reason?: string;
}

function reasonOf(message: Message): string | undefined {
  const headers = message.properties.headers ?? {};
  const reason = headers[DEAD_LETTER_REASON_HEADER] as unknown;
  const detail = headers[DEAD_LETTER_DETAIL_HEADER] as unknown;
  if (typeof reason === 'string') return typeof detail === 'string' ? `${reason}: ${detail}` : reason;
  const death = (headers['x-death'] as Array<{ reason?: unknown }> | undefined)?.[0]?.reason;
  return typeof death === 'string' ? death : undefined;
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

/** Messages ready and consumers of a queue (undefined when it does not exist). */
export function queueInfo(
  model: ChannelModel,
  queue: string,
): Promise<{ messages: number; consumers: number } | undefined> {
  return withChannel<{ messages: number; consumers: number } | undefined>(
    model,
    undefined,
    async (channel) => {
      const q = await channel.checkQueue(queue);
      return { messages: q.messageCount, consumers: q.consumerCount };
    },
  );
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
      const reason = reasonOf(message);
      if (!command.batch) {
        const { decoded } = command;
        out.push({
          envelope: decoded.ok ? decoded.envelope : undefined,
          raw: message.content.toString('utf8'),
          ...(reason === undefined ? {} : { reason }),
        });
        continue;
      }
      // A whole batch dead-lettered by the broker itself (its consumers kept dying): one per
      // envelope, each as its bytes came (never serialised again: it may be poison of any depth).
      const slices = batchSlices(message.content);
      command.items.forEach((item, i) => {
        out.push({
          envelope: item.ok ? item.envelope : undefined,
          raw: slices[i]?.toString('utf8') ?? '',
          ...(reason === undefined ? {} : { reason }),
        });
      });
    }
    return out;
  });
}
