import { InProcessBus, InProcessTransport } from '../../src/transport/in-process.transport';
import type { Transport } from '../../src/transport/transport';
import { createAmqpTestCluster } from './amqp-cluster';
import { serviceUrl } from './services';

/** Per-node options a test may set; unset ones take the cluster defaults (prefetch 64, delivery limit 5). */
export interface NodeOptions {
  prefetch?: number;
  deliveryLimit?: number;
}

/**
 * The transports every conformance suite runs against. Each factory makes a fresh, isolated
 * "cluster": `node(id)` returns a transport for one node of it; `cleanup` removes what it declared.
 * The AMQP entry is added when RabbitMQ is reachable (see test/support/services.ts).
 *
 * Nodes created with different options may not see each other's commands (the in-process bus and
 * the AMQP queue arguments are per option set): create the sender with the same options.
 */
export interface TransportCluster {
  node(nodeId: string, options?: NodeOptions): Transport;
  /** Dead letters of an actor kind in this cluster (eventually consistent on a broker: poll). */
  deadLetterCount(kind: string): Promise<number>;
  /** Stops the nodes still running and deletes what the cluster declared. */
  cleanup(): Promise<void>;
}

export interface TransportFactory {
  name: string;
  createCluster(): TransportCluster;
}

export const inProcessFactory: TransportFactory = {
  name: 'in-process',
  createCluster() {
    const buses = new Map<string, InProcessBus>();
    const bus = new InProcessBus({ prefetch: 64, deliveryLimit: 5 });
    return {
      node(nodeId, options) {
        if (options && (options.prefetch || options.deliveryLimit)) {
          const key = `${options.prefetch}-${options.deliveryLimit}`;
          if (!buses.has(key)) buses.set(key, new InProcessBus(options));
          return new InProcessTransport(nodeId, buses.get(key));
        }
        return new InProcessTransport(nodeId, bus);
      },
      async deadLetterCount(kind) {
        return [bus, ...buses.values()].reduce((n, b) => n + b.deadLetters(kind).length, 0);
      },
      async cleanup() {},
    };
  },
};

/**
 * RabbitMQ clusters (see amqp-cluster.ts): a unique names prefix each; nodes with a non-default
 * delivery limit get a prefix of their own, because queue arguments are fixed at declaration.
 */
export function amqpFactory(url: string): TransportFactory {
  return {
    name: 'amqp',
    createCluster: () => createAmqpTestCluster(url),
  };
}

export function transportFactories(): TransportFactory[] {
  const url = serviceUrl('amqp');
  return url ? [inProcessFactory, amqpFactory(url)] : [inProcessFactory];
}
