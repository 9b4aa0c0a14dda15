import type { Envelope } from '../../../../schemas/envelope';
import type { Runtime } from '../../../../src/boot/runtime';
import { isStableEnvelopeId } from '../../../../src/kernel';
import type { Transport } from '../../../../src/transport/transport';
import { deferred } from '../../../support/async';

/** The transport of a runtime's actor system (the kernel's own, through which replies leave). */
function transportOf(runtime: Runtime): Transport {
  return (runtime.system as unknown as { transport: Transport }).transport;
}

/**
 * Faults on the reply path of keyed tool calls (those whose envelope id is stable, derived from an
 * idempotency key), on the nodes that host the actors: the work is done, its answer is not.
 */
export interface ReplyFaults {
  /** The next keyed reply leaving any of the nodes is dropped (as by a connection cut). */
  dropNext(): void;
  /** The next keyed reply is held until `release()`; resolves when one is held. */
  holdNext(): Promise<void>;
  release(): void;
  /** Keyed replies dropped so far. */
  readonly dropped: number;
  restore(): void;
}

export function replyFaults(runtimes: readonly Runtime[]): ReplyFaults {
  let mode: 'pass' | 'drop' | 'hold' = 'pass';
  let dropped = 0;
  let held = deferred();
  let gate = deferred();
  const restores: Array<() => void> = [];
  for (const runtime of runtimes) {
    const transport = transportOf(runtime);
    const original = transport.reply.bind(transport);
    transport.reply = async (nodeId: string, envelope: Envelope) => {
      const keyed = envelope.correlationId !== undefined && isStableEnvelopeId(envelope.correlationId);
      if (keyed && mode === 'drop') {
        mode = 'pass';
        dropped++;
        return;
      }
      if (keyed && mode === 'hold') {
        mode = 'pass';
        held.resolve();
        await gate.promise;
      }
      return original(nodeId, envelope);
    };
    restores.push(() => {
      transport.reply = original;
    });
  }
  return {
    dropNext: () => {
      mode = 'drop';
    },
    holdNext: () => {
      held = deferred();
      gate = deferred();
      mode = 'hold';
      return held.promise;
    },
    release: () => gate.resolve(),
    get dropped() {
      return dropped;
    },
    restore: () => restores.forEach((r) => r()),
  };
}
