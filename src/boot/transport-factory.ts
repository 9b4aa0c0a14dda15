import type { Config } from '../config/load-config';
import type { Logger } from '../logging/logger';
import { AmqpTransport } from '../transport/amqp/amqp.transport';
import { InProcessBus, InProcessTransport } from '../transport/in-process.transport';
import type { Transport } from '../transport/transport';

/** RabbitMQ when `AMQP_URL` is set, the in-process bus otherwise (one process, nothing to install). */
export function createTransport(config: Config, logger: Logger): Transport {
  if (config.AMQP_URL) {
    return new AmqpTransport({
      url: config.AMQP_URL,
      nodeId: config.NODE_ID,
      prefix: config.AMQP_PREFIX,
      prefetch: config.AMQP_PREFETCH,
      deliveryLimit: config.AMQP_DELIVERY_LIMIT,
      batchMax: config.AMQP_BATCH_MAX,
      reconnect: { maxDelayMs: config.AMQP_RECONNECT_MAX_MS },
      maxMessageBytes: config.AMQP_MAX_MESSAGE_BYTES,
      logger: logger.child({ component: 'transport' }),
    });
  }
  const bus = new InProcessBus({ prefetch: config.AMQP_PREFETCH, deliveryLimit: config.AMQP_DELIVERY_LIMIT });
  return new InProcessTransport(config.NODE_ID, bus);
}
