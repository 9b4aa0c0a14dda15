import { InProcessBus, InProcessTransport } from '../../src/transport/in-process.transport';
import type { Transport } from '../../src/transport/transport';

/**
 * The transports every conformance suite runs against. Each factory makes a fresh, isolated
 * "cluster": `node(id)` returns a transport for one node of it; `cleanup` removes what it declared.
 * The AMQP entry is added when RabbitMQ is reachable (see test/support/services.ts).
 */
export interface TransportCluster {
  node(nodeId: string, options?: { prefetch?: number; deliveryLimit?: number }): Transport;
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
      async cleanup() {},
    };
  },
};

export function transportFactories(): TransportFactory[] {
  return [inProcessFactory];
}
