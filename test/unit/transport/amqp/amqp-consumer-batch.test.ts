import type { Channel, ConsumeMessage } from 'amqplib';
import { AckBatcher } from '../../../../src/transport/amqp/amqp-acks';
import { decodeCommandMessage } from '../../../../src/transport/amqp/amqp-codec';
import type { ConsumerHost, Registration } from '../../../../src/transport/amqp/amqp-turn';
import { handleBatch } from '../../../../src/transport/amqp/amqp-consumer-batch';
import type { Verdict } from '../../../../src/transport/transport';
import { silentLogger } from '../../../../src/logging/logger';
import { commandEnvelope } from '../../../support/envelopes';

const tick = () => new Promise((resolve) => setImmediate(resolve));

/**
 * The settlement of a batch with the broker replaced by fakes: what is republished where, and how
 * the batch message itself is settled, including when a republish fails (no broker test can make
 * the confirm of one publish fail on purpose).
 */
function harness(options: { prefetch?: number; republishFails?: boolean } = {}) {
  const frames: string[] = [];
  const channel = {
    ack: () => frames.push('ack'),
    nack: (_m: ConsumeMessage, _all: boolean, requeue: boolean) =>
      frames.push(requeue ? 'nack requeue' : 'nack'),
  } as unknown as Channel;
  const acks = new AckBatcher(channel, () => false);
  const republished: Array<{ target: string; id: string; body: Buffer; headers: Record<string, unknown> }> =
    [];
  let inFlight = 0;
  const host: ConsumerHost = {
    log: silentLogger,
    deliveryLimit: 5,
    prefetch: options.prefetch ?? 64,
    turnStarted: () => inFlight++,
    turnEnded: () => inFlight--,
    republish: (target, _kind, body, headers) => {
      const id = (JSON.parse(body.toString('utf8')) as { id?: string }).id ?? '(no id)';
      republished.push({ target, id, body, headers });
      return options.republishFails ? Promise.reject(new Error('channel closed')) : Promise.resolve();
    },
  };
  /**
   * Each command's answer; 'throw' makes its handler throw. `content`: the message as published
   * (default: the envelopes of `answers` in a JSON array).
   */
  const run = (answers: Record<string, Verdict | 'throw'>, content?: string) => {
    const envelopes = Object.keys(answers).map((id) => commandEnvelope('k:1', { id }));
    const message = {
      content: Buffer.from(content ?? JSON.stringify(envelopes)),
      fields: { deliveryTag: 1, redelivered: false },
      properties: { headers: {} },
    } as unknown as ConsumeMessage;
    const decoded = decodeCommandMessage(message.content);
    if (!decoded.batch) throw new Error('not a batch');
    const registration: Registration = {
      kind: 'k',
      handler: (d) => {
        const answer = answers[d.envelope.id];
        if (answer === 'throw') throw new Error('handler bug');
        return Promise.resolve(answer);
      },
      turns: 0,
    };
    acks.delivered(message);
    handleBatch(host, registration, acks, message, decoded.items);
    return registration;
  };
  return { run, frames, republished, inFlight: () => inFlight };
}

describe('handleBatch', () => {
  it('acks a batch whose commands all ended with ack, and republishes nothing', async () => {
    const h = harness();
    h.run({ a: 'ack', b: 'ack' });
    await tick();
    expect(h.frames).toEqual(['ack']);
    expect(h.republished).toEqual([]);
    expect(h.inFlight()).toBe(0);
  });

  it('splits mixed outcomes: the requeue and the dead letter go alone, then the batch is acked', async () => {
    const h = harness();
    h.run({ a: 'ack', b: 'requeue', c: 'dead-letter' });
    await tick();
    expect(h.republished.map((r) => [r.target, r.id])).toEqual([
      ['queue', 'b'],
      ['dead-letters', 'c'],
    ]);
    expect(h.republished[0].headers).toEqual({ 'x-ars-prior-deliveries': 1 });
    expect(h.republished[1].headers).toMatchObject({ 'x-ars-dead-letter-reason': 'rejected' });
    expect(h.frames).toEqual(['ack']);
    expect(h.inFlight()).toBe(0);
  });

  it('requeues the whole batch when a republish fails, never acking it', async () => {
    const h = harness({ republishFails: true });
    h.run({ a: 'ack', b: 'dead-letter' });
    await tick();
    expect(h.frames).toEqual(['nack requeue']);
    expect(h.inFlight()).toBe(0); // a graceful stop does not wait for it forever
  });

  it('counts a command whose handler throws as a requeue, and the batch still settles', async () => {
    const h = harness();
    const registration = h.run({ a: 'ack', b: 'throw' });
    await tick();
    expect(h.republished.map((r) => [r.target, r.id])).toEqual([['queue', 'b']]);
    expect(h.frames).toEqual(['ack']);
    expect(h.inFlight()).toBe(0);
    expect(registration.turns).toBe(0);
  });

  it('requeues the whole batch when a hand-back cannot be published', async () => {
    const h = harness({ prefetch: 1, republishFails: true });
    h.run({ a: 'ack', b: 'ack' });
    await tick();
    expect(h.republished.map((r) => r.id)).toEqual(['b']);
    expect(h.frames).toEqual(['nack requeue']);
    expect(h.inFlight()).toBe(0);
  });

  it('dead-letters a deeply nested element at once, as it came, with its reason; its neighbours run', async () => {
    const h = harness();
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const [a, b] = ['a', 'b'].map((id) => JSON.stringify(commandEnvelope('k:1', { id })));
    h.run({ a: 'ack', b: 'ack' }, `[${a},${deep},${b}]`);
    await tick();
    expect(h.republished).toHaveLength(1);
    expect(h.republished[0].target).toBe('dead-letters');
    expect(h.republished[0].body.toString('utf8')).toBe(deep);
    expect(h.republished[0].headers).toEqual({
      'x-ars-dead-letter-reason': 'malformed',
      'x-ars-dead-letter-detail': 'invalid envelope: (root): expected an object, got an array',
      'x-ars-prior-deliveries': 1,
    });
    expect(h.frames).toEqual(['ack']);
    expect(h.inFlight()).toBe(0);
  });

  it('puts the reason a handler gives for a dead letter in its headers', async () => {
    const h = harness();
    h.run({ a: 'ack', b: { deadLetter: 'invalid body for "x.y": n: expected number' } });
    await tick();
    expect(h.republished.map((r) => [r.target, r.id])).toEqual([['dead-letters', 'b']]);
    expect(h.republished[0].headers).toEqual({
      'x-ars-dead-letter-reason': 'rejected',
      'x-ars-dead-letter-detail': 'invalid body for "x.y": n: expected number',
      'x-ars-prior-deliveries': 1,
    });
    expect(h.frames).toEqual(['ack']);
  });

  it('hands back what exceeds the free turn slots, marked, and acks once the rest is over', async () => {
    const h = harness({ prefetch: 1 });
    const registration = h.run({ a: 'ack', b: 'ack', c: 'ack' });
    expect(registration.turns).toBe(1); // one slot: one turn runs here
    await tick();
    expect(h.republished.map((r) => r.id)).toEqual(['b', 'c']);
    expect(h.republished[0].headers).toEqual({ 'x-ars-prior-deliveries': 0, 'x-ars-handed-back': 1 });
    expect(h.frames).toEqual(['ack']);
    expect(registration.turns).toBe(0);
  });
});
