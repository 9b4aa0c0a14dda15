import type { Message } from 'amqplib';
import type { Envelope } from '../../../../schemas/envelope';
import { AmqpInbox, broadcastHeaders } from '../../../../src/transport/amqp/amqp-inbox';
import type { Logger } from '../../../../src/logging/logger';
import { silentLogger } from '../../../../src/logging/logger';

const envelope = (type: string): Envelope => ({
  v: 1,
  id: `b-${type}`,
  type,
  to: 'broadcast:*',
  deadline: Date.now() + 10_000,
  attempt: 1,
  body: { n: 1 },
});

const message = (content: Buffer | string, headers?: Record<string, unknown>): Message =>
  ({
    content: Buffer.isBuffer(content) ? content : Buffer.from(content),
    fields: {},
    properties: { headers },
  }) as unknown as Message;

/** A logger that records its warnings (a broadcast parsed and found malformed is warned about). */
function recordingLogger(): { log: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const log = { ...silentLogger, warn: (_: unknown, msg?: string) => warnings.push(String(msg)) } as Logger;
  return { log, warnings };
}

describe('AmqpInbox: keyed broadcasts', () => {
  it('drops a keyed broadcast nobody here wants before parsing it, and reads the others', () => {
    const { log, warnings } = recordingLogger();
    const inbox = new AmqpInbox(log);
    const got: string[] = [];
    inbox.onBroadcast((e) => got.push(`${e.type}:${e.id}`));
    const asked: Array<[string, readonly string[]]> = [];
    inbox.filterBroadcasts((type, keys) => {
      asked.push([type, keys]);
      return keys.includes('exe_mine');
    });

    // Not JSON at all: had it been parsed, it would have been warned about as malformed.
    inbox.broadcast(message('{{ not json', broadcastHeaders('execution.events', ['exe_a', 'exe_b'])));
    expect(inbox.skippedBroadcasts).toBe(1);
    expect(warnings).toEqual([]);
    expect(asked).toEqual([['execution.events', ['exe_a', 'exe_b']]]);

    const wanted = envelope('execution.events');
    inbox.broadcast(
      message(JSON.stringify(wanted), broadcastHeaders('execution.events', ['exe_a', 'exe_mine'])),
    );
    expect(got).toEqual(['execution.events:b-execution.events']);
    expect(inbox.skippedBroadcasts).toBe(1);
  });

  it('reads every broadcast without keys, or with keys it cannot read (an older node, a stranger)', () => {
    const inbox = new AmqpInbox(silentLogger);
    const got: string[] = [];
    inbox.onBroadcast((e) => got.push(e.type));
    inbox.filterBroadcasts(() => false);
    inbox.broadcast(message(JSON.stringify(envelope('cache.invalidated'))));
    inbox.broadcast(
      message(JSON.stringify(envelope('odd.keys')), {
        'x-broadcast-type': 'odd.keys',
        'x-broadcast-keys': [1, 2],
      }),
    );
    inbox.broadcast(message(JSON.stringify(envelope('no.type')), { 'x-broadcast-keys': ['exe_a'] }));
    expect(got).toEqual(['cache.invalidated', 'odd.keys', 'no.type']);
    expect(inbox.skippedBroadcasts).toBe(0);
  });

  it('reads everything while no filter is set', () => {
    const inbox = new AmqpInbox(silentLogger);
    const got: string[] = [];
    inbox.onBroadcast((e) => got.push(e.type));
    inbox.broadcast(
      message(JSON.stringify(envelope('execution.events')), broadcastHeaders('execution.events', ['x'])),
    );
    expect(got).toEqual(['execution.events']);
  });
});
