import type { Logger } from '../../logging/logger';
import type { BackoffOptions } from './amqp-connection';

/** Options of the AMQP transport. Only `url` and `nodeId` are required. */
export interface AmqpTransportOptions {
  /** Broker URL (config AMQP_URL). Credentials in it are never shown by `status()` or logs. */
  url: string;
  /** This node's id; names its reply queue and broadcast inbox. */
  nodeId: string;
  /** Prefix of every queue and exchange name. Default `ars`. */
  prefix?: string;
  /**
   * Unacknowledged messages per consumer, and about the turns of one kind at once on this node
   * (fewer than twice it with batches, see amqp-consumer-batch.ts) (config AMQP_PREFETCH). Default 64.
   */
  prefetch?: number;
  /** Deliveries of a command before it is dead-lettered (config AMQP_DELIVERY_LIMIT). Default 5. Same on every node of a prefix. */
  deliveryLimit?: number;
  /**
   * Most commands to one kind sent in one turn of the event loop that leave as one message
   * (config AMQP_BATCH_MAX; amqp-command-batches.ts). Default 32; 1 sends every command alone.
   */
  batchMax?: number;
  /**
   * A command message longer than this is dead-lettered unread (reason `malformed`, detail
   * `too large`). Default 64 MiB: well above any command the front door sends with its default
   * BODY_LIMIT_BYTES (12 MiB).
   */
  maxMessageBytes?: number;
  /** AMQP heartbeat in seconds. Default 10. */
  heartbeatSeconds?: number;
  /** Reconnection backoff. Default 100 ms doubling up to 800 ms, with jitter (AMQP_RECONNECT_MAX_MS). */
  reconnect?: BackoffOptions;
  /** How long `start()` waits for the first connection before rejecting UNAVAILABLE. Default 30000 ms. */
  startTimeoutMs?: number;
  /** TCP + AMQP handshake timeout of one connection attempt. Default 5000 ms. */
  connectTimeoutMs?: number;
  /** A `send` not confirmed by the broker within this time rejects UNAVAILABLE. Default 10000 ms. */
  confirmTimeoutMs?: number;
  /** A node's reply and broadcast queues are deleted by the broker after this long unused. Default 60000 ms. */
  nodeQueueExpiresMs?: number;
  /**
   * Most bytes of replies kept in memory while no link can carry them (amqp-reply-hold.ts); the
   * oldest are dropped beyond it. Default 16 MiB.
   */
  replyHoldBytes?: number;
  /** Connection name shown by the broker. Default `<prefix>:<nodeId>`. */
  connectionName?: string;
  /** Default: silent. */
  logger?: Logger;
}
