import { randomBytes } from 'node:crypto';
import { silentLogger } from '../../../src/logging/logger';
import {
  createActorSystem,
  type ActorSystem,
  type ActorSystemOptions,
  type AnyActorDefinition,
} from '../../../src/kernel';
import type { Transport } from '../../../src/transport/transport';
import type { TransportFactory } from '../../support/transports';

/** A unique lower-case name, so that parallel runs on one broker never share a queue. */
export function unique(base: string): string {
  return `${base}-${randomBytes(5).toString('hex')}`;
}

export interface KernelNode {
  system: ActorSystem;
  transport: Transport;
}

/** Options of one test node: system options, plus the transport's prefetch. */
export type NodeOptions = Partial<Omit<ActorSystemOptions, 'transport'>> & { prefetch?: number };

/**
 * A fresh transport cluster and the actor systems started on it. `close()` stops every system and
 * removes what the cluster declared; call it in `afterEach`.
 */
export function kernelCluster(factory: TransportFactory) {
  const cluster = factory.createCluster();
  const prefix = unique('node');
  const nodes: KernelNode[] = [];
  return {
    async node(
      name: string,
      definitions: AnyActorDefinition[] = [],
      options: NodeOptions = {},
    ): Promise<KernelNode> {
      const { prefetch, ...systemOptions } = options;
      const transport = cluster.node(`${prefix}-${name}`, prefetch ? { prefetch } : undefined);
      const system = createActorSystem({
        transport,
        logger: silentLogger,
        defaultTimeoutMs: 5000,
        ...systemOptions,
      });
      for (const definition of definitions) await system.register(definition);
      await system.start();
      const node = { system, transport };
      nodes.push(node);
      return node;
    },
    /** Dead letters of a kind in this cluster (eventually consistent on a broker). */
    deadLetterCount(kind: string): Promise<number> {
      return cluster.deadLetterCount(kind);
    },
    /** Polls until `kind` has `count` dead letters (or the time is up); returns the last count. */
    async deadLetters(kind: string, count: number, timeoutMs = 5000): Promise<number> {
      const until = Date.now() + timeoutMs;
      let n = await cluster.deadLetterCount(kind);
      while (n < count && Date.now() < until) {
        await sleep(25);
        n = await cluster.deadLetterCount(kind);
      }
      return n;
    },
    async close(): Promise<void> {
      await Promise.all(nodes.map((n) => n.system.stop(2000)));
      await cluster.cleanup();
    },
  };
}

export type KernelCluster = ReturnType<typeof kernelCluster>;

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves once `condition` holds (polling), or fails after `timeoutMs`. */
export async function eventually(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await sleep(5);
  }
}

/** The AppError code a promise rejects with (fails when it resolves). */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as { code?: string }).code ?? 'not an AppError';
  }
  throw new Error('expected a rejection');
}
