import { randomBytes } from 'node:crypto';
import { AmqpNames } from '../../src/transport/amqp/amqp-topology';
import { AmqpTransport, type AmqpTransportOptions } from '../../src/transport/amqp/amqp.transport';
import { deleteAmqpTopology, queueMessageCount } from './amqp-admin';

/** A unique names prefix; it also starts every connection name of the cluster (see amqp-connections). */
export function uniqueAmqpPrefix(): string {
  return `test.${randomBytes(5).toString('hex')}`;
}

/** Options of a test node; `deliveryLimit` other than 5 moves the node to a prefix of its own. */
export type AmqpTestNodeOptions = Partial<Omit<AmqpTransportOptions, 'nodeId' | 'prefix'>>;

export interface AmqpTestCluster {
  /** The base prefix; connections are named `<prefix>:<nodeId>`. */
  readonly prefix: string;
  /** A node in this process (not started). */
  node(nodeId: string, options?: AmqpTestNodeOptions): AmqpTransport;
  /**
   * Environment for a node run in a child process (test/support/children/amqp-worker.child.ts);
   * its queues are removed by `cleanup` too.
   */
  childEnv(nodeId: string, kind: string, extra?: Record<string, string>): Record<string, string>;
  deadLetterCount(kind: string): Promise<number>;
  /** Stops this process's nodes and deletes every queue and exchange of the cluster. */
  cleanup(): Promise<void>;
}

/**
 * Isolated AMQP "clusters" for tests: a unique prefix per cluster, so concurrent runs and other
 * suites never meet, and fast reconnection so fault tests do not wait for production backoff.
 */
export function createAmqpTestCluster(url: string): AmqpTestCluster {
  const base = uniqueAmqpPrefix();
  const nodes: AmqpTransport[] = [];
  const prefixes = new Set<string>();
  const extraQueues = new Set<string>();
  const extraExchanges = new Set<string>();
  const prefixFor = (deliveryLimit = 5) => {
    // Queue arguments are fixed at declaration: another delivery limit needs other queues.
    const prefix = deliveryLimit === 5 ? base : `${base}.dl${deliveryLimit}`;
    prefixes.add(prefix);
    return prefix;
  };
  return {
    prefix: base,
    node(nodeId, options = {}) {
      const transport = new AmqpTransport({
        url,
        connectionName: `${base}:${nodeId}`,
        reconnect: { initialDelayMs: 50, maxDelayMs: 1000 },
        startTimeoutMs: 10000,
        ...options,
        nodeId,
        prefix: prefixFor(options.deliveryLimit),
      });
      nodes.push(transport);
      return transport;
    },
    childEnv(nodeId, kind, extra = {}) {
      const prefix = prefixFor(extra.DELIVERY_LIMIT ? Number(extra.DELIVERY_LIMIT) : undefined);
      const names = new AmqpNames(prefix);
      for (const q of [names.commandQueue(kind), names.deadLetterQueue(kind)]) extraQueues.add(q);
      for (const q of [names.replyQueue(nodeId), names.broadcastQueue(nodeId)]) extraQueues.add(q);
      extraExchanges.add(names.deadLetterExchange);
      extraExchanges.add(names.broadcastExchange);
      return {
        AMQP_URL: url,
        AMQP_PREFIX: prefix,
        CONNECTION_NAME: `${base}:${nodeId}`,
        NODE_ID: nodeId,
        KIND: kind,
        ...extra,
      };
    },
    async deadLetterCount(kind) {
      let total = 0;
      for (const prefix of prefixes)
        total += await queueMessageCount(url, new AmqpNames(prefix).deadLetterQueue(kind));
      return total;
    },
    async cleanup() {
      await Promise.all(nodes.map((n) => n.stop(0).catch(() => undefined)));
      const queues = new Set(extraQueues);
      const exchanges = new Set(extraExchanges);
      for (const n of nodes) {
        const declared = n.declaredNames();
        declared.queues.forEach((q) => queues.add(q));
        declared.exchanges.forEach((e) => exchanges.add(e));
      }
      await deleteAmqpTopology(url, { queues: [...queues], exchanges: [...exchanges] });
    },
  };
}
