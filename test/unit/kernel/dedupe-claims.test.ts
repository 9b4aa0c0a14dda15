import { z } from 'zod';
import type { Envelope } from '../../../schemas/envelope';
import {
  createActorSystem,
  defineActor,
  MemoryDedupeStore,
  type ClaimOptions,
  type DedupeStore,
} from '../../../src/kernel';
import type { CommandHandler, Transport } from '../../../src/transport/transport';

/** A transport that hands deliveries to the kernel exactly as the test writes them. */
function manualTransport() {
  const handlers = new Map<string, CommandHandler>();
  const transport: Transport = {
    name: 'in-process',
    nodeId: 'node-1',
    start: async () => {},
    consume: async (kind, handler) => {
      handlers.set(kind, handler);
    },
    send: async () => {},
    reply: async () => {},
    onReply: () => {},
    broadcast: async () => {},
    onBroadcast: () => {},
    status: () => ({ state: 'up' }),
    stop: async () => {},
  };
  return { transport, handlers };
}

function envelope(to: string, id: string): Envelope {
  return { v: 1, id, type: 'note.add', to, deadline: Date.now() + 5000, attempt: 1, body: {} };
}

describe('what the kernel tells the dedupe store about each delivery', () => {
  it("asks for the shared record only for redeliveries, or for every message of a kind with dedupe 'shared'", async () => {
    const claims: Array<[string, ClaimOptions | undefined]> = [];
    const memory = new MemoryDedupeStore();
    const store: DedupeStore = {
      claim: (id, owner, leaseMs, options) => {
        claims.push([id, options]);
        return memory.claim(id, owner, leaseMs, options);
      },
      complete: (id, reply) => memory.complete(id, reply),
      release: (id) => memory.release(id),
      get: (id) => memory.get(id),
    };
    const { transport, handlers } = manualTransport();
    const system = createActorSystem({ transport, dedupe: store });
    const actor = (kind: string, dedupe?: 'local' | 'shared') =>
      defineActor({
        kind,
        dedupe,
        messages: { 'note.add': z.object({}) },
        handlers: { 'note.add': () => 1 },
      });
    await system.register(actor('plain'));
    await system.register(actor('strict', 'shared'));
    await system.start();

    const deliver = (kind: string, id: string, redelivered: boolean, deliveryCount: number) =>
      handlers.get(kind)!({ envelope: envelope(`${kind}:1`, id), redelivered, deliveryCount });
    await deliver('plain', 'first', false, 1);
    await deliver('plain', 'redelivered', true, 2);
    await deliver('plain', 'counted', false, 3); // a broker that counts without the flag
    await deliver('strict', 'strict-first', false, 1);
    expect(claims).toEqual([
      ['first', { shared: false }],
      ['redelivered', { shared: true }],
      ['counted', { shared: true }],
      ['strict-first', { shared: true }],
    ]);
    await system.stop(100);
  });

  it("refuses a dedupe setting other than 'local' or 'shared'", () => {
    expect(() =>
      defineActor({
        kind: 'x',
        dedupe: 'global' as never,
        messages: { 'x.y': z.object({}) },
        handlers: { 'x.y': () => 1 },
      }),
    ).toThrow(/dedupe/);
  });
});
